/** One of the customer's cards as a line: its bank, its masked number (left to right) and its state. */
import { Badge, Flex, Text } from '@radix-ui/themes';
import { groupCardNumber } from '../../../shared/cards/card-number';
import { toPersianDigits } from '../../../shared/digits';
import { CARD_STATE_COLORS, CARD_STATE_TITLES, type UserCard } from '../../lib/queries/cards';

/** The masked number in groups of four, Persian digits, read left to right: ۶۰۳۷ ۹۹** **** ۷۸۹۳. */
export const maskedCardText = (card: Pick<UserCard, 'maskedPan'>) => toPersianDigits(groupCardNumber(card.maskedPan));

export function CardLine({
  card,
  showState = true,
  pendingTitle,
}: {
  card: UserCard;
  showState?: boolean;
  /** A pending card's state when no review is coming (a gateway that needs no card, decision 034). */
  pendingTitle?: string;
}) {
  const unreviewed = card.state === 'pending' && pendingTitle !== undefined;
  return (
    <Flex direction="column" gap="1">
      <Flex gap="2" align="center" wrap="wrap">
        <Text weight="medium">{card.bankName}</Text>
        <bdi dir="ltr" className="ltr" data-testid="card-masked">
          {maskedCardText(card)}
        </bdi>
        {showState && (
          <Badge color={unreviewed ? 'gray' : CARD_STATE_COLORS[card.state]} data-testid="card-state">
            {unreviewed ? pendingTitle : CARD_STATE_TITLES[card.state]}
          </Badge>
        )}
      </Flex>
      {card.state === 'rejected' && card.decisionReason && (
        <Text size="1" color="red">
          دلیل رد: {card.decisionReason}
        </Text>
      )}
    </Flex>
  );
}
