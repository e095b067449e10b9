/**
 * My financial balance (/request/myWallet): the wallet and the reserved amount, and every transaction of the
 * customer newest first on the data-table engine (schemas/tables/myTransactions.json), coloured as SPEC section 4
 * says (src/shared/transaction-tones.ts): a colour per trace code, superseded steps greyed, a story's final
 * transaction red when it failed and green when it succeeded. A transaction of a collection links to its receipt.
 * Below the balance, the customer's bank accounts and withdrawals (BankAccountsSection). wallet.changed refreshes all.
 */
import { Button, Card, Flex, Heading, Link as RadixLink, Text } from '@radix-ui/themes';
import { useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import myTransactionsTable from '../../../../schemas/tables/myTransactions.json';
import {
  type AmountInput,
  toneTransactions,
  type ToneInput,
  transactionAmount,
} from '../../../shared/transaction-tones';
import { asTableDef, DataTable } from '../../components/data-table/DataTable';
import { EmptyState } from '../../components/states/EmptyState';
import { SignInPrompt } from '../../components/states/SignInPrompt';
import { pathOf } from '../../lib/routes';
import { userAtom } from '../../lib/session';
import { BalanceCards } from './BalanceCards';
import { BankAccountsSection } from './BankAccountsSection';

const def = asTableDef(myTransactionsTable);

const decorate = (items: Array<Record<string, unknown>>) =>
  toneTransactions(items as unknown as Array<ToneInput & Record<string, unknown>>).map((row, i) => ({
    ...row,
    rowKey: `${i}-${row.traceCode}-${row.type}`,
    amount: transactionAmount(row as AmountInput),
  }));

export default function MyWalletPage() {
  const user = useAtomValue(userAtom);
  if (!user) return <SignInPrompt title="موجودی مالی من" />;
  return (
    <Flex direction="column" gap="3">
      <Heading size="6">موجودی مالی من</Heading>
      <BalanceCards />
      <BankAccountsSection />
      <Card size="2">
        <Flex direction="column" gap="2">
          <Heading size="4" as="h2">
            تراکنش‌ها
          </Heading>
          <Text size="1" color="gray">
            تراکنش‌های یک ماجرا (مثلاً پرداخت یک درخواست) کد پیگیری و رنگ یکسان دارند؛ تازه‌ترینِ هر کد، نتیجه نهایی است:
            سبز یعنی موفق، قرمز یعنی ناموفق و ردیف‌های خاکستری مراحل پیشین‌اند.
          </Text>
          <DataTable
            def={def}
            decorate={decorate}
            stackOnMobile
            empty={
              <EmptyState
                title="هنوز تراکنشی ندارید"
                testId="my-transactions-empty"
                action={
                  <Button asChild>
                    <Link to="/">دیدن خدمات</Link>
                  </Button>
                }
              >
                پرداخت‌ها، واریزها و برگشت وجه به کیف پول، هر کدام با کد پیگیری، اینجا فهرست می‌شوند. برای پرداخت لازم
                نیست کیف پول را از پیش شارژ کنید: هزینهٔ هر درخواست هنگام ثبت آن آنلاین پرداخت می‌شود.
              </EmptyState>
            }
            actions={(row) =>
              typeof row.collectionId === 'number' ? (
                <RadixLink asChild size="2">
                  <Link to={pathOf('receipt', { id: String(row.collectionId) })} data-testid="transaction-receipt">
                    رسید
                  </Link>
                </RadixLink>
              ) : null
            }
          />
        </Flex>
      </Card>
    </Flex>
  );
}
