/**
 * Manual order completion, /management/manual-completion (SPEC sections 1, 5): the requests whose online payment
 * reached the bank but never came back confirmed (api/sys/searchUnconfirmedPayments), oldest first. When the money
 * is seen in our bank account, «تکمیل دستی» records it with the bank's tracking code (payOffline with the payment's
 * token): the request becomes paid as if the gateway had answered.
 */
import { Button, Card, Flex, Heading, Text } from '@radix-ui/themes';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import unconfirmedPaymentsTable from '../../../../../schemas/tables/unconfirmedPayments.json';
import { asTableDef, DataTable } from '../../../components/data-table/DataTable';
import { PayOfflineDialog, type UnconfirmedPayment } from './PayOfflineDialog';

const TABLE = asTableDef(unconfirmedPaymentsTable);

export default function ManualCompletionPage() {
  const queryClient = useQueryClient();
  const [settling, setSettling] = useState<UnconfirmedPayment | null>(null);
  const [refresh, setRefresh] = useState(0);
  return (
    <Flex direction="column" gap="3">
      <Heading size="6">{TABLE.title}</Heading>
      <Text size="2" color="gray">
        درخواست‌هایی که پرداخت آنلاینشان به بانک رفت و تاییدش برنگشت. اگر مبلغ در حساب ارزپی دیده می‌شود، آن را با کد
        پیگیری بانک ثبت کنید تا درخواست پرداخت‌شده شود.
      </Text>
      <Card size="2">
        <DataTable
          def={TABLE}
          refreshKey={refresh}
          stackOnMobile
          actions={(row) => (
            <Button
              size="1"
              onClick={() => setSettling(row as unknown as UnconfirmedPayment)}
              data-testid={`complete-${String(row.purchaseId)}`}
            >
              تکمیل دستی
            </Button>
          )}
        />
      </Card>
      {settling && (
        <PayOfflineDialog
          settle={settling}
          onClose={() => setSettling(null)}
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
