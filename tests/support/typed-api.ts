/**
 * A typed client for API tests: openapi-fetch over the generated contract types (src/generated/api.ts), the same
 * client the web uses (src/web/lib/api-client.ts), pointed at a running test server. A test reads
 *
 *   const api = await signedInApi(server, '09150000001');
 *   const { data } = await api.POST('/api/me/searchUserBankAccounts', { body: {} });
 *   data!.data.items  // typed from the contract, no cast
 *
 * and a refusal through `error` (the failure envelope, `msg` in Persian) and `response.status`. The server checks
 * every answer against the contract (VALIDATE_RESPONSES), so the types are what the test really gets.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { operations, paths } from '../../src/generated/api';
import { bearer, loginAdmin, loginByCode, type RunningServer, staffWithActions } from './server';

export type TypedApi = Client<paths>;

/** The JSON body an operation takes, by its operationId: `BodyOf<'saveRateAlert'>`. */
export type BodyOf<O extends keyof operations> = operations[O] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

/** A client with the headers every API call carries, and the bearer token when one is given. */
export function typedApi(server: RunningServer, token?: string): TypedApi {
  return createClient<paths>({
    baseUrl: server.url,
    headers: { 'x-requested-with': 'XMLHttpRequest', ...(token ? bearer(token) : {}) },
  });
}

/** A customer logged in by SMS code (a new account for a new number). */
export async function signedInApi(server: RunningServer, mobileNo: string): Promise<TypedApi> {
  return typedApi(server, await loginByCode(server, mobileNo));
}

/** The seeded administrator, who holds every staff action. */
export async function adminApi(server: RunningServer): Promise<TypedApi> {
  return typedApi(server, await loginAdmin(server));
}

/** A staff member holding exactly `actionNames` (tests/support/server.ts `staffWithActions`), and their id. */
export async function staffApi(
  server: RunningServer,
  actionNames: string[],
): Promise<{ api: TypedApi; userId: number }> {
  const { token, userId } = await staffWithActions(server, actionNames);
  return { api: typedApi(server, token), userId };
}

/**
 * The `data` of a call that must succeed, typed from the contract; a refusal throws with its status and message,
 * so the failing test says what the server answered.
 */
export async function dataOf<T>(
  call: Promise<{ data?: { data: T }; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await call;
  if (!data || error !== undefined) {
    throw new Error(`expected success, got ${response.status}: ${JSON.stringify(error)}`);
  }
  return data.data;
}

/** The status and Persian message of a call that must be refused (4xx); a success throws. */
export async function refusal(
  call: Promise<{ data?: unknown; error?: unknown; response: Response }>,
): Promise<{ status: number; msg: string }> {
  const { error, response } = await call;
  if (response.ok) throw new Error(`expected a refusal, got ${response.status}`);
  return { status: response.status, msg: (error as { msg?: string } | undefined)?.msg ?? '' };
}
