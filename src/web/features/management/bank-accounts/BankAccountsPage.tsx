/**
 * Bank accounts to approve, /management/bankAccounts (approveBankAccountOwnership): customers' bank accounts on
 * the data-table engine (schemas/tables/bankAccounts.json) by ownership (waiting first, the longest wait on top),
 * searchable by customer, IBAN or holder, with a registration date range in the chosen calendar and export. A
 * waiting account's «بررسی مالکیت» opens its review task (the same dialog as the task queue, which claims it) to
 * approve the ownership or reject it with a reason the customer sees.
 */
import { Button, Card, Flex, Heading, SegmentedControl } from '@radix-ui/themes';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import bankAccountsTable from '../../../../../schemas/tables/bankAccounts.json';
import { asTableDef, DataTable } from '../../../components/data-table/DataTable';
import { DateRangeFilter, useDateRange } from '../../../components/date/DateRangeFilter';
import { decorateBankAccounts } from '../../../lib/withdrawals';
import { BankAccountReviewDialog } from '../tasks/BankAccountReviewDialog';

const TABLE = asTableDef(bankAccountsTable);
type Ownership = 'waiting' | 'approved' | 'rejected' | 'all';

export default function BankAccountsPage() {
  const queryClient = useQueryClient();
  const [ownership, setOwnership] = useState<Ownership>('waiting');
  const range = useDateRange();
  const [refresh, setRefresh] = useState(0);
  const [taskId, setTaskId] = useState<number | null>(null);

  // The page's own filters ride on the table's source parameters; a change refetches.
  const def = useMemo(() => {
    const params = { ...(ownership !== 'all' ? { ownership } : {}), ...range.params };
    return { ...TABLE, source: { ...TABLE.source, params } };
  }, [ownership, range.params]);
  const refreshKey = `${JSON.stringify(def.source.params)}#${refresh}`;

  return (
    <Flex direction="column" gap="3">
      <Heading size="6">{TABLE.title}</Heading>
      <SegmentedControl.Root
        value={ownership}
        onValueChange={(v) => setOwnership(v as Ownership)}
        aria-label="مالکیت"
        data-testid="bank-accounts-ownership"
      >
        <SegmentedControl.Item value="waiting">در انتظار بررسی</SegmentedControl.Item>
        <SegmentedControl.Item value="approved">تایید شده</SegmentedControl.Item>
        <SegmentedControl.Item value="rejected">رد شده</SegmentedControl.Item>
        <SegmentedControl.Item value="all">همه</SegmentedControl.Item>
      </SegmentedControl.Root>
      <Card size="2">
        <Flex direction="column" gap="3">
          <Flex gap="3" wrap="wrap" align="end">
            <DateRangeFilter idPrefix="bank-accounts" range={range} fromLabel="ثبت از تاریخ" />
          </Flex>
          <DataTable
            narrowed={Object.keys(def.source.params).length > 0}
            def={def}
            decorate={decorateBankAccounts}
            refreshKey={refreshKey}
            stackOnMobile
            actions={(row) =>
              row.taskId !== null && row.taskId !== undefined ? (
                <Button
                  size="1"
                  onClick={() => setTaskId(Number(row.taskId))}
                  data-testid={`review-bank-account-${String(row.id)}`}
                >
                  بررسی مالکیت
                </Button>
              ) : null
            }
          />
        </Flex>
      </Card>
      <BankAccountReviewDialog
        taskId={taskId}
        onClose={(changed) => {
          setTaskId(null);
          if (changed) {
            setRefresh((n) => n + 1);
            // The task queue and the staff home count the same reviews.
            void queryClient.invalidateQueries({ queryKey: ['taskTypes'] });
            void queryClient.invalidateQueries({ queryKey: ['staff'] });
          }
        }}
      />
    </Flex>
  );
}
