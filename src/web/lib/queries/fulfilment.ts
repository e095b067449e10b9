/**
 * A paid request opened from its fulfilment task (api/sys/fetchFulfilmentTaskData: opening claims the task), the
 * reveal of its password, and the two decisions staff take on it.
 */
import type { components, operations } from '../../../generated/api';
import { api, call } from '../api-client';

export type FulfilmentTaskData = components['schemas']['FulfilmentTaskData'];
export type FulfilmentDone = operations['uafCprDone']['requestBody']['content']['application/json'];

/** The fulfilment tasks of paid requests (schemas/tasks/taskTypes.json). */
export const FULFILMENT_TASK_TYPES: readonly string[] = ['uafCprCpTask', 'completeCurrencyPaymentTask'];

export const fulfilmentTaskQuery = (taskId: number) => ({
  queryKey: ['fulfilmentTask', taskId],
  queryFn: () => call<FulfilmentTaskData>(api.POST('/api/sys/fetchFulfilmentTaskData', { body: { taskId } })),
  // Opening claims the task: no silent re-claims on focus, no retries of a refusal.
  refetchOnWindowFocus: false,
  retry: false,
  gcTime: 0,
});

/** The request's write-only fields (the password); the server audit-logs each reveal. */
export const revealPurchaseSecret = (purchase: number) =>
  call<{ fields: Record<string, string> }>(api.POST('/api/sys/revealPurchaseSecret', { body: { purchase } }));

/** Records the request done; the server's Persian message (a refusal throws its ApiError). */
export async function recordFulfilmentDone(body: FulfilmentDone): Promise<string> {
  const { data } = await api.POST('/api/sys/uafCprDone', { body });
  return data?.msg ?? '';
}

/** Records the request failed with the reason the customer sees. */
export async function recordFulfilmentFailed(purchase: number, reason: string): Promise<string> {
  const { data } = await api.POST('/api/sys/uafCprFailed', { body: { purchase, reason } });
  return data?.msg ?? '';
}

/** Records the request failed through the customer's error: fee and tax kept, the rest back to the wallet. */
export async function recordFulfilmentRefundUserError(purchase: number, reason: string): Promise<string> {
  const { data } = await api.POST('/api/sys/uafCprRefundUserError', { body: { purchase, reason } });
  return data?.msg ?? '';
}

export type StaffPurchaseDetail = components['schemas']['StaffPurchaseDetail'];

/** Any request for the staff requests page: history, online payments and its undecided fulfilment task. */
export const staffPurchaseQuery = (purchase: number) => ({
  queryKey: ['staff', 'purchase', purchase],
  queryFn: () => call<StaffPurchaseDetail>(api.POST('/api/sys/fetchStaffPurchase', { body: { purchase } })),
});
