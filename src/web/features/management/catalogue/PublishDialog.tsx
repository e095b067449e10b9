/**
 * Publishing asks first: what changes against the live version (the diff, left to right), that it goes live for
 * every customer at once, and only then «انتشار برای همه». A refusal stays in the dialog. A return to an earlier
 * version or to the reviewed file publishes too, so it asks the same way (its own title and button).
 */
import { Dialog, Flex, Text } from '@radix-ui/themes';
import { DialogActions } from '../../../components/DialogActions';
import { useDialogAction } from '../../../components/useDialogAction';
import { DiffView } from './DiffView';

export function PublishDialog({
  title,
  before,
  after,
  onPublish,
  onClose,
  heading,
  submitLabel = 'انتشار برای همه',
  testId = 'catalogue-publish',
}: {
  title: string;
  /** The question in the title; publishing a draft by default. */
  heading?: string;
  submitLabel?: string;
  /** `<testId>-dialog` and `<testId>-confirm`. */
  testId?: string;
  before: unknown;
  after: unknown;
  /** Publishes; resolves to the server's message. */
  onPublish: () => Promise<string>;
  onClose: () => void;
}) {
  const { busy, error, run } = useDialogAction();
  return (
    <Dialog.Root open onOpenChange={(o) => !o && busy === null && onClose()}>
      <Dialog.Content maxWidth="min(900px, 94vw)" data-testid={`${testId}-dialog`}>
        <Dialog.Title>{heading ?? `انتشار «${title}» برای همهٔ مشتریان؟`}</Dialog.Title>
        <Dialog.Description size="2" mb="3">
          این تغییرها بی‌درنگ برای همهٔ مشتریان زنده می‌شود. پیش از انتشار، تفاوت با نسخهٔ منتشرشدهٔ کنونی را ببینید:
        </Dialog.Description>
        <Flex direction="column" gap="3">
          <Text as="div" size="1" color="gray">
            سطرهای سبز افزوده و سطرهای قرمز حذف می‌شوند.
          </Text>
          <DiffView before={before} after={after} />
          <DialogActions
            error={error}
            busy={busy !== null}
            submitLabel={submitLabel}
            onSubmit={() => void run(onPublish, { done: onClose })}
            submitTestId={`${testId}-confirm`}
          />
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}
