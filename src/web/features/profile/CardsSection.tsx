/**
 * «کارت‌های بانکی من» in the profile: the customer's cards (bank, masked number left to right, state; a rejected
 * card with its reason) and a form to add one. It says what the gateway in use really requires (decision 034): with
 * one that needs a named card (ZarinPal), online payments are made only with a verified card of one's own (decision
 * 024); with one that checks the holder itself (the sandbox bank's holder mode) no card is needed, nothing is asked
 * and a saved card is not "waiting" for a review that will never come. wallet.changed (a staff decision) refreshes it.
 */
import { Callout, Card, Flex, Heading, Separator, Skeleton, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { AddCardForm } from '../../components/payments/AddCardForm';
import { CardLine } from '../../components/payments/CardLine';
import { EmptyState } from '../../components/states/EmptyState';
import { LoadError } from '../../components/states/LoadError';
import { userCardsQuery } from '../../lib/queries/cards';

export function CardsSection() {
  const cards = useQuery(userCardsQuery);
  return (
    <Card size="3" style={{ maxWidth: 'min(800px, 90vw)', marginInline: 'auto' }} data-testid="my-cards">
      <Flex direction="column" gap="3">
        <Heading size="4" as="h2">
          کارت‌های بانکی من
        </Heading>
        {cards.isPending && <Skeleton height="60px" />}
        {cards.isSuccess &&
          (cards.data.gatewayNeedsCard ? (
            <Text size="2" color="gray" data-testid="cards-needed">
              پرداخت آنلاین فقط با کارتی پذیرفته می‌شود که به نام خود شما ثبت و تایید شده باشد؛ پولی که با کارت دیگری
              پرداخت شود، به همان کارت بازمی‌گردد.
            </Text>
          ) : (
            <Callout.Root color="green" size="1" data-testid="cards-not-needed">
              <Callout.Text>
                برای پرداخت آنلاین لازم نیست کارتی ثبت کنید: درگاه پرداخت هنگام پرداخت بررسی می‌کند که کارت به نام خود
                شما باشد. با کارت بانکی خودتان پرداخت کنید؛ پولی که با کارت شخص دیگری پرداخت شود، به همان کارت
                بازمی‌گردد.
              </Callout.Text>
            </Callout.Root>
          ))}
        {cards.isError && (
          <LoadError
            error={cards.error}
            fallback="دریافت کارت‌ها ممکن نشد."
            onRetry={() => void cards.refetch()}
            retrying={cards.isFetching}
          />
        )}
        {cards.isSuccess && cards.data.gatewayNeedsCard && cards.data.items.length === 0 && (
          <EmptyState title="هنوز کارتی ثبت نکرده‌اید" testId="cards-empty" compact>
            کارتی را که با آن پرداخت می‌کنید با فرم زیر ثبت کنید.
          </EmptyState>
        )}
        {cards.isSuccess && cards.data.items.length > 0 && (
          <Flex direction="column" gap="2" asChild>
            <ul style={{ listStyle: 'none', margin: 0, padding: 0 }} data-testid="cards-list">
              {cards.data.items.map((card) => (
                <li key={card.id}>
                  <CardLine card={card} pendingTitle={cards.data.gatewayNeedsCard ? undefined : 'ثبت شده'} />
                </li>
              ))}
            </ul>
          </Flex>
        )}
        {cards.isSuccess && cards.data.gatewayNeedsCard && (
          <>
            <Separator size="4" />
            <AddCardForm />
          </>
        )}
      </Flex>
    </Card>
  );
}
