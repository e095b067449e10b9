/**
 * The card ownership task (approveUserCardTask), opened when no card inquiry service answered: opening it claims it
 * (and shows the card's full number, audited, so the reviewer can ask the bank who holds it); the reviewer compares
 * the holder with the customer's profile and verifies or rejects (with a reason the customer sees) once.
 */
import { Badge, Button, Callout, Dialog, Flex, Spinner, Text, TextArea } from '@radix-ui/themes';
import { useEffect, useState } from 'react';
import type { components } from '../../../../generated/api';
import { groupCardNumber } from '../../../../shared/cards/card-number';
import { FormField } from '../../../components/FormField';
import { toPersianDigits } from '../../../../shared/digits';
import { DialogActions } from '../../../components/DialogActions';
import { serverMessage, useDialogAction } from '../../../components/useDialogAction';
import { api, call, digMessage, FALLBACK_MESSAGE } from '../../../lib/api-client';

type TaskData = {
  task: components['schemas']['Task'];
  card: components['schemas']['UserCard'];
  cardNumber: string;
  user: components['schemas']['User'];
};

export function CardReviewDialog({ taskId, onClose }: { taskId: number | null; onClose: (changed: boolean) => void }) {
  const [data, setData] = useState<TaskData | null>(null);
  const [reason, setReason] = useState('');
  const { busy, error, setError, run } = useDialogAction<'approve' | 'reject'>();

  useEffect(() => {
    if (taskId === null) return;
    setData(null);
    setError(null);
    setReason('');
    call<TaskData>(api.POST('/api/sys/fetchApproveUserCardTaskData', { body: { taskId } }))
      .then(setData)
      .catch((e) => setError(digMessage(e) ?? FALLBACK_MESSAGE));
  }, [taskId, setError]);

  const decide = (kind: 'approve' | 'reject') => {
    if (taskId === null) return;
    void run(
      () =>
        serverMessage(
          kind === 'approve'
            ? api.POST('/api/sys/approveUserCardOwnership', { body: { taskId } })
            : api.POST('/api/sys/rejectUserCardOwnership', { body: { taskId, reason: reason.trim() } }),
        ),
      { kind, done: () => onClose(true) },
    );
  };

  return (
    <Dialog.Root open={taskId !== null} onOpenChange={(o) => !o && onClose(false)}>
      <Dialog.Content maxWidth="min(560px, 92vw)" data-testid="card-review">
        <Dialog.Title>تایید مالکیت کارت بانکی</Dialog.Title>
        {!data && !error && <Spinner size="3" />}
        {!data && error && (
          <Callout.Root color="red" role="alert">
            <Callout.Text>{error}</Callout.Text>
          </Callout.Root>
        )}
        {data && (
          <Flex direction="column" gap="2">
            <Text>
              شماره کارت:{' '}
              <bdi dir="ltr" data-testid="review-card-number">
                {toPersianDigits(groupCardNumber(data.cardNumber))}
              </bdi>
            </Text>
            <Text>
              بانک: <b>{data.card.bankName}</b>
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
            <Text size="2" color="gray">
              با استعلام بانک بررسی کنید که دارندهٔ این کارت همین مشتری است؛ پرداخت آنلاین فقط با کارت تاییدشده پذیرفته
              می‌شود.
            </Text>
            <Badge color={data.user.approvedLevel >= 1 ? 'green' : 'orange'} style={{ alignSelf: 'flex-start' }}>
              {data.user.approvedLevel >= 1 ? 'هویت مشتری تایید شده است' : 'هویت مشتری هنوز تایید نشده است'}
            </Badge>
            <FormField id="card-reject-reason" label="دلیل رد (فقط برای رد؛ مشتری آن را می‌بیند)">
              <TextArea
                id="card-reject-reason"
                value={reason}
                maxLength={500}
                onChange={(e) => setReason(e.target.value)}
                data-testid="card-reject-reason"
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
                data-testid="reject-card"
              >
                رد کارت
              </Button>
            </Flex>
            <DialogActions
              error={error}
              busy={busy === 'approve'}
              submitDisabled={busy !== null}
              submitLabel="تایید مالکیت کارت"
              onSubmit={() => decide('approve')}
              submitTestId="approve-card"
            />
          </Flex>
        )}
      </Dialog.Content>
    </Dialog.Root>
  );
}
