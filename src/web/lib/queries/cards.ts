/**
 * The customer's bank cards (api/me/searchUserCards) with whether a gateway payment must name one, and saving a new
 * one (api/me/saveUserCard). Under the wallet's key: wallet.changed (a staff decision on a card) refreshes it.
 */
import type { components } from '../../../generated/api';
import { api, call, digMessage, FALLBACK_MESSAGE } from '../api-client';
import { queryClient } from '../query';

export type UserCard = components['schemas']['UserCard'];
export interface UserCards {
  items: UserCard[];
  total: number;
  gatewayNeedsCard: boolean;
  instantVerification: boolean;
}

export const userCardsQuery = {
  queryKey: ['wallet', 'cards'],
  queryFn: () => call<UserCards>(api.POST('/api/me/searchUserCards')),
};

/** Saves a card; the server's answer (the card in its state, and the Persian message) or the Persian refusal. */
export async function saveUserCard(
  cardNumber: string,
): Promise<{ ok: true; card: UserCard; message: string } | { ok: false; message: string }> {
  try {
    const result = await api.POST('/api/me/saveUserCard', { body: { cardNumber } });
    if (result.error) throw result.error;
    await queryClient.invalidateQueries({ queryKey: userCardsQuery.queryKey });
    return { ok: true, card: result.data.data, message: result.data.msg };
  } catch (error) {
    return { ok: false, message: digMessage(error) ?? FALLBACK_MESSAGE };
  }
}

/** The card's state in Persian, for badges and lists. */
export const CARD_STATE_TITLES: Record<UserCard['state'], string> = {
  pending: 'در انتظار تایید',
  verified: 'تایید شده',
  rejected: 'رد شده',
};

export const CARD_STATE_COLORS = { pending: 'orange', verified: 'green', rejected: 'red' } as const;
