/**
 * The wallet page's bank accounts and withdrawals: register an IBAN (checked as one types, the bank named when
 * valid), the accounts with their ownership review (red rejected, green approved), and «برداشت از کیف پول» to an
 * approved account with a confirmation, then the withdrawals and their states. wallet.changed refreshes them.
 */
import { AlertDialog, Button, Callout, Card, Flex, Heading, Select, Text, TextField } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useMemo, useRef, useState } from 'react';
import myBankAccountsTable from '../../../../schemas/tables/myBankAccounts.json';
import myWithdrawalsTable from '../../../../schemas/tables/myWithdrawals.json';
import { toEnglishDigits } from '../../../shared/digits';
import { parseIban } from '../../../shared/iban';
import { describedBy, FormField, labelId } from '../../components/FormField';
import { asTableDef, DataTable } from '../../components/data-table/DataTable';
import { EmptyState } from '../../components/states/EmptyState';
import { Latin } from '../../components/Latin';
import { RialText } from '../../components/RialText';
import { showSnackbar } from '../../components/shell/snackbar';
import { api, call, digMessage, FALLBACK_MESSAGE } from '../../lib/api-client';
import { userBalanceQuery } from '../../lib/queries/wallet';
import { queryClient } from '../../lib/query';
import { type BankAccount, decorateBankAccounts, decorateWithdrawals, ibanText } from '../../lib/withdrawals';
import { LATIN_ATTRIBUTE } from '../../../shared/format/latin';
import { groupNumberAsTyped, groupWhileTyping } from '../../../shared/format';

const accountsDef = asTableDef(myBankAccountsTable);
const withdrawalsDef = asTableDef(myWithdrawalsTable);

const bankAccountsQuery = {
  queryKey: ['wallet', 'bankAccounts'],
  queryFn: () => call<{ items: BankAccount[] }>(api.POST('/api/me/searchUserBankAccounts')),
};

const refreshMoney = () =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: ['wallet'] }),
    queryClient.invalidateQueries({ queryKey: ['table', 'myBankAccounts'] }),
    queryClient.invalidateQueries({ queryKey: ['table', 'myWithdrawals'] }),
    queryClient.invalidateQueries({ queryKey: ['table', 'myTransactions'] }),
  ]);

function RegisterAccount() {
  const [iban, setIban] = useState('');
  const [ownerName, setOwnerName] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const parsed = useMemo(() => parseIban(iban), [iban]);
  const showProblem = !parsed.ok && (touched || iban.replace(/\s/g, '').length >= 26);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!parsed.ok) return;
    setBusy(true);
    setError(null);
    try {
      const result = await api.POST('/api/me/saveUserBankAccount', {
        body: { iban: parsed.iban, ...(ownerName.trim() ? { ownerName: ownerName.trim() } : {}) },
      });
      if (result.error) throw result.error;
      showSnackbar(result.data.msg, 'green');
      setIban('');
      setOwnerName('');
      setTouched(false);
      await refreshMoney();
    } catch (err) {
      setError(digMessage(err) ?? FALLBACK_MESSAGE);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Flex direction="column" gap="2">
        <FormField
          id="iban-input"
          label="شماره شبا"
          help={
            parsed.ok
              ? `${parsed.bankName} — ${ibanText(parsed.iban)}`
              : showProblem
                ? parsed.message
                : 'شماره شبای ۲۴ رقمی حسابی که به نام خود شماست، با IR در ابتدا.'
          }
          helpColor={parsed.ok ? 'green' : showProblem ? 'red' : 'gray'}
          helpTestId="iban-help"
        >
          <TextField.Root
            id="iban-input"
            dir="ltr"
            inputMode="text"
            autoComplete="off"
            placeholder="IR00 0000 0000 0000 0000 0000 00"
            // An IBAN is Latin by nature (shared/format/latin.ts): its example too.
            {...{ [LATIN_ATTRIBUTE]: '' }}
            value={iban}
            onChange={(e) => setIban(e.target.value)}
            onBlur={() => setTouched(iban.trim() !== '')}
            aria-invalid={showProblem}
            aria-describedby={describedBy('iban-input', { help: true })}
            data-testid="iban-input"
          />
        </FormField>
        <FormField id="owner-name-input" label="نام صاحب حساب">
          <TextField.Root
            id="owner-name-input"
            placeholder="اگر خالی بماند، نام ثبت‌شده در پروفایل شما"
            value={ownerName}
            maxLength={100}
            onChange={(e) => setOwnerName(e.target.value)}
            data-testid="owner-name-input"
          />
        </FormField>
        {error && (
          <Callout.Root color="red" role="alert">
            <Callout.Text>{error}</Callout.Text>
          </Callout.Root>
        )}
        <Flex justify="end">
          <Button type="submit" loading={busy} disabled={!parsed.ok} data-testid="save-iban">
            ثبت حساب بانکی
          </Button>
        </Flex>
      </Flex>
    </form>
  );
}

function WithdrawForm() {
  const accounts = useQuery(bankAccountsQuery);
  const balance = useQuery(userBalanceQuery);
  const approved = (accounts.data?.items ?? []).filter((a) => a.ownershipApproved === 1);
  const [account, setAccount] = useState<string>('');
  const [amountText, setAmountText] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // One key per intended withdrawal, kept after a network failure so the retry cannot withdraw twice.
  const key = useRef<{ key: string; intent: string } | null>(null);

  const wallet = balance.data?.balance ?? 0;
  const digits = toEnglishDigits(amountText).replace(/[,،٬\s]/g, '');
  const amount = /^\d+$/.test(digits) ? Number(digits) : NaN;
  const selected = approved.find((a) => String(a.id) === account) ?? (approved.length === 1 ? approved[0] : undefined);
  const amountProblem =
    amountText.trim() === ''
      ? null
      : !Number.isSafeInteger(amount) || amount <= 0
        ? 'مبلغ را به ریال و با رقم وارد کنید.'
        : amount > wallet
          ? 'مبلغ از موجودی کیف پول بیشتر است.'
          : null;
  const ready = selected !== undefined && amountText.trim() !== '' && amountProblem === null;

  const withdraw = async () => {
    if (!selected || !ready) return;
    const intent = `${selected.id}:${amount}`;
    if (key.current?.intent !== intent) key.current = { key: crypto.randomUUID(), intent };
    setBusy(true);
    setError(null);
    try {
      const result = await api.POST('/api/me/requestWithdrawal', {
        params: { header: { 'Idempotency-Key': key.current.key } },
        body: { bankAccount: selected.id, amount },
      });
      if (result.error) {
        key.current = null;
        throw result.error;
      }
      key.current = null;
      showSnackbar(result.data.msg, 'green');
      setAmountText('');
      setConfirming(false);
      await refreshMoney();
    } catch (err) {
      setError(digMessage(err) ?? FALLBACK_MESSAGE);
      setConfirming(false);
    } finally {
      setBusy(false);
    }
  };

  if (accounts.isSuccess && approved.length === 0) {
    return (
      <Text size="2" color="gray" data-testid="withdraw-needs-account">
        برای برداشت، ابتدا یک حساب بانکی به نام خود ثبت کنید؛ پس از تایید مالکیت آن می‌توانید برداشت کنید.
      </Text>
    );
  }

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (ready) setConfirming(true);
      }}
    >
      <Flex direction="column" gap="2">
        <FormField id="withdraw-account" label="حساب مقصد">
          <Select.Root value={selected ? String(selected.id) : ''} onValueChange={setAccount}>
            <Select.Trigger
              className="select-wrap"
              placeholder="یک حساب تاییدشده را انتخاب کنید"
              aria-labelledby={labelId('withdraw-account')}
              data-testid="withdraw-account"
            />
            <Select.Content position="popper">
              {approved.map((a) => (
                <Select.Item key={a.id} value={String(a.id)}>
                  {a.bankName} — <Latin>{ibanText(a.iban)}</Latin>
                </Select.Item>
              ))}
            </Select.Content>
          </Select.Root>
        </FormField>
        <FormField
          id="withdraw-amount"
          label="مبلغ (ریال)"
          helpColor={amountProblem ? 'red' : 'gray'}
          help={
            amountProblem ?? (
              <>
                موجودی قابل برداشت: <RialText value={wallet} />
              </>
            )
          }
        >
          <Flex gap="2" align="center">
            <TextField.Root
              id="withdraw-amount"
              dir="ltr"
              inputMode="numeric"
              autoComplete="off"
              style={{ flexGrow: 1 }}
              value={amountText}
              onChange={(e) => {
                // Grouped while typed, the caret kept after the same number of digits.
                const input = e.target;
                const caret = input.selectionStart ?? input.value.length;
                const digitsBefore = input.value.slice(0, caret).replace(/[^0-9۰-۹٠-٩]/g, '').length;
                const grouped = groupWhileTyping(input.value);
                setAmountText(grouped);
                requestAnimationFrame(() => {
                  if (document.activeElement !== input) return;
                  let at = 0;
                  for (let seen = 0; at < grouped.length && seen < digitsBefore; at++)
                    if (/[0-9۰-۹٠-٩]/.test(grouped[at]!)) seen++;
                  input.setSelectionRange(at, at);
                });
              }}
              aria-invalid={amountProblem !== null}
              aria-describedby={describedBy('withdraw-amount', { help: true })}
              data-testid="withdraw-amount"
            />
            <Button
              type="button"
              variant="soft"
              disabled={wallet <= 0}
              onClick={() => setAmountText(groupNumberAsTyped(wallet))}
              data-testid="withdraw-all"
            >
              همه موجودی
            </Button>
          </Flex>
        </FormField>
        {error && (
          <Callout.Root color="red" role="alert">
            <Callout.Text>{error}</Callout.Text>
          </Callout.Root>
        )}
        <Flex justify="end">
          <Button type="submit" disabled={!ready} data-testid="withdraw-submit">
            برداشت
          </Button>
        </Flex>
      </Flex>
      <AlertDialog.Root open={confirming} onOpenChange={(open) => !busy && setConfirming(open)}>
        <AlertDialog.Content maxWidth="440px" data-testid="withdraw-confirm">
          <AlertDialog.Title>تایید برداشت</AlertDialog.Title>
          <AlertDialog.Description size="2">
            {selected && Number.isSafeInteger(amount) ? (
              <>
                مبلغ <RialText value={amount} /> از کیف پول شما کسر و به حساب {selected.bankName} به شماره شبای{' '}
                {ibanText(selected.iban)} واریز می‌شود. اگر کارشناس برداشت را رد کند، مبلغ به کیف پول بازمی‌گردد.
              </>
            ) : null}
          </AlertDialog.Description>
          <Flex gap="3" justify="end" mt="4" wrap="wrap">
            <AlertDialog.Cancel>
              <Button variant="soft" color="gray" disabled={busy}>
                انصراف
              </Button>
            </AlertDialog.Cancel>
            <Button loading={busy} onClick={() => void withdraw()} data-testid="withdraw-confirm-button">
              تایید و برداشت
            </Button>
          </Flex>
        </AlertDialog.Content>
      </AlertDialog.Root>
    </form>
  );
}

export function BankAccountsSection() {
  return (
    <>
      <Card size="2" data-testid="bank-accounts">
        <Flex direction="column" gap="3">
          <Heading size="4" as="h2">
            حساب‌های بانکی
          </Heading>
          <RegisterAccount />
          <DataTable
            def={accountsDef}
            decorate={decorateBankAccounts}
            stackOnMobile
            empty={
              <EmptyState title="هنوز حساب بانکی ثبت نکرده‌اید" testId="bank-accounts-empty" compact>
                برای برداشت از کیف پول، شبای حسابی را که به نام خودتان است در فرم بالا ثبت کنید؛ پس از تایید مالکیت آن
                به دست کارشناسان، اینجا با نشان سبز دیده می‌شود.
              </EmptyState>
            }
          />
        </Flex>
      </Card>
      <Card size="2" data-testid="withdrawals">
        <Flex direction="column" gap="3">
          <Heading size="4" as="h2">
            برداشت از کیف پول
          </Heading>
          <WithdrawForm />
          <DataTable
            def={withdrawalsDef}
            decorate={decorateWithdrawals}
            stackOnMobile
            empty={
              <EmptyState title="هنوز برداشتی نداشته‌اید" testId="withdrawals-empty" compact>
                هر برداشت با مبلغ، حساب مقصد و شمارهٔ پیگیری واریز بانک اینجا می‌آید.
              </EmptyState>
            }
          />
        </Flex>
      </Card>
    </>
  );
}
