/** The signed-in customer's wallet balance and reserved amount (api/accounting/userBalance); wallet.changed refreshes it. */
import type { components } from '../../../generated/api';
import { api, call } from '../api-client';

export type UserBalance = components['schemas']['UserBalance'];

export const userBalanceQuery = {
  queryKey: ['wallet', 'balance'],
  queryFn: () => call<UserBalance>(api.POST('/api/accounting/userBalance', { body: {} })),
};
