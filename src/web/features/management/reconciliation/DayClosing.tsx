/**
 * Closing a reconciled day (closeReconciliationDays): «بستن روز» once nothing is unresolved; a closed day shows so,
 * and reopening it takes a reason from one staff member («درخواست بازگشایی») and a second one's approval
 * («تایید بازگشایی»). The server decides who may, and refuses in Persian.
 */
import { Badge, Button, Callout, Dialog, Flex, TextArea } from '@radix-ui/themes';
import { useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { type FormEvent, useState } from 'react';
import { FormField } from '../../../components/FormField';
import { DialogActions } from '../../../components/DialogActions';
import { showError, showSnackbar } from '../../../components/shell/snackbar';
import { serverMessage, useDialogAction } from '../../../components/useDialogAction';
import { api } from '../../../lib/api-client';
import { userAtom } from '../../../lib/session';
import { type Day, dayQueryKey } from './day';

export function DayClosing({ day }: { day: Day }) {
  const me = useAtomValue(userAtom);
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: dayQueryKey(day.day) });
  const act = async (call: () => Promise<string>) => {
    setBusy(true);
    try {
      showSnackbar(await call(), 'green');
      await refresh();
    } catch (error) {
      showError(error);
    } finally {
      setBusy(false);
    }
  };
  const body = { day: day.day };

  if (!day.closedAt) {
    if (day.unresolvedCount > 0) return null;
    return (
      <Button
        variant="outline"
        loading={busy}
        onClick={() => void act(() => serverMessage(api.POST('/api/sys/closeReconciliationDay', { body })))}
        data-testid="reconciliation-close-day"
      >
        بستن روز
      </Button>
    );
  }
  return (
    <Flex gap="2" align="center" wrap="wrap" data-testid="reconciliation-closed">
      <Badge color="gray" size="2">
        روز بسته است
      </Badge>
      {day.reopenReason === null ? (
        <Button variant="soft" onClick={() => setAsking(true)} data-testid="reconciliation-ask-reopen">
          درخواست بازگشایی
        </Button>
      ) : (
        <>
          <Callout.Root color="amber" size="1">
            <Callout.Text>درخواست بازگشایی: {day.reopenReason}</Callout.Text>
          </Callout.Root>
          {day.reopenRequestedBy !== me?.id && (
            <Button
              loading={busy}
              onClick={() => void act(() => serverMessage(api.POST('/api/sys/reopenReconciliationDay', { body })))}
              data-testid="reconciliation-approve-reopen"
            >
              تایید بازگشایی
            </Button>
          )}
        </>
      )}
      <ReopenDialog
        day={day.day}
        open={asking}
        onClose={(changed) => {
          setAsking(false);
          if (changed) void refresh();
        }}
      />
    </Flex>
  );
}

function ReopenDialog({ day, open, onClose }: { day: string; open: boolean; onClose: (changed: boolean) => void }) {
  const [reason, setReason] = useState('');
  const { busy, error, setError, run } = useDialogAction();
  const valid = reason.trim().length >= 3;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!valid) return;
    void run(
      () =>
        serverMessage(api.POST('/api/sys/requestReopenReconciliationDay', { body: { day, reason: reason.trim() } })),
      {
        done: () => {
          setReason('');
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
          setReason('');
          setError(null);
          onClose(false);
        }
      }}
    >
      <Dialog.Content maxWidth="480px" data-testid="reconciliation-reopen-dialog">
        <Dialog.Title>درخواست بازگشایی روز</Dialog.Title>
        <Dialog.Description size="2" mb="3">
          روز پس از تایید کارشناسی دیگر باز می‌شود.
        </Dialog.Description>
        <form onSubmit={submit} noValidate>
          <FormField id="reopen-reason" label="دلیل بازگشایی">
            <TextArea id="reopen-reason" value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />
          </FormField>
          <DialogActions
            mt="4"
            error={error}
            busy={busy !== null}
            submitDisabled={!valid}
            submitLabel="ثبت درخواست"
            submitTestId="reconciliation-reopen-submit"
          />
        </form>
      </Dialog.Content>
    </Dialog.Root>
  );
}
