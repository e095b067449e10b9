/** The end of a staff dialog: the server's error, if any, then Cancel (closes the dialog) and the main button. */
import { Button, Callout, Dialog, Flex } from '@radix-ui/themes';
import type { ReactNode } from 'react';

export function DialogActions({
  error,
  busy,
  submitLabel,
  submitDisabled,
  onSubmit,
  submitTestId,
  mt,
}: {
  error: string | null;
  busy: boolean;
  submitLabel: ReactNode;
  submitDisabled?: boolean;
  /** Without it the main button submits the dialog's form. */
  onSubmit?: () => void;
  submitTestId?: string;
  mt?: '3' | '4';
}) {
  return (
    <Flex direction="column" gap="3" mt={mt}>
      {error && (
        <Callout.Root color="red" role="alert">
          <Callout.Text>{error}</Callout.Text>
        </Callout.Root>
      )}
      <Flex gap="3" justify="end" wrap="wrap">
        <Dialog.Close>
          <Button type="button" variant="soft" color="gray">
            انصراف
          </Button>
        </Dialog.Close>
        <Button
          type={onSubmit ? 'button' : 'submit'}
          loading={busy}
          disabled={submitDisabled}
          onClick={onSubmit}
          data-testid={submitTestId}
        >
          {submitLabel}
        </Button>
      </Flex>
    </Flex>
  );
}
