/** Cancels a request waiting for payment, after the customer confirms; nothing is taken from them. */
import { AlertDialog, Button, Callout, Flex, Text } from '@radix-ui/themes';
import { useState } from 'react';
import { showSnackbar } from '../../components/shell/snackbar';
import { digMessage, FALLBACK_MESSAGE } from '../../lib/api-client';
import { cancelPurchase, invalidatePurchase } from '../../lib/payments';
import { toPersianDigits } from '../../../shared/digits';

export function CancelPurchaseButton({ purchaseId, size = '2' }: { purchaseId: number; size?: '1' | '2' | '3' }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await cancelPurchase(purchaseId);
      setOpen(false);
      showSnackbar(`درخواست شماره ${toPersianDigits(purchaseId)} لغو شد.`, 'green', 5000);
    } catch (err) {
      setError(digMessage(err) ?? FALLBACK_MESSAGE);
    } finally {
      setBusy(false);
      void invalidatePurchase();
    }
  };
  return (
    <AlertDialog.Root
      open={open}
      onOpenChange={(o) => {
        if (busy) return;
        setOpen(o);
        setError(null);
      }}
    >
      <AlertDialog.Trigger>
        <Button size={size} variant="soft" color="red" data-testid="cancel-purchase">
          لغو درخواست
        </Button>
      </AlertDialog.Trigger>
      <AlertDialog.Content maxWidth="min(480px, 92vw)">
        <AlertDialog.Title>لغو درخواست شماره {toPersianDigits(purchaseId)}</AlertDialog.Title>
        <AlertDialog.Description size="2">
          این درخواست لغو می‌شود و دیگر نمی‌توانید آن را پرداخت کنید. مبلغی از کیف پول شما برداشته نشده است.
        </AlertDialog.Description>
        {error && (
          <Callout.Root color="red" mt="3" role="alert">
            <Callout.Text>{error}</Callout.Text>
          </Callout.Root>
        )}
        <Flex gap="3" mt="4" justify="end" wrap="wrap">
          <AlertDialog.Cancel>
            <Button variant="soft" color="gray" disabled={busy}>
              <Text>بازگشت</Text>
            </Button>
          </AlertDialog.Cancel>
          <Button color="red" loading={busy} onClick={() => void confirm()} data-testid="confirm-cancel-purchase">
            بله، لغو شود
          </Button>
        </Flex>
      </AlertDialog.Content>
    </AlertDialog.Root>
  );
}
