/**
 * One customer's financial balance (/customer-wallets/{id}): their wallet and reserved amount and their
 * transactions, on the same table definition as My wallet (schemas/tables/myTransactions.json, coloured per SPEC
 * section 4), read from api/sys/searchCustomerTransactions. Staff holding viewCustomers see any customer's and the
 * online payments still open (with the token the manual collection dialog takes); a customer sees only their own —
 * the server answers anyone else as if the id did not exist.
 */
import { Badge, Callout, Card, Code, Flex, Grid, Heading, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useMemo } from 'react';
import { useParams } from 'react-router-dom';
import myTransactionsTable from '../../../../schemas/tables/myTransactions.json';
import { formatNumber, formatPhone } from '../../../shared/format';
import { toneTransactions, type ToneInput, transactionAmount } from '../../../shared/transaction-tones';
import { asTableDef, DataTable } from '../../components/data-table/DataTable';
import { type Column, TableView } from '../../components/data-table/TableView';
import { DateText } from '../../components/date/DateText';
import { RialText } from '../../components/RialText';
import { LoadError } from '../../components/states/LoadError';
import { SignInPrompt } from '../../components/states/SignInPrompt';
import { type CustomerWallet, customerWalletQuery } from '../../lib/queries/staff-money';
import { userAtom } from '../../lib/session';

const BASE = asTableDef(myTransactionsTable);

const decorate = (items: Array<Record<string, unknown>>) =>
  toneTransactions(items as unknown as Array<ToneInput & Record<string, unknown>>).map((row, i) => ({
    ...row,
    rowKey: `${i}-${row.traceCode}-${row.type}`,
    amount: transactionAmount(row as unknown as Parameters<typeof transactionAmount>[0]),
  }));

type OpenPayment = CustomerWallet['openPayments'][number];
const OPEN_STATE: Record<OpenPayment['state'], string> = {
  new: 'ایجاد شده',
  pending: 'در انتظار تایید بانک',
  cancelled: 'لغو شده',
  failed: 'ناموفق',
};
const openColumns: Array<Column<OpenPayment>> = [
  { key: 'id', title: 'شماره', cell: (p) => <span className="ltr">{formatNumber(p.onlineProformaId)}</span> },
  { key: 'amount', title: 'مبلغ', cell: (p) => <RialText value={p.amount} /> },
  { key: 'state', title: 'وضعیت', cell: (p) => <Badge color="orange">{OPEN_STATE[p.state]}</Badge> },
  {
    key: 'purchase',
    title: 'درخواست',
    cell: (p) => (p.purchaseId === null ? '—' : <span className="ltr">{formatNumber(p.purchaseId)}</span>),
  },
  { key: 'createdAt', title: 'تاریخ', cell: (p) => <DateText value={p.createdAt} />, hideOnMobile: true },
  {
    key: 'token',
    title: 'شناسه پرداخت آنلاین',
    cell: (p) => (
      <Code dir="ltr" data-testid="open-payment-token">
        {p.token}
      </Code>
    ),
  },
];

function Amount({ title, value, testId }: { title: string; value: number | undefined; testId: string }) {
  return (
    <Card size="2">
      <Flex direction="column" gap="1">
        <Text size="2" color="gray">
          {title}
        </Text>
        <Text size="5" weight="bold">
          {value === undefined ? '…' : <RialText value={value} testId={testId} />}
        </Text>
      </Flex>
    </Card>
  );
}

function Wallet({ userId }: { userId: number }) {
  const wallet = useQuery(customerWalletQuery(userId));
  const def = useMemo(
    () => ({
      ...BASE,
      name: 'customerTransactions',
      title: 'تراکنش‌ها',
      source: {
        path: '/api/sys/searchCustomerTransactions',
        method: 'post' as const,
        paging: 'client' as const,
        params: { userId, perPage: 500 },
      },
    }),
    [userId],
  );
  if (wallet.isError) {
    return (
      <LoadError
        error={wallet.error}
        fallback="دریافت موجودی ممکن نشد."
        onRetry={() => void wallet.refetch()}
        retrying={wallet.isFetching}
      />
    );
  }
  const data = wallet.data;
  return (
    <Flex direction="column" gap="3">
      <Heading size="6">موجودی مالی {data ? data.customer.name : ''}</Heading>
      {data?.customer.mobileNo && (
        <Text size="2" color="gray" className="ltr" style={{ alignSelf: 'flex-start' }}>
          {formatPhone(data.customer.mobileNo)}
        </Text>
      )}
      <Grid columns={{ initial: '1', xs: '2' }} gap="3">
        <Amount title="موجودی کیف پول" value={data?.balance} testId="customer-wallet-balance" />
        <Amount title="مبلغ رزروشده" value={data?.reserved} testId="customer-wallet-reserved" />
      </Grid>
      {data && data.openPayments.length > 0 && (
        <Card size="2">
          <Flex direction="column" gap="2">
            <Heading size="4" as="h2">
              پرداخت‌های آنلاین تاییدنشده
            </Heading>
            <Text size="1" color="gray">
              اگر بانک مبلغ را برداشته ولی تایید نکرده است، با شناسه پرداخت در صفحه دریافت‌ها «ثبت دریافت دستی» کنید.
            </Text>
            <TableView columns={openColumns} rows={data.openPayments} rowKey={(p) => p.onlineProformaId} />
          </Flex>
        </Card>
      )}
      <Card size="2">
        <Flex direction="column" gap="2">
          <Heading size="4" as="h2">
            تراکنش‌ها
          </Heading>
          <DataTable def={def} decorate={decorate} stackOnMobile />
        </Flex>
      </Card>
    </Flex>
  );
}

export default function CustomerWalletPage() {
  const user = useAtomValue(userAtom);
  const { id } = useParams();
  const userId = Number(id);
  if (!user) return <SignInPrompt />;
  if (!Number.isSafeInteger(userId) || userId < 1) {
    return (
      <Callout.Root color="red" role="alert">
        <Callout.Text>موجودی این مشتری پیدا نشد.</Callout.Text>
      </Callout.Root>
    );
  }
  return <Wallet userId={userId} />;
}
