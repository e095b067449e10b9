/**
 * Registering one of the customer's bank cards: one field that takes the number as people type it (Persian or
 * Arabic digits, spaces, dashes), names the bank as soon as the first six digits are in, and says what is wrong once
 * sixteen are (or on leaving the field). The server checks the same rules (src/shared/cards) and verifies the card
 * as the customer's: at once through the card inquiry service, or later by staff. Used by the profile's cards and,
 * without leaving the request, by the pay step.
 */
import { Button, Callout, Flex, TextField } from '@radix-ui/themes';
import { type FormEvent, useMemo, useState } from 'react';
import { cardBankOf, compactCardNumber, groupCardNumber, parseCardNumber } from '../../../shared/cards/card-number';
import { toPersianDigits } from '../../../shared/digits';
import { saveUserCard, type UserCard } from '../../lib/queries/cards';
import { describedBy, FormField } from '../FormField';
import { showSnackbar } from '../shell/snackbar';

export function AddCardForm({
  id = 'card-number-input',
  onSaved,
  submitLabel = 'ثبت کارت',
}: {
  id?: string;
  onSaved?: (card: UserCard) => void;
  submitLabel?: string;
}) {
  const [text, setText] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const digits = compactCardNumber(text);
  const parsed = useMemo(() => parseCardNumber(text), [text]);
  const bank = cardBankOf(digits);
  const showProblem = !parsed.ok && text.trim() !== '' && (touched || digits.length >= 16);

  const help = parsed.ok ? (
    <>
      {parsed.bankName} — <bdi dir="ltr">{toPersianDigits(groupCardNumber(parsed.cardNumber))}</bdi>
    </>
  ) : showProblem ? (
    parsed.message
  ) : bank ? (
    bank
  ) : (
    'شانزده رقم روی کارت بانکی‌ای که به نام خود شماست.'
  );

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!parsed.ok || busy) return;
    setBusy(true);
    setError(null);
    const saved = await saveUserCard(parsed.cardNumber);
    setBusy(false);
    if (!saved.ok) {
      setError(saved.message);
      return;
    }
    const { card } = saved;
    showSnackbar(saved.message, card.state === 'verified' ? 'green' : card.state === 'pending' ? 'blue' : 'red', 5000);
    setText('');
    setTouched(false);
    onSaved?.(card);
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate data-testid="add-card-form">
      <Flex direction="column" gap="2">
        <FormField
          id={id}
          label="شماره کارت"
          help={help}
          helpColor={parsed.ok ? 'green' : showProblem ? 'red' : 'gray'}
          helpTestId="card-number-help"
        >
          <TextField.Root
            id={id}
            dir="ltr"
            inputMode="numeric"
            autoComplete="cc-number"
            maxLength={40}
            placeholder="---- ---- ---- ----"
            value={text}
            onChange={(e) => setText(e.target.value)}
            onBlur={() => setTouched(text.trim() !== '')}
            aria-invalid={showProblem}
            aria-describedby={describedBy(id, { help: true })}
            data-testid="card-number-input"
          />
        </FormField>
        {error && (
          <Callout.Root color="red" role="alert" data-testid="card-save-error">
            <Callout.Text>{error}</Callout.Text>
          </Callout.Root>
        )}
        <Flex justify="end">
          <Button type="submit" loading={busy} disabled={!parsed.ok} data-testid="save-card">
            {submitLabel}
          </Button>
        </Flex>
      </Flex>
    </form>
  );
}
