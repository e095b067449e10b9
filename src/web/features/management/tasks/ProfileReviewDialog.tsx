/** The profile-approval task: opening it claims it; the reviewer sees the card image and decides once. */
import { Badge, Button, Callout, Dialog, Flex, Spinner, Text } from '@radix-ui/themes';
import { useEffect, useMemo, useState } from 'react';
import profileRejectForm from '../../../../../schemas/entryForms/profileReject.json';
import profileRejectValidators from '../../../../../src/generated/form-validators/profileReject';
import type { components } from '../../../../generated/api';
import { formatPhone, toPersianDigits } from '../../../../shared/format';
import { DateText } from '../../../components/date/DateText';
import { asEntryForm, EntryForm, entryFormErrors, type FormData } from '../../../components/form-engine/EntryForm';
import { serverMessage, useDialogAction } from '../../../components/useDialogAction';
import { api, call, digMessage, FALLBACK_MESSAGE } from '../../../lib/api-client';

const FORM = asEntryForm(profileRejectForm, profileRejectValidators);

type TaskData = {
  task: components['schemas']['Task'];
  user: components['schemas']['User'];
  nationalCardImageUrl: string;
};

export function ProfileReviewDialog({
  taskId,
  onClose,
}: {
  taskId: number | null;
  onClose: (changed: boolean) => void;
}) {
  const [data, setData] = useState<TaskData | null>(null);
  const [rejection, setRejection] = useState<FormData>({});
  const reason = typeof rejection.reason === 'string' ? rejection.reason : '';
  const reasonInvalid = useMemo(() => Boolean(entryFormErrors(FORM, rejection).reason), [rejection]);
  const { busy, error, setError, run } = useDialogAction<'approve' | 'reject'>();

  useEffect(() => {
    if (taskId === null) return;
    setData(null);
    setError(null);
    setRejection({});
    call<TaskData>(api.POST('/api/sys/fetchApproveProfileAsL1TaskData', { body: { taskId } }))
      .then(setData)
      .catch((e) => setError(digMessage(e) ?? FALLBACK_MESSAGE));
  }, [taskId, setError]);

  const decide = (kind: 'approve' | 'reject') => {
    if (taskId === null) return;
    void run(
      () =>
        serverMessage(
          kind === 'approve'
            ? api.POST('/api/sys/approveProfileAsL1', { body: { taskId } })
            : api.POST('/api/sys/rejectProfileAsL1', { body: { taskId, reason } }),
        ),
      { kind, done: () => onClose(true) },
    );
  };

  return (
    <Dialog.Root open={taskId !== null} onOpenChange={(o) => !o && onClose(false)}>
      <Dialog.Content maxWidth="min(800px, 90vw)" data-testid="review-dialog">
        <Dialog.Title>بررسی هویت سطح یک</Dialog.Title>
        {error && (
          <Callout.Root color="red" mb="3" role="alert">
            <Callout.Text>{error}</Callout.Text>
          </Callout.Root>
        )}
        {!data && !error && <Spinner size="3" />}
        {data && (
          <Flex direction="column" gap="3">
            <Flex gap="4" wrap="wrap">
              <Flex direction="column" gap="1" style={{ minWidth: 220 }}>
                <Text>
                  نام: <b>{data.user.fullName}</b>
                </Text>
                <Text>
                  کد ملی: <span className="ltr">{toPersianDigits(data.user.nationalCode ?? '—')}</span>
                </Text>
                <Text>
                  تاریخ تولد: <DateText value={data.user.dateOfBirth} format="slashDate" />
                </Text>
                <Text>
                  موبایل: <span className="ltr">{formatPhone(data.user.mobileNo ?? '')}</span>
                </Text>
                <Badge color="blue" style={{ alignSelf: 'flex-start' }}>
                  در دست شما
                </Badge>
              </Flex>
              {data.nationalCardImageUrl && (
                <img
                  src={data.nationalCardImageUrl}
                  alt="تصویر کارت ملی مشتری"
                  data-testid="review-card-image"
                  style={{ maxWidth: 360, width: '100%', borderRadius: 8, border: '1px solid var(--gray-6)' }}
                />
              )}
            </Flex>
            <EntryForm
              form={FORM}
              idPrefix="review"
              formData={rejection}
              onChange={setRejection}
              onSubmit={() => decide('reject')}
            >
              <Flex gap="2" justify="end" wrap="wrap" mt="3">
                <Button type="submit" color="red" variant="soft" disabled={reasonInvalid} loading={busy === 'reject'}>
                  رد پروفایل
                </Button>
                <Button
                  type="button"
                  color="green"
                  loading={busy === 'approve'}
                  onClick={() => decide('approve')}
                  data-testid="approve-profile"
                >
                  تایید هویت
                </Button>
              </Flex>
            </EntryForm>
          </Flex>
        )}
      </Dialog.Content>
    </Dialog.Root>
  );
}
