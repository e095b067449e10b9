/**
 * The day's trial balance (fetchTrialBalance): each ledger account kind with its opening balance, debits, credits and
 * closing balance, the totals (each sums to zero when the books balance), and our bank account in the ledger beside
 * our uploaded bank statements, with the difference named. Balances are signed as the ledger keeps them: a company
 * account runs negative where money came in.
 */
import { Badge, Callout, Flex, Grid, Heading, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import type { components } from '../../../../generated/api';
import { type Column, TableView } from '../../../components/data-table/TableView';
import { RialText } from '../../../components/RialText';
import { LoadError } from '../../../components/states/LoadError';
import { api, call } from '../../../lib/api-client';
import { formatNumber } from '../../../../shared/format';

export type TrialBalance = components['schemas']['TrialBalance'];
type Line = TrialBalance['accounts'][number];

export const trialBalanceQueryKey = (day: string) => ['reconciliation', 'trialBalance', day];

export const fetchTrialBalance = (day: string) =>
  call<TrialBalance>(api.POST('/api/sys/fetchTrialBalance', { body: { day } }));

const columns: Array<Column<Line>> = [
  {
    key: 'title',
    title: 'حساب',
    rowHeader: true,
    cell: (l) => (
      <>
        {l.title}
        {l.owner === 'customer' && (
          <Text size="1" color="gray">
            {' '}
            ({formatNumber(l.accountCount)} حساب)
          </Text>
        )}
      </>
    ),
  },
  { key: 'opening', title: 'ماندهٔ اول روز', cell: (l) => <RialText value={l.opening} /> },
  { key: 'debits', title: 'بدهکار', cell: (l) => <RialText value={l.debits} /> },
  { key: 'credits', title: 'بستانکار', cell: (l) => <RialText value={l.credits} /> },
  {
    key: 'closing',
    title: 'ماندهٔ پایان روز',
    cell: (l) => <RialText value={l.closing} />,
    testId: (l) => `trial-closing-${l.kind}`,
  },
];

export function TrialBalanceView({ day }: { day: string }) {
  const query = useQuery({ queryKey: trialBalanceQueryKey(day), queryFn: () => fetchTrialBalance(day) });
  if (query.isError) {
    return (
      <LoadError
        error={query.error}
        fallback="دریافت تراز آزمایشی ممکن نشد."
        onRetry={() => void query.refetch()}
        retrying={query.isRefetching}
      />
    );
  }
  const data = query.data;
  const balanced = data && data.totals.opening === 0 && data.totals.closing === 0;
  const totalRow: Line | null = data
    ? { kind: 'total', title: 'جمع', owner: 'system', accountCount: 0, ...data.totals }
    : null;
  return (
    <Flex direction="column" gap="2" data-testid="trial-balance">
      <Flex justify="between" align="center" gap="2" wrap="wrap">
        <Heading as="h3" size="3">
          تراز آزمایشی روز
        </Heading>
        {data && (
          <Badge color={balanced ? 'green' : 'red'} data-testid="trial-balance-state">
            {balanced ? 'جمع مانده‌ها صفر است' : 'جمع مانده‌ها صفر نیست'}
          </Badge>
        )}
      </Flex>
      <TableView
        columns={columns}
        rows={data && totalRow ? [...data.accounts, totalRow] : []}
        rowKey={(l) => l.kind}
        loading={query.isPending}
        testId="trial-balance-table"
      />
      {data && <BankBeside bank={data.bank} />}
    </Flex>
  );
}

function BankBeside({ bank }: { bank: TrialBalance['bank'] }) {
  if (bank.statementClosing === null) {
    return (
      <Callout.Root color="gray" data-testid="trial-bank-none">
        <Callout.Text>
          صورت‌حساب بانکی بارگذاری نشده است؛ موجودی حساب بانکی در دفتر کل <RialText value={bank.ledgerClosing} /> است.
        </Callout.Text>
      </Callout.Root>
    );
  }
  return (
    <Grid columns={{ initial: '1', sm: '3' }} gap="2" data-testid="trial-bank">
      <Text size="2">
        حساب بانکی در دفتر کل: <RialText value={bank.ledgerClosing} testId="trial-bank-ledger" />
      </Text>
      <Text size="2">
        صورت‌حساب بانک ({formatNumber(bank.statementLines)} ردیف):{' '}
        <RialText value={bank.statementClosing} testId="trial-bank-statement" />
      </Text>
      <Text size="2" color={bank.difference === 0 ? 'green' : 'red'}>
        اختلاف: <RialText value={bank.difference} testId="trial-bank-difference" />
      </Text>
      {bank.difference !== 0 &&
        bank.explained.map((part) => (
          <Text size="1" color="gray" key={part.reason}>
            {part.title}: <RialText value={part.amount} />
          </Text>
        ))}
    </Grid>
  );
}
