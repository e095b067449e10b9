/**
 * Currency payments, /management/currencyPayments: every currency payment staff recorded when they carried a
 * request out (api/sys/searchCurrencyPayments) on the data-table engine (schemas/tables/currencyPayments.json) with
 * search, a date range in the chosen calendar and export; a row with a receipt image opens it («رسید»).
 */
import { FileTextIcon } from '@radix-ui/react-icons';
import { Button, Card, Flex, Heading, Text } from '@radix-ui/themes';
import { useAtomValue } from 'jotai';
import { useMemo, useState } from 'react';
import currencyPaymentsTable from '../../../../../schemas/tables/currencyPayments.json';
import { asTableDef, DataTable } from '../../../components/data-table/DataTable';
import { dateBound, JalaliDateInput } from '../../../components/date/JalaliDateInput';
import { showSnackbar } from '../../../components/shell/snackbar';
import { api, call, digMessage, FALLBACK_MESSAGE } from '../../../lib/api-client';
import { calendarAtom } from '../../../lib/calendar';

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
  const calendar = useAtomValue(calendarAtom);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');

  // The page's own filters ride on the table's source parameters; a change refetches.
  const def = useMemo(() => {
    const params = {
      ...(dateBound(from) ? { from: dateBound(from) } : {}),
      ...(dateBound(to) ? { to: dateBound(to) } : {}),
    };
    return { ...TABLE, source: { ...TABLE.source, params } };
  }, [from, to]);
  const refreshKey = JSON.stringify(def.source.params);

  return (
    <Flex direction="column" gap="3">
      <Heading size="6">{TABLE.title}</Heading>
      <Card size="2">
        <Flex direction="column" gap="3">
          <Flex gap="3" wrap="wrap" align="end">
            <Flex direction="column" gap="1" style={{ minWidth: 150 }}>
              <Text as="label" size="2" htmlFor="currency-payments-from">
                از تاریخ
              </Text>
              <JalaliDateInput id="currency-payments-from" value={from} onChange={setFrom} calendar={calendar} />
            </Flex>
            <Flex direction="column" gap="1" style={{ minWidth: 150 }}>
              <Text as="label" size="2" htmlFor="currency-payments-to">
                تا تاریخ
              </Text>
              <JalaliDateInput id="currency-payments-to" value={to} onChange={setTo} calendar={calendar} />
            </Flex>
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
