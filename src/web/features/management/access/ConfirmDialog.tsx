/**
 * The confirmation every removal or risky change asks for: a Radix AlertDialog that names what will happen.
 * Focus starts on "انصراف", so Enter alone never removes anything; the action button waits for the server and
 * the dialog stays open with the server's message when it refuses.
 */
import { AlertDialog, Button, Callout, Flex, Text } from '@radix-ui/themes';
import { type ReactNode, useId } from 'react';
import { useDialogAction } from '../../../components/useDialogAction';

export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  color = 'red',
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  color?: 'red' | 'blue';
  /** Resolves when done; a thrown error keeps the dialog open with its message. */
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) {
  const descriptionId = useId();
  const { busy, error, run } = useDialogAction();
  const confirm = () => void run(onConfirm, { done: onClose });
  return (
    <AlertDialog.Root open={open} onOpenChange={(o) => !o && busy === null && onClose()}>
      <AlertDialog.Content maxWidth="min(480px, 92vw)" aria-describedby={descriptionId}>
        <AlertDialog.Title>{title}</AlertDialog.Title>
        {/* Rich content (paragraphs, names) cannot sit in Description's <p>; it describes the dialog by id. */}
        <Text as="div" size="2" id={descriptionId}>
          {children}
        </Text>
        {error && (
          <Callout.Root color="red" mt="3" role="alert">
            <Callout.Text>{error}</Callout.Text>
          </Callout.Root>
        )}
        <Flex gap="3" mt="4" justify="end" wrap="wrap">
          <AlertDialog.Cancel>
            <Button variant="soft" color="gray" disabled={busy !== null}>
              انصراف
            </Button>
          </AlertDialog.Cancel>
          <Button color={color} loading={busy !== null} onClick={confirm}>
            {confirmLabel}
          </Button>
        </Flex>
      </AlertDialog.Content>
    </AlertDialog.Root>
  );
}
