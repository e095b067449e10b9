/**
 * Google Ads as the pages show it: the customer's accounts (the drawer enables «حساب‌های من» and «شارژ حساب» once
 * there is one, the recharge desk chooses among them), their requests for new accounts, and the staff's two tasks.
 * googleAdsAccount.changed refreshes every query under ['googleAds'].
 */
import type { components, operations } from '../../../generated/api';
import { formatNumber } from '../../../shared/format';
import { api, call } from '../api-client';

export type GoogleAdsAccount = components['schemas']['GoogleAdsAccount'];
export type GoogleAdsAccountRequest = components['schemas']['GoogleAdsAccountRequest'];
export type StaffGoogleAdsAccount = components['schemas']['StaffGoogleAdsAccount'];
export type GoogleMccAccount = components['schemas']['GoogleMccAccount'];
export type CreateGoogleAdsAccountInput =
  operations['createGoogleAdsAccount']['requestBody']['content']['application/json'];
export type MakeGoogleAdsAccountInput =
  operations['makeGoogleAdsAccount']['requestBody']['content']['application/json'];
export type SaveGoogleMccAccountInput =
  operations['saveGoogleMccAccount']['requestBody']['content']['application/json'];

export interface MakeAccountTaskData {
  task: components['schemas']['Task'];
  request: GoogleAdsAccountRequest;
  user: components['schemas']['User'];
  mccAccounts: GoogleMccAccount[];
  operations: string;
}

export interface ChargeTaskData {
  request: components['schemas']['FulfilmentTaskData'];
  googleAdsAccount: StaffGoogleAdsAccount;
  operations: string;
}

/** The signed-in customer's accounts (`enabled` only with a user: a guest has none). */
export const myGoogleAdsAccountsQuery = (enabled: boolean) => ({
  queryKey: ['googleAds', 'myAccounts'],
  queryFn: () =>
    call<{ items: GoogleAdsAccount[]; total: number }>(
      api.POST('/api/me/searchGoogleAdsAccounts', { body: { perPage: 500 } }),
    ),
  enabled,
  staleTime: 60_000,
});

export async function createGoogleAdsAccount(body: CreateGoogleAdsAccountInput): Promise<string> {
  const { data } = await api.POST('/api/me/createGoogleAdsAccount', { body });
  return data?.msg ?? '';
}

export async function saveGoogleMccAccount(body: SaveGoogleMccAccountInput): Promise<string> {
  const { data } = await api.POST('/api/sys/saveGoogleMccAccount', { body });
  return data?.msg ?? '';
}

export async function saveGoogleAdsAccount(
  body: operations['saveGoogleAdsAccount']['requestBody']['content']['application/json'],
): Promise<string> {
  const { data } = await api.POST('/api/sys/saveGoogleAdsAccount', { body });
  return data?.msg ?? '';
}

/** Opening a make-account task claims it: no silent re-claims on focus, no retries of a refusal. */
export const makeAccountTaskQuery = (taskId: number) => ({
  queryKey: ['googleAdsMakeTask', taskId],
  queryFn: () =>
    call<MakeAccountTaskData>(api.POST('/api/sys/fetchMakeGoogleAdsAccountTaskData', { body: { taskId } })),
  refetchOnWindowFocus: false,
  retry: false,
  gcTime: 0,
});

export async function makeGoogleAdsAccount(body: MakeGoogleAdsAccountInput): Promise<string> {
  const { data } = await api.POST('/api/sys/makeGoogleAdsAccount', { body });
  return data?.msg ?? '';
}

export async function rejectGoogleAdsAccountRequest(taskId: number, reason: string): Promise<string> {
  const { data } = await api.POST('/api/sys/rejectGoogleAdsAccountRequest', { body: { taskId, reason } });
  return data?.msg ?? '';
}

export const chargeTaskQuery = (taskId: number) => ({
  queryKey: ['googleAdsChargeTask', taskId],
  queryFn: () => call<ChargeTaskData>(api.POST('/api/sys/fetchGoogleAdsChargeTaskData', { body: { taskId } })),
  refetchOnWindowFocus: false,
  retry: false,
  gcTime: 0,
});

export async function recordGoogleAdsChargeDone(purchase: number, chargeReference: string): Promise<string> {
  const { data } = await api.POST('/api/sys/googleAdsAccountCrDone', { body: { purchase, chargeReference } });
  return data?.msg ?? '';
}

export async function recordGoogleAdsChargeFailed(purchase: number, reason: string): Promise<string> {
  const { data } = await api.POST('/api/sys/googleAdsAccountCrFailed', { body: { purchase, reason } });
  return data?.msg ?? '';
}

/** The staff tasks of Google Ads (schemas/tasks/taskTypes.json). */
export const MAKE_ACCOUNT_TASK = 'makeGoogleAdsAccountTask';
export const CHARGE_TASK = 'googleAdsAccountCrCpTask';

const ACCOUNT_STATUS: Record<string, { title: string; color: string }> = {
  active: { title: 'فعال', color: '#43a047' },
  suspended: { title: 'معلق', color: '#e53935' },
  inactive: { title: 'غیرفعال', color: '#757575' },
};
const REQUEST_STATE: Record<string, { title: string; color: string }> = {
  requested: { title: 'در انتظار ساخت', color: '#fb8c00' },
  created: { title: 'ساخته شد', color: '#43a047' },
  rejected: { title: 'رد شد', color: '#e53935' },
};

/** U+2066/U+2069 keep the id left to right inside Persian text. */
export const customerIdText = (id: string) => `\u2066${id}\u2069`;

type Row = Record<string, unknown>;
const status = (s: unknown) => ACCOUNT_STATUS[String(s)] ?? { title: String(s), color: '#757575' };

function lastCharge(row: Row): string {
  const [last] = Array.isArray(row.charges) ? (row.charges as Array<{ amount: number; chargeReference: string }>) : [];
  // Each part isolated left to right, so Persian text around them does not reorder «50 USD» and the reference.
  return last
    ? `${customerIdText(`${formatNumber(last.amount)} ${String(row.currencyCode)}`)} (${customerIdText(last.chargeReference)})`
    : '—';
}

/** Rows of the account and panel tables with their Persian status and colours. */
export const decorateGoogleAdsRows = (items: Row[]): Row[] =>
  items.map((row) => ({
    ...row,
    googleCustomerIdText: customerIdText(String(row.googleCustomerId)),
    statusTitle: status(row.status).title,
    statusColor: status(row.status).color,
    ownershipTitle: row.ownershipApproved === 1 ? 'تایید شده' : 'تایید نشده',
    ownershipColor: row.ownershipApproved === 1 ? '#43a047' : '#e53935',
    lastChargeText: lastCharge(row),
  }));

export const decorateAccountRequests = (items: Row[]): Row[] =>
  items.map((row) => {
    const state = REQUEST_STATE[String(row.state)] ?? { title: String(row.state), color: '#757575' };
    return { ...row, stateTitle: state.title, stateColor: state.color };
  });
