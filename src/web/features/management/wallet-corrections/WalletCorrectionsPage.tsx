/**
 * Wallet corrections by two people (proposeWalletCorrections, decideWalletCorrections): the list by state on the
 * data-table engine (schemas/tables/walletCorrections.json), «پیشنهاد اصلاح» to propose one (a customer's id from
 * the customers list, up or down, the amount in rial and the reason the customer will read), and on a proposal
 * someone else made, «تایید» or «رد» with a note. The server refuses the proposer deciding their own.
 */
import { Button, Card, Dialog, Flex, Heading, SegmentedControl, Select, TextArea, TextField } from '@radix-ui/themes';
import { type FormEvent, useMemo, useState } from 'react';
import { useAtomValue } from 'jotai';
import correctionsTable from '../../../../../schemas/tables/walletCorrections.json';
import { toEnglishDigits } from '../../../../shared/digits';
import { toPersianDigits } from '../../../../shared/format';
import { FormField } from '../../../components/FormField';
import { asTableDef, DataTable } from '../../../components/data-table/DataTable';
import { DialogActions } from '../../../components/DialogActions';
import { RialText } from '../../../components/RialText';
import { serverMessage, useDialogAction } from '../../../components/useDialogAction';
import { api } from '../../../lib/api-client';
import { userAtom } from '../../../lib/session';

const baseDef = asTableDef(correctionsTable);
type StateFilter = 'proposed' | 'approved' | 'rejected' | 'all';
const STATES: Record<'proposed' | 'approved' | 'rejected', { title: string; color: string }> = {
  proposed: { title: 'در انتظار تایید', color: '#fb8c00' },
  approved: { title: 'تایید و ثبت شد', color: '#43a047' },
  rejected: { title: 'رد شد', color: '#e53935' },
};

type Row = Record<string, unknown>;
const decorate = (items: Row[]): Row[] =>
  items.map((row) => {
    const state = STATES[row.state as keyof typeof STATES];
    const up = row.direction === 'up';
    // A person without a name is named by their mobile number: in Persian digits like every number shown.
    const named = (key: string) => (row[key] == null ? row[key] : toPersianDigits(String(row[key])));
    return {
      ...row,
      customerName: named('customerName'),
      proposedByName: named('proposedByName'),
      decidedByName: named('decidedByName'),
      stateTitle: state?.title ?? String(row.state),
      stateColor: state?.color ?? '#757575',
      directionTitle: up ? 'افزایش' : 'کاهش',
      directionColor: up ? '#43a047' : '#e53935',
    };
  });

/** A whole number typed in any digits, or null. */
const wholeNumber = (text: string) => {
  const plain = toEnglishDigits(text).replace(/[,٬\s]/g, '');
  return /^\d{1,16}$/.test(plain) ? Number(plain) : null;
};

function ProposeDialog({ open, onClose }: { open: boolean; onClose: (changed: boolean) => void }) {
  const [user, setUser] = useState('');
  const [direction, setDirection] = useState<'up' | 'down'>('up');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const { busy, error, setError, run } = useDialogAction();
  const userId = wholeNumber(user);
  const rial = wholeNumber(amount);
  const valid = userId !== null && userId > 0 && rial !== null && rial > 0 && reason.trim().length >= 3;
  const reset = () => {
    setUser('');
    setAmount('');
    setReason('');
    setDirection('up');
    setError(null);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!valid) return;
    void run(
      () =>
        serverMessage(
          api.POST('/api/sys/proposeWalletCorrection', {
            body: { user: userId, direction, amount: rial, reason: reason.trim() },
          }),
        ),
      {
        done: () => {
          reset();
          onClose(true);
        },
      },
    );
  };
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        if (!next) {
          reset();
          onClose(false);
        }
      }}
    >
      <Dialog.Content maxWidth="480px" data-testid="correction-propose-dialog">
        <Dialog.Title>پیشنهاد اصلاح کیف پول</Dialog.Title>
        <Dialog.Description size="2" mb="3">
          تا کارشناس دیگری آن را تایید نکند، موجودی مشتری تغییر نمی‌کند.
        </Dialog.Description>
        <form onSubmit={submit} noValidate>
          <Flex direction="column" gap="2">
            <FormField id="correction-user" label="شناسهٔ مشتری (از فهرست مشتریان)">
              <TextField.Root
                id="correction-user"
                dir="ltr"
                inputMode="numeric"
                value={user}
                onChange={(e) => setUser(e.target.value)}
                data-testid="correction-user"
              />
            </FormField>
            <FormField id="correction-direction" label="نوع اصلاح">
              <Select.Root value={direction} onValueChange={(v) => setDirection(v as 'up' | 'down')}>
                <Select.Trigger id="correction-direction" data-testid="correction-direction" />
                <Select.Content>
                  <Select.Item value="up">افزایش موجودی</Select.Item>
                  <Select.Item value="down">کاهش موجودی</Select.Item>
                </Select.Content>
              </Select.Root>
            </FormField>
            <FormField id="correction-amount" label="مبلغ (ریال)">
              <TextField.Root
                id="correction-amount"
                dir="ltr"
                inputMode="numeric"
                value={amount}
                onChange={(e) => setAmount(e.target.value)}
                data-testid="correction-amount"
              />
            </FormField>
            <FormField id="correction-reason" label="دلیل (مشتری آن را می‌بیند)">
              <TextArea
                id="correction-reason"
                value={reason}
                maxLength={500}
                onChange={(e) => setReason(e.target.value)}
                data-testid="correction-reason"
              />
            </FormField>
          </Flex>
          <DialogActions
            mt="4"
            error={error}
            busy={busy !== null}
            submitDisabled={!valid}
            submitLabel="ثبت پیشنهاد"
            submitTestId="correction-propose-submit"
          />
        </form>
      </Dialog.Content>
    </Dialog.Root>
  );
}

interface Target {
  id: number;
  amount: number;
  customerName: string;
  up: boolean;
  reason: string;
  approve: boolean;
}

function DecideDialog({ target, onClose }: { target: Target | null; onClose: (changed: boolean) => void }) {
  const [note, setNote] = useState('');
  const { busy, error, setError, run } = useDialogAction();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!target || note.trim().length === 0) return;
    void run(
      () =>
        serverMessage(
          api.POST('/api/sys/decideWalletCorrection', {
            body: { correction: target.id, approve: target.approve, note: note.trim() },
          }),
        ),
      {
        done: () => {
          setNote('');
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
          setNote('');
          setError(null);
          onClose(false);
        }
      }}
    >
      <Dialog.Content maxWidth="480px" data-testid="correction-decide-dialog">
        <Dialog.Title>{target?.approve ? 'تایید اصلاح کیف پول' : 'رد اصلاح کیف پول'}</Dialog.Title>
        {target && (
          <Dialog.Description size="2" mb="3">
            اصلاح شماره {toPersianDigits(target.id)}: {target.up ? 'افزایش' : 'کاهش'} <RialText value={target.amount} />{' '}
            در کیف پول {target.customerName} — {target.reason}
          </Dialog.Description>
        )}
        <form onSubmit={submit} noValidate>
          <FormField id="correction-note" label="یادداشت تصمیم">
            <TextArea
              id="correction-note"
              value={note}
              maxLength={500}
              onChange={(e) => setNote(e.target.value)}
              data-testid="correction-note"
            />
          </FormField>
          <DialogActions
            mt="4"
            error={error}
            busy={busy !== null}
            submitDisabled={note.trim().length === 0}
            submitLabel={target?.approve ? 'تایید و ثبت' : 'رد اصلاح'}
            submitTestId="correction-decide-submit"
          />
        </form>
      </Dialog.Content>
    </Dialog.Root>
  );
}

export default function WalletCorrectionsPage() {
  const me = useAtomValue(userAtom);
  const [state, setState] = useState<StateFilter>('proposed');
  const [proposing, setProposing] = useState(false);
  const [target, setTarget] = useState<Target | null>(null);
  const [refreshKey, setRefreshKey] = useState(0);
  const def = useMemo(
    () => ({
      ...baseDef,
      name: `walletCorrections-${state}`,
      source: { ...baseDef.source, params: state === 'all' ? {} : { state } },
    }),
    [state],
  );
  const open = (row: Row, approve: boolean) =>
    setTarget({
      id: Number(row.id),
      amount: Number(row.amount),
      customerName: String(row.customerName),
      up: row.direction === 'up',
      reason: String(row.reason),
      approve,
    });
  const changed = (yes: boolean) => {
    if (yes) setRefreshKey((k) => k + 1);
  };

  return (
    <Flex direction="column" gap="3">
      <Flex justify="between" align="center" gap="2" wrap="wrap">
        <Heading size="6">اصلاح کیف پول</Heading>
        <Button onClick={() => setProposing(true)} data-testid="correction-propose">
          پیشنهاد اصلاح
        </Button>
      </Flex>
      <SegmentedControl.Root value={state} onValueChange={(v) => setState(v as StateFilter)} aria-label="وضعیت">
        <SegmentedControl.Item value="proposed">در انتظار تایید</SegmentedControl.Item>
        <SegmentedControl.Item value="approved">تاییدشده</SegmentedControl.Item>
        <SegmentedControl.Item value="rejected">ردشده</SegmentedControl.Item>
        <SegmentedControl.Item value="all">همه</SegmentedControl.Item>
      </SegmentedControl.Root>
      <Card size="2">
        <DataTable
          // On a phone each correction is a card: the table's columns and its buttons would scroll out of reach.
          stackOnMobile
          narrowed={state !== 'all'}
          def={def}
          decorate={decorate}
          refreshKey={refreshKey}
          actions={(row) =>
            // The proposer's own waits for someone else: the server refuses it anyway.
            row.state === 'proposed' && row.proposedBy !== me?.id ? (
              <Flex gap="2">
                <Button size="1" onClick={() => open(row, true)} data-testid={`correction-approve-${String(row.id)}`}>
                  تایید
                </Button>
                <Button
                  size="1"
                  color="red"
                  variant="soft"
                  onClick={() => open(row, false)}
                  data-testid={`correction-reject-${String(row.id)}`}
                >
                  رد
                </Button>
              </Flex>
            ) : null
          }
        />
      </Card>
      <ProposeDialog
        open={proposing}
        onClose={(yes) => {
          setProposing(false);
          changed(yes);
        }}
      />
      <DecideDialog
        target={target}
        onClose={(yes) => {
          setTarget(null);
          changed(yes);
        }}
      />
    </Flex>
  );
}
