/**
 * The customer's unfinished forms (server drafts, decision 044) on «درخواست‌های من»: each desk's title, «پیش‌نویس», when
 * it was saved and the way back to the desk, where the form opens with it. Loaded after the page's own list (lazy).
 */
import { Badge, Button, Card, Flex, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import type { components } from '../../../generated/api';
import { DateText } from '../../components/date/DateText';
import { api, call } from '../../lib/api-client';
import { catalogueAtom } from '../../lib/queries/catalogue';

type DeskDraftSummary = components['schemas']['DeskDraftSummary'];

export default function DeskDraftsList() {
  const catalogue = useAtomValue(catalogueAtom);
  const drafts = useQuery({
    queryKey: ['deskDrafts'],
    queryFn: () => call<{ items: DeskDraftSummary[] }>(api.POST('/api/me/searchDeskDrafts')),
    staleTime: 0,
  });
  const items = drafts.data?.items ?? [];
  if (items.length === 0) return null;
  const titleOf = (desk: string) => catalogue.data?.desks.find((d) => d.identifier === desk)?.title ?? desk;
  return (
    <Card size="2" data-testid="desk-drafts">
      <Flex direction="column" gap="3" asChild>
        <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {items.map((draft) => (
            <li key={draft.desk} data-testid="desk-draft">
              <Flex gap="3" align="center" justify="between" wrap="wrap">
                <Flex direction="column" gap="1">
                  <Flex gap="2" align="center">
                    <Badge color="amber">پیش‌نویس</Badge>
                    <Text weight="medium">{titleOf(draft.desk)}</Text>
                  </Flex>
                  <Text size="1" color="gray">
                    ذخیره‌شده در <DateText value={draft.savedAt} format="longDateTime" />
                  </Text>
                </Flex>
                <Button size="1" asChild>
                  <Link to={`/desks/${draft.desk}`}>ادامهٔ فرم</Link>
                </Button>
              </Flex>
            </li>
          ))}
        </ul>
      </Flex>
    </Card>
  );
}
