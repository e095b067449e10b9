/**
 * The published versions of one catalogue entry, newest first: who and when, the diff of each against the one before,
 * a return to any earlier version or to the reviewed file. A return goes live for every customer at once, so it first
 * shows the diff against what is live and asks (PublishDialog).
 */
import { Badge, Button, Card, Code, Flex, Heading, Text } from '@radix-ui/themes';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { components } from '../../../../generated/api';
import { formatNumber } from '../../../../shared/format';
import { DateText } from '../../../components/date/DateText';
import { ApiError, api, call, digMessage, FALLBACK_MESSAGE } from '../../../lib/api-client';
import { DiffView } from './DiffView';
import { PublishDialog } from './PublishDialog';

type Entry = components['schemas']['CatalogueEntry'];
type Version = components['schemas']['CatalogueVersion'];

export function Versions({ entry }: { entry: Entry }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<number | null>(null);
  /** The return staff asked for and must still confirm: a version's id, or the file. */
  const [asking, setAsking] = useState<{ versionId: number | null; label: string; document: unknown } | null>(null);
  const versions = useQuery({
    queryKey: ['staff', 'catalogue', 'versions', entry.kind, entry.identifier],
    queryFn: () =>
      call<{ items: Version[]; file: { file: string; document: Record<string, unknown> } | null }>(
        api.POST('/api/sys/searchCatalogueVersions', { body: { kind: entry.kind, identifier: entry.identifier } }),
      ),
  });
  const file = versions.data?.file ?? null;
  const items = versions.data?.items ?? [];
  /** What a version made live: its document, or the file's for a return to the file. */
  const documentOf = (v: Version | undefined) =>
    v ? (v.document ?? file?.document ?? null) : (file?.document ?? null);

  /** Publishes the return; resolves to the server's message (the dialog shows it), a refusal stays in the dialog. */
  const revert = async (versionId: number | null): Promise<string> => {
    const res = await api.POST('/api/sys/revertCatalogueEntry', {
      body: { kind: entry.kind, identifier: entry.identifier, versionId },
    });
    if (res.error) throw new ApiError(digMessage(res.error) ?? FALLBACK_MESSAGE, res.response.status, res.error);
    await queryClient.invalidateQueries({ queryKey: ['staff', 'catalogue'] });
    void queryClient.invalidateQueries({ queryKey: ['catalogue'] });
    return res.data.msg;
  };

  return (
    <Flex direction="column" gap="2" data-testid="catalogue-versions">
      <Heading size="3" as="h3">
        نسخه‌ها
      </Heading>
      {items.length === 0 && <Text size="2">هنوز نسخه‌ای منتشر نشده است؛ آنچه می‌بینید فایل بازبینی‌شده است.</Text>}
      {items.map((v, index) => {
        const previous = items[index + 1];
        const isLive = index === 0;
        return (
          <Card key={v.id} data-testid={`catalogue-version-${v.version}`}>
            <Flex direction="column" gap="2">
              <Flex gap="2" align="center" wrap="wrap">
                <Text weight="bold">نسخهٔ {formatNumber(v.version)}</Text>
                {isLive && <Badge color="green">منتشرشده</Badge>}
                {v.revertedTo !== null && (
                  <Badge color="gray">
                    {v.revertedTo === 0 ? 'بازگشت به فایل' : `بازگشت به نسخهٔ ${formatNumber(v.revertedTo)}`}
                  </Badge>
                )}
                <Text size="2" color="gray">
                  {v.authorName ?? '—'} · <DateText value={v.createdAt} />
                </Text>
              </Flex>
              <Flex gap="2" wrap="wrap">
                <Button
                  size="1"
                  variant="soft"
                  aria-expanded={open === v.id}
                  onClick={() => setOpen(open === v.id ? null : v.id)}
                >
                  {open === v.id ? 'بستن تفاوت' : 'تفاوت با نسخهٔ پیشین'}
                </Button>
                {!isLive && (
                  <Button
                    size="1"
                    variant="outline"
                    onClick={() =>
                      setAsking({
                        versionId: v.id,
                        label: `بازگشت به نسخهٔ ${formatNumber(v.version)}`,
                        document: documentOf(v),
                      })
                    }
                    data-testid={`catalogue-revert-${v.version}`}
                  >
                    بازگشت به این نسخه
                  </Button>
                )}
              </Flex>
              {open === v.id && <DiffView before={documentOf(previous)} after={documentOf(v)} />}
            </Flex>
          </Card>
        );
      })}
      {file && (
        <Card>
          <Flex gap="2" align="center" wrap="wrap">
            <Text weight="bold">فایل بازبینی‌شده</Text>
            <Code dir="ltr" variant="ghost">
              {file.file}
            </Code>
            {entry.source === 'published' && (
              <Button
                size="1"
                variant="outline"
                onClick={() => setAsking({ versionId: null, label: 'بازگشت به فایل', document: file.document })}
                data-testid="catalogue-revert-file"
              >
                بازگشت به فایل
              </Button>
            )}
          </Flex>
        </Card>
      )}
      {asking && (
        <PublishDialog
          title={entry.title}
          heading={`${asking.label}: «${entry.title}» برای همهٔ مشتریان عوض شود؟`}
          submitLabel={`${asking.label} برای همه`}
          testId="catalogue-revert"
          before={entry.document}
          after={asking.document}
          onPublish={() => revert(asking.versionId)}
          onClose={() => setAsking(null)}
        />
      )}
    </Flex>
  );
}
