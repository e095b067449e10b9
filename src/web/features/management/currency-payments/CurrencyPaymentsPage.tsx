/**
 * Currency payments, /management/currencyPayments: every currency payment staff recorded when they carried a
 * request out (api/sys/searchCurrencyPayments) on the data-table engine (schemas/tables/currencyPayments.json) with
 * search, a date range in the chosen calendar and export; a row with a receipt image opens it («رسید»).
 */
import { FileTextIcon } from '@radix-ui/react-icons';
import { Button, Card, Flex, Heading } from '@radix-ui/themes';
import { useMemo, useState } from 'react';
import currencyPaymentsTable from '../../../../../schemas/tables/currencyPayments.json';
import { asTableDef, DataTable } from '../../../components/data-table/DataTable';
import { DateRangeFilter, useDateRange } from '../../../components/date/DateRangeFilter';
import { showSnackbar } from '../../../components/shell/snackbar';
import { api, call, digMessage, FALLBACK_MESSAGE } from '../../../lib/api-client';

const TABLE = asTableDef(currencyPaymentsTable);

/** Opens the receipt image in a new tab through a signed, expiring address. */
function ReceiptButton({ path }: { path: string }) {
  const [busy, setBusy] = useState(false);
  const open = async () => {
    setBusy(true);
    try {
      const { url } = await call<{ url: string }>(api.POST('/api/me/fileUrl', { body: { path } }));
      window.open(url, '_blank', 'noopener');
    } catch (e) {
      showSnackbar(digMessage(e) ?? FALLBACK_MESSAGE, 'red');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size="1" variant="soft" loading={busy} onClick={() => void open()} data-testid="open-receipt">
      <FileTextIcon /> رسید
    </Button>
  );
}

export default function CurrencyPaymentsPage() {
  const range = useDateRange();

  // The page's own filters ride on the table's source parameters; a change refetches.
  const def = useMemo(() => ({ ...TABLE, source: { ...TABLE.source, params: range.params } }), [range.params]);
  const refreshKey = JSON.stringify(def.source.params);

  return (
    <Flex direction="column" gap="3">
      <Heading size="6">{TABLE.title}</Heading>
      <Card size="2">
        <Flex direction="column" gap="3">
          <Flex gap="3" wrap="wrap" align="end">
            <DateRangeFilter idPrefix="currency-payments" range={range} />
          </Flex>
          <DataTable
            narrowed={Object.keys(def.source.params).length > 0}
            def={def}
            refreshKey={refreshKey}
            stackOnMobile
            actions={(row) =>
              typeof row.receiptFile === 'string' && row.receiptFile ? <ReceiptButton path={row.receiptFile} /> : null
            }
          />
        </Flex>
      </Card>
    </Flex>
  );
}
