/**
 * Collections (receipts), /management/collections: every payment received, online or recorded by hand, on the
 * data-table engine (schemas/tables/collections.json) with search, source, a date range in the chosen calendar
 * and export. «ثبت دریافت دستی» records a deposit to a customer's wallet by their mobile number (PayOfflineDialog);
 * an online payment the bank took but never confirmed is completed on the manual completion page.
 */
import { PlusIcon } from '@radix-ui/react-icons';
import { Button, Card, Flex, Heading, Select, Text } from '@radix-ui/themes';
import { useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useMemo, useState } from 'react';
import collectionsTable from '../../../../../schemas/tables/collections.json';
import { asTableDef, DataTable } from '../../../components/data-table/DataTable';
import { DateRangeFilter, useDateRange } from '../../../components/date/DateRangeFilter';
import { canAtom } from '../../../lib/policy';
import { PayOfflineDialog } from './PayOfflineDialog';

const TABLE = asTableDef(collectionsTable);
const ALL = 'all';

export default function CollectionsPage() {
  const can = useAtomValue(canAtom);
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [source, setSource] = useState(ALL);
  const range = useDateRange();
  const [refresh, setRefresh] = useState(0);

  // The page's own filters ride on the table's source parameters; a change refetches.
  const def = useMemo(() => {
    const params = { ...(source !== ALL ? { source } : {}), ...range.params };
    return { ...TABLE, source: { ...TABLE.source, params } };
  }, [source, range.params]);
  // The table's cache key knows only its refresh key: fold the filters into it, so each filter has its own rows.
  const refreshKey = `${JSON.stringify(def.source.params)}#${refresh}`;

  return (
    <Flex direction="column" gap="3">
      <Flex justify="between" align="center" gap="2" wrap="wrap">
        <Heading size="6">{TABLE.title}</Heading>
        {can('manageCollections') && (
          <Button onClick={() => setOpen(true)} data-testid="open-pay-offline">
            <PlusIcon /> ثبت دریافت دستی
          </Button>
        )}
      </Flex>
      <Card size="2">
        <Flex direction="column" gap="3">
          <Flex gap="3" wrap="wrap" align="end">
            <Flex direction="column" gap="1">
              <Text as="label" size="2" htmlFor="collections-source">
                نوع
              </Text>
              <Select.Root value={source} onValueChange={setSource}>
                <Select.Trigger id="collections-source" aria-label="نوع دریافت" />
                <Select.Content position="popper">
                  <Select.Item value={ALL}>همه</Select.Item>
                  <Select.Item value="online">آنلاین</Select.Item>
                  <Select.Item value="offline">دستی</Select.Item>
                </Select.Content>
              </Select.Root>
            </Flex>
            <DateRangeFilter idPrefix="collections" range={range} />
          </Flex>
          <DataTable
            narrowed={Object.keys(def.source.params).length > 0}
            def={def}
            refreshKey={refreshKey}
            stackOnMobile
          />
        </Flex>
      </Card>
      {open && (
        <PayOfflineDialog
          onClose={() => setOpen(false)}
          onRecorded={() => {
            setRefresh((n) => n + 1);
            void queryClient.invalidateQueries({ queryKey: ['table', TABLE.name] });
            void queryClient.invalidateQueries({ queryKey: ['staff'] });
          }}
        />
      )}
    </Flex>
  );
}
