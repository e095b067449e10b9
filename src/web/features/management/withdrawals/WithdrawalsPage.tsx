/**
 * Customers' withdrawals for staff (manageWithdrawals): by state, searchable, exportable, on the data-table engine
 * (schemas/tables/withdrawals.json). A requested withdrawal is closed once: «ثبت واریز» with the bank transfer's
 * reference, or «رد» with a reason (the amount returns to the customer's wallet). The IBAN reads in groups of four,
 * as in the dialog; a column with nothing to say in the chosen state is left out, so the rest have room at 1366 px.
 */
import { ExclamationTriangleIcon } from '@radix-ui/react-icons';
import { Button, Callout, Card, Dialog, Flex, Heading, SegmentedControl, TextArea, TextField } from '@radix-ui/themes';
import { type FormEvent, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import messages from '../../../../../schemas/messages/fa.json';
import withdrawalsTable from '../../../../../schemas/tables/withdrawals.json';
import { toPersianDigits } from '../../../../shared/format';
import { FormField } from '../../../components/FormField';
import { asTableDef, DataTable } from '../../../components/data-table/DataTable';
import { DialogActions } from '../../../components/DialogActions';
import { RialText } from '../../../components/RialText';
import { serverMessage, useDialogAction } from '../../../components/useDialogAction';
import { api } from '../../../lib/api-client';
import { isTestInstance } from '../../../lib/test-instance';
import { decorateWithdrawals, ibanText } from '../../../lib/withdrawals';

const baseDef = asTableDef(withdrawalsTable);
type StateFilter = 'requested' | 'done' | 'refused' | 'all';

interface Target {
  id: number;
  amount: number;
  customerName: string;
  bankName: string;
  iban: string;
  kind: 'done' | 'refused';
}

function DecisionDialog({ target, onClose }: { target: Target | null; onClose: (changed: boolean) => void }) {
  const [text, setText] = useState('');
  const { busy, error, setError, run } = useDialogAction();
  const done = target?.kind === 'done';
  const valid = done ? text.trim().length > 0 : text.trim().length >= 3;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!target || !valid) return;
    void run(
      () =>
        serverMessage(
          done
            ? api.POST('/api/sys/withdrawalDone', { body: { withdrawal: target.id, reference: text.trim() } })
            : api.POST('/api/sys/withdrawalRefused', { body: { withdrawal: target.id, reason: text.trim() } }),
        ),
      {
        done: () => {
          setText('');
          onClose(true);
        },
      },
    );
  };

  return (
    <Dialog.Root
      open={target !== null}
      onOpenChange={(open) => {
        if (!open) {
          setText('');
          setError(null);
          onClose(false);
        }
      }}
    >
      <Dialog.Content maxWidth="480px" data-testid="withdrawal-dialog">
        <Dialog.Title>{done ? 'ثبت واریز برداشت' : 'رد برداشت'}</Dialog.Title>
        {target && (
          <Dialog.Description size="2" mb="3">
            برداشت شماره {toPersianDigits(target.id)} از {target.customerName}: <RialText value={target.amount} /> به{' '}
            {target.bankName} {ibanText(target.iban)}
          </Dialog.Description>
        )}
        {isTestInstance() && (
          // A test instance takes no real payments: money a customer "paid" at the sandbox bank is not real, and
          // staff must not send real rial for it (decision 023).
          <Callout.Root color="amber" mb="3" data-testid="withdrawal-test-instance">
            <Callout.Icon>
              <ExclamationTriangleIcon />
            </Callout.Icon>
            <Callout.Text>{messages.messages['testInstance.withdrawalWarning']}</Callout.Text>
          </Callout.Root>
        )}
        <form onSubmit={submit} noValidate>
          <Flex direction="column" gap="2">
            <FormField
              id="withdrawal-decision-text"
              label={done ? 'شماره پیگیری واریز بانکی' : 'دلیل رد (مشتری آن را می‌بیند)'}
            >
              {done ? (
                <TextField.Root
                  id="withdrawal-decision-text"
                  dir="ltr"
                  value={text}
                  maxLength={100}
                  onChange={(e) => setText(e.target.value)}
                  data-testid="withdrawal-reference"
                />
              ) : (
                <TextArea
                  id="withdrawal-decision-text"
                  value={text}
                  maxLength={500}
                  onChange={(e) => setText(e.target.value)}
                  data-testid="withdrawal-reason"
                />
              )}
            </FormField>
          </Flex>
          <DialogActions
            mt="4"
            error={error}
            busy={busy !== null}
            submitDisabled={!valid}
            submitLabel={done ? 'ثبت واریز' : 'رد برداشت'}
            submitTestId="withdrawal-decision-submit"
          />
        </form>
      </Dialog.Content>
    </Dialog.Root>
  );
}

/** Columns with nothing to say in a state's list (a reference before payment, a reason unless refused) stay out. */
const EMPTY_IN: Record<StateFilter, string[]> = {
  requested: ['bankReference', 'decisionReason'],
  done: ['decisionReason'],
  refused: ['bankReference'],
  all: [],
};
const STATES: readonly StateFilter[] = ['requested', 'done', 'refused', 'all'];

export default function WithdrawalsPage() {
  // `?state=` opens the list in that state (the staff home's count of withdrawals waiting links to `requested`).
  const [params] = useSearchParams();
  const asked = params.get('state') as StateFilter | null;
  const [state, setState] = useState<StateFilter>(asked && STATES.includes(asked) ? asked : 'requested');
  const [target, setTarget] = useState<Target | null>(null);
  const [refreshKey, setRefreshKey] = useState(0);
  const def = useMemo(
    () => ({
      ...baseDef,
      name: `withdrawals-${state}`,
      columns: baseDef.columns.filter((c) => !EMPTY_IN[state].includes(c.key)) as typeof baseDef.columns,
      source: { ...baseDef.source, params: state === 'all' ? {} : { state } },
    }),
    [state],
  );
  const open = (row: Record<string, unknown>, kind: Target['kind']) =>
    setTarget({
      id: Number(row.id),
      amount: Number(row.amount),
      customerName: String(row.customerName),
      bankName: String(row.bankName),
      iban: String(row.iban),
      kind,
    });

  return (
    <Flex direction="column" gap="3">
      <Heading size="6">برداشت‌ها</Heading>
      <SegmentedControl.Root value={state} onValueChange={(v) => setState(v as StateFilter)} aria-label="وضعیت">
        <SegmentedControl.Item value="requested">در انتظار واریز</SegmentedControl.Item>
        <SegmentedControl.Item value="done">واریزشده</SegmentedControl.Item>
        <SegmentedControl.Item value="refused">ردشده</SegmentedControl.Item>
        <SegmentedControl.Item value="all">همه</SegmentedControl.Item>
      </SegmentedControl.Root>
      <Card size="2">
        <DataTable
          narrowed={state !== 'all'}
          def={def}
          decorate={decorateWithdrawals}
          refreshKey={refreshKey}
          actions={(row) =>
            row.state === 'requested' ? (
              <Flex gap="2">
                <Button size="1" onClick={() => open(row, 'done')} data-testid={`withdrawal-done-${String(row.id)}`}>
                  ثبت واریز
                </Button>
                <Button
                  size="1"
                  color="red"
                  variant="soft"
                  onClick={() => open(row, 'refused')}
                  data-testid={`withdrawal-refuse-${String(row.id)}`}
                >
                  رد
                </Button>
              </Flex>
            ) : null
          }
        />
      </Card>
      <DecisionDialog
        target={target}
        onClose={(changed) => {
          setTarget(null);
          if (changed) setRefreshKey((k) => k + 1);
        }}
      />
    </Flex>
  );
}
