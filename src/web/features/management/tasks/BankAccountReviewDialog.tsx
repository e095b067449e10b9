/**
 * The bank-account ownership task (approveUbaOwnerTask): opening it claims it; the reviewer compares the account's
 * holder and bank with the customer's profile and approves or rejects (with a reason the customer sees) once.
 */
import { Badge, Button, Callout, Dialog, Flex, Spinner, Text, TextArea } from '@radix-ui/themes';
import { useEffect, useState } from 'react';
import type { components } from '../../../../generated/api';
import { formatIban } from '../../../../shared/iban';
import { FormField } from '../../../components/FormField';
import { toPersianDigits } from '../../../../shared/digits';
import { DialogActions } from '../../../components/DialogActions';
import { serverMessage, useDialogAction } from '../../../components/useDialogAction';
import { api, call, digMessage, FALLBACK_MESSAGE } from '../../../lib/api-client';

type TaskData = {
  task: components['schemas']['Task'];
  bankAccount: components['schemas']['UserBankAccount'];
  user: components['schemas']['User'];
};

export function BankAccountReviewDialog({
  taskId,
  onClose,
}: {
  taskId: number | null;
  onClose: (changed: boolean) => void;
}) {
  const [data, setData] = useState<TaskData | null>(null);
  const [reason, setReason] = useState('');
  const { busy, error, setError, run } = useDialogAction<'approve' | 'reject'>();

  useEffect(() => {
    if (taskId === null) return;
    setData(null);
    setError(null);
    setReason('');
    call<TaskData>(api.POST('/api/sys/fetchApproveUbaOwnerTaskData', { body: { taskId } }))
      .then(setData)
      .catch((e) => setError(digMessage(e) ?? FALLBACK_MESSAGE));
  }, [taskId, setError]);

  const decide = (kind: 'approve' | 'reject') => {
    if (taskId === null) return;
    void run(
      () =>
        serverMessage(
          kind === 'approve'
            ? api.POST('/api/sys/approveUserBankAccountOwnership', { body: { taskId } })
            : api.POST('/api/sys/rejectUserBankAccountOwnership', { body: { taskId, reason: reason.trim() } }),
        ),
      { kind, done: () => onClose(true) },
    );
  };

  return (
    <Dialog.Root open={taskId !== null} onOpenChange={(o) => !o && onClose(false)}>
      <Dialog.Content maxWidth="min(560px, 92vw)" data-testid="bank-account-review">
        <Dialog.Title>تایید مالکیت حساب بانکی</Dialog.Title>
        {!data && !error && <Spinner size="3" />}
        {!data && error && (
          <Callout.Root color="red" role="alert">
            <Callout.Text>{error}</Callout.Text>
          </Callout.Root>
        )}
        {data && (
          <Flex direction="column" gap="2">
            <Text>
              شماره شبا:{' '}
              <bdi dir="ltr" data-testid="review-iban">
                {formatIban(data.bankAccount.iban)}
              </bdi>
            </Text>
            <Text>
              بانک: <b>{data.bankAccount.bankName}</b>
            </Text>
            <Text>
              صاحب حساب به گفته مشتری: <b>{data.bankAccount.ownerName}</b>
            </Text>
            <Text>
              مشتری: <b>{data.user.fullName || data.user.mobileNo}</b>
              {data.user.nationalCode ? (
                <>
                  {' '}
                  — کد ملی <bdi dir="ltr">{toPersianDigits(data.user.nationalCode)}</bdi>
                </>
              ) : null}
            </Text>
            <Badge color={data.user.approvedLevel >= 1 ? 'green' : 'orange'} style={{ alignSelf: 'flex-start' }}>
              {data.user.approvedLevel >= 1 ? 'هویت مشتری تایید شده است' : 'هویت مشتری هنوز تایید نشده است'}
            </Badge>
            <FormField id="uba-reject-reason" label="دلیل رد (فقط برای رد؛ مشتری آن را می‌بیند)">
              <TextArea
                id="uba-reject-reason"
                value={reason}
                maxLength={500}
                onChange={(e) => setReason(e.target.value)}
                data-testid="uba-reject-reason"
              />
            </FormField>
            <Flex justify="start">
              <Button
                type="button"
                color="red"
                variant="soft"
                disabled={reason.trim().length < 3 || busy !== null}
                loading={busy === 'reject'}
                onClick={() => decide('reject')}
                data-testid="reject-uba"
              >
                رد مالکیت
              </Button>
            </Flex>
            <DialogActions
              error={error}
              busy={busy === 'approve'}
              submitDisabled={busy !== null}
              submitLabel="تایید مالکیت"
              onSubmit={() => decide('approve')}
              submitTestId="approve-uba"
            />
          </Flex>
        )}
      </Dialog.Content>
    </Dialog.Root>
  );
}
