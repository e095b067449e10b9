/**
 * The one button that pays a request waiting for payment: «پرداخت از کیف پول» when the wallet covers it (the
 * request is paid at once and opens in My requests), otherwise «پرداخت آنلاین …» for the rest, on to the bank's
 * page, with the card it is paid with (PayCardChoice). A request whose price expired shows the fresh price and pays
 * only once the customer confirms it.
 */
import { Box, Button, Callout, Flex, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { components } from '../../../generated/api';
import { formatRial } from '../../../shared/format';
import { Amount } from '../RialText';
import { rialInWords } from '../../../shared/format/persian-words';
import { usePayPurchase } from '../../lib/payments';
import { userCardsQuery } from '../../lib/queries/cards';
import { PayCardChoice } from './PayCardChoice';

type Purchase = components['schemas']['Purchase'];

export const payLabel = (payable: number) =>
  payable > 0 ? `پرداخت آنلاین ${formatRial(payable)}` : 'پرداخت از کیف پول';

export function PayAction({ purchase }: { purchase: Pick<Purchase, 'id' | 'payablePrice'> }) {
  const { paying, error, freshQuote, pay, dismissQuote } = usePayPurchase(purchase.id);
  const online = purchase.payablePrice > 0;
  const cards = useQuery({ ...userCardsQuery, enabled: online });
  const [chosenId, setChosenId] = useState<number | null>(null);
  const verified = (cards.data?.items ?? []).filter((c) => c.state === 'verified');
  const chosen = verified.find((c) => c.id === chosenId) ?? (verified.length === 1 ? verified[0] : undefined);
  const cardId = online && chosen ? chosen.id : null;
  // The gateway takes only a named card: no payment before one is chosen.
  const needsChoice = online && (cards.isPending || (cards.data?.gatewayNeedsCard === true && !chosen));

  if (freshQuote) {
    return (
      <Box
        p="3"
        style={{ background: 'var(--orange-2)', borderRadius: 'var(--radius-4)', border: '1px solid var(--orange-6)' }}
        data-testid="fresh-quote"
        role="alert"
      >
        <Flex direction="column" gap="2">
          <Text weight="bold">اعتبار قیمت این درخواست به پایان رسیده است.</Text>
          <Text size="2">قیمت تازه را بررسی کنید؛ پرداخت با این قیمت انجام می‌شود:</Text>
          <div className="price-row">
            <Text size="2">مبلغ کل</Text>
            <Text size="2" data-testid="fresh-expected-price">
              <Amount value={freshQuote.expectedPrice} />
            </Text>
          </div>
          <Text size="1" color="gray" data-testid="fresh-expected-price-words">
            به حروف: {rialInWords(freshQuote.expectedPrice)}
          </Text>
          {freshQuote.walletBalance > 0 && (
            <div className="price-row">
              <Text size="2">موجودی کیف پول</Text>
              <Text size="2">
                <Amount value={freshQuote.walletBalance} />
              </Text>
            </div>
          )}
          <div className="price-row">
            <Text size="2" weight="bold">
              قابل پرداخت
            </Text>
            <Text size="3" weight="bold" data-testid="fresh-payable-price">
              <Amount value={freshQuote.payablePrice} />
            </Text>
          </div>
          <Flex gap="2" wrap="wrap">
            <Button
              size="3"
              color="orange"
              loading={paying}
              disabled={freshQuote.payablePrice > 0 && needsChoice}
              onClick={() => void pay(freshQuote.quoteId, cardId)}
              data-testid="confirm-fresh-quote"
            >
              {freshQuote.payablePrice > 0 ? 'تایید قیمت تازه و پرداخت آنلاین' : 'تایید قیمت تازه و پرداخت از کیف پول'}
            </Button>
            <Button size="3" variant="soft" color="gray" disabled={paying} onClick={dismissQuote}>
              انصراف
            </Button>
          </Flex>
        </Flex>
      </Box>
    );
  }

  return (
    <Flex direction="column" gap="2">
      {error && (
        <Callout.Root color="red" role="alert" data-testid="pay-error">
          <Callout.Text>{error}</Callout.Text>
        </Callout.Root>
      )}
      {online && (
        <PayCardChoice
          cards={cards.data}
          loading={cards.isPending}
          chosen={chosen}
          onChoose={(id) => setChosenId(id)}
        />
      )}
      <Button
        size="3"
        loading={paying}
        disabled={needsChoice}
        onClick={() => void pay(null, cardId)}
        data-testid="pay-purchase"
      >
        {payLabel(purchase.payablePrice)}
      </Button>
      {online && (
        <Text size="1" color="gray">
          برای پرداخت به صفحه امن درگاه بانک می‌روید و پس از پرداخت به همین‌جا بازمی‌گردید.
        </Text>
      )}
    </Flex>
  );
}
