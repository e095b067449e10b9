/**
 * Staff money reads: what is waiting (api/sys/fetchWaitingWork), one customer's wallet (api/sys/fetchCustomerWallet,
 * also the customer's own), and our bank accounts a deposit arrives in (api/sys/searchInternalBankAccounts).
 * wallet.changed and task events refresh them (lib/realtime.ts).
 */
import type { components } from '../../../generated/api';
import { api, call } from '../api-client';

export type WaitingWork = components['schemas']['WaitingWork'];
export type CustomerWallet = components['schemas']['CustomerWallet'];

export const waitingWorkQuery = {
  queryKey: ['staff', 'waitingWork'],
  queryFn: () => call<WaitingWork>(api.POST('/api/sys/fetchWaitingWork', { body: {} })),
};

export const customerWalletQuery = (userId: number) => ({
  queryKey: ['wallet', 'customer', userId],
  queryFn: () => call<CustomerWallet>(api.POST('/api/sys/fetchCustomerWallet', { body: { userId, perPage: 500 } })),
});

export const internalBankAccountsQuery = {
  queryKey: ['staff', 'internalBankAccounts'],
  queryFn: () =>
    call<{ items: Array<{ id: number; title: string; bankName: string; accountNo: string; isActive: boolean }> }>(
      api.POST('/api/sys/searchInternalBankAccounts', { body: { perPage: 500 } }),
    ),
};
