/**
 * The pay step's card: which of the customer's verified cards the gateway payment is made with (the bank takes no
 * other; decision 024). The only verified card is chosen by itself; several are a radio group (arrow keys move).
 * With none, the customer adds one right here, without leaving the request: with a card inquiry service the card is
 * verified in seconds and chosen; otherwise staff review it, and the customer is told so and what they can do
 * meanwhile (pay from the wallet when it covers the price, or come back from My requests once it is verified).
 */
import { Button, Callout, Flex, RadioGroup, Skeleton, Text } from '@radix-ui/themes';
import { useState } from 'react';
import type { UserCard, UserCards } from '../../lib/queries/cards';
import { AddCardForm } from './AddCardForm';
import { CardLine } from './CardLine';

export function PayCardChoice({
  cards,
  loading,
  chosen,
  onChoose,
}: {
  cards: UserCards | undefined;
  loading: boolean;
  chosen: UserCard | undefined;
  onChoose: (card: number) => void;
}) {
  const [adding, setAdding] = useState(false);
  if (loading) return <Skeleton height="72px" data-testid="pay-cards-loading" />;
  if (!cards) return null;
  const verified = cards.items.filter((c) => c.state === 'verified');
  const waiting = cards.items.filter((c) => c.state === 'pending');
  const lastRejected = cards.items.find((c) => c.state === 'rejected');
  // With a gateway that reports the holder, a card is optional; its section shows only once the customer has one.
  if (!cards.gatewayNeedsCard && verified.length === 0) return null;
  const showForm = adding || verified.length === 0;

  return (
    <Flex direction="column" gap="2" data-testid="pay-cards">
      <Text weight="bold" id="pay-card-label">
        کارت پرداخت
      </Text>
      {verified.length === 1 && (
        <Flex direction="column" gap="1" data-testid="pay-card-only">
          <CardLine card={verified[0]!} showState={false} />
          <Text size="1" color="gray">
            بانک فقط پرداخت با همین کارت را می‌پذیرد.
          </Text>
        </Flex>
      )}
      {verified.length > 1 && (
        <RadioGroup.Root
          aria-labelledby="pay-card-label"
          value={chosen ? String(chosen.id) : ''}
          onValueChange={(v) => onChoose(Number(v))}
          data-testid="pay-card-choice"
        >
          <Flex direction="column" gap="2">
            {verified.map((card) => (
              <Text as="label" size="2" key={card.id}>
                <Flex gap="2" align="center">
                  <RadioGroup.Item value={String(card.id)} data-testid={`pay-card-${card.id}`} />
                  <CardLine card={card} showState={false} />
                </Flex>
              </Text>
            ))}
          </Flex>
        </RadioGroup.Root>
      )}
      {verified.length === 0 && (
        <Callout.Root color="blue" data-testid="pay-card-needed">
          <Callout.Text>
            پرداخت آنلاین فقط با کارت بانکی به نام خودتان پذیرفته می‌شود. کارتی را که با آن پرداخت می‌کنید ثبت کنید
            {cards.instantVerification
              ? '؛ مالکیت آن در چند ثانیه استعلام و تایید می‌شود و درخواست شما همین‌جا می‌ماند.'
              : '؛ کارشناسان مالکیت آن را بررسی می‌کنند. پس از تایید، از «درخواست‌های من» پرداخت کنید؛ در این فاصله اگر موجودی کیف پول کافی باشد، می‌توانید از کیف پول پرداخت کنید.'}
          </Callout.Text>
        </Callout.Root>
      )}
      {waiting.map((card) => (
        <CardLine key={card.id} card={card} />
      ))}
      {verified.length === 0 && lastRejected && <CardLine card={lastRejected} />}
      {showForm ? (
        <AddCardForm
          id="pay-card-number"
          submitLabel="ثبت کارت برای پرداخت"
          onSaved={(card) => {
            setAdding(false);
            if (card.state === 'verified') onChoose(card.id);
          }}
        />
      ) : (
        <Button
          type="button"
          variant="ghost"
          size="2"
          style={{ alignSelf: 'flex-start' }}
          onClick={() => setAdding(true)}
          data-testid="pay-add-card"
        >
          افزودن کارت دیگر
        </Button>
      )}
    </Flex>
  );
}
