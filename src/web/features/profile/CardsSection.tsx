/**
 * «کارت‌های بانکی من» in the profile: the customer's cards (bank, masked number left to right, state; a rejected
 * card with its reason) and a form to add one. Online payments are made only with a verified card of one's own
 * (decision 024); wallet.changed (a staff decision) refreshes the list.
 */
import { Card, Flex, Heading, Separator, Skeleton, Text } from '@radix-ui/themes';
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
        <Text size="2" color="gray">
          پرداخت آنلاین فقط با کارتی پذیرفته می‌شود که به نام خود شما ثبت و تایید شده باشد؛ پولی که با کارت دیگری پرداخت
          شود، به همان کارت بازمی‌گردد.
        </Text>
        {cards.isPending && <Skeleton height="60px" />}
        {cards.isError && (
          <LoadError
            error={cards.error}
            fallback="دریافت کارت‌ها ممکن نشد."
            onRetry={() => void cards.refetch()}
            retrying={cards.isFetching}
          />
        )}
        {cards.isSuccess && cards.data.items.length === 0 && (
          <EmptyState title="هنوز کارتی ثبت نکرده‌اید" testId="cards-empty" compact>
            کارتی را که با آن پرداخت می‌کنید با فرم زیر ثبت کنید.
          </EmptyState>
        )}
        {cards.isSuccess && cards.data.items.length > 0 && (
          <Flex direction="column" gap="2" asChild>
            <ul style={{ listStyle: 'none', margin: 0, padding: 0 }} data-testid="cards-list">
              {cards.data.items.map((card) => (
                <li key={card.id}>
                  <CardLine card={card} />
                </li>
              ))}
            </ul>
          </Flex>
        )}
        <Separator size="4" />
        <AddCardForm />
      </Flex>
    </Card>
  );
}
