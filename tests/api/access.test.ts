/**
 * The access matrix (issue 12; DESIGN.md "Access"): every operation of openapi/openapi.yaml is called as a guest,
 * as customer A (who owns a request, a quote, a file, a receipt, a bank account, a second session and a wallet),
 * as customer B on A's resources, as staff without the operation's action and as staff holding it. Each answer must
 * match the operation's `x-access`:
 *
 * - `public`: nobody is refused by the access check (no 401/403 of the router);
 * - `user`: a guest gets 401 with the Persian message, anyone signed in passes the access check;
 * - `staff:<action>`: a guest gets 401, customers and staff holding every other action but this one get 403, staff
 *   holding only this action pass.
 *
 * A customer never sees another customer's data: where a `user` operation names one of A's resources (the small
 * table below says which body field names which resource), B and a staff member without actions get exactly the
 * answer they get for a resource that does not exist (the contract's "anyone else gets 404, as for an id that does
 * not exist"), while A reaches it (no 404). No answer to B carries A's national code or mobile number.
 *
 * Operations, their fields and their parameters are read from the contract, so an operation added later is walked
 * without touching this file; one without `x-access` stops the contract from loading and fails here.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONTRACT_FILE, type Operation } from '../../src/server/contract/contract';
import { msg } from '../../src/server/http/messages';
import {
  bodySchemaOf,
  contract,
  type Json,
  parametersOf,
  sample,
  topLevelProperties,
  urlOf,
} from '../support/contract-samples';
import { png, uploadForm } from '../support/images';
import { type Customer, moneyHelpers } from '../support/money';
import { bearer, loginAdmin, loginByCode, post, type RunningServer, startServer } from '../support/server';

const UNAUTHORIZED = msg('http.unauthorized');
const FORBIDDEN = msg('http.forbidden');

/** A's resources, as a `user` operation's body names them: body field → resource. */
type Resource =
  'purchase' | 'collection' | 'user' | 'bankAccount' | 'card' | 'quote' | 'file' | 'rateAlert' | 'session';
const RESOURCE_FIELDS: Record<string, Resource> = {
  purchase: 'purchase',
  collection: 'collection',
  userId: 'user',
  bankAccount: 'bankAccount',
  card: 'card',
  quoteId: 'quote',
  path: 'file',
  alertId: 'rateAlert',
  // The only `user` operation with a bare `id` is revokeOwnSession.
  id: 'session',
};
/** The desk A's request and quote are on, and its form. */
const DESK = 'toeflGeneralCpr';

let server: RunningServer;
const money = () => moneyHelpers(server);
let helpers: ReturnType<typeof moneyHelpers>;

interface Actor {
  label: string;
  token: string | null;
  login: (() => Promise<string>) | null;
}
let guest: Actor;
let customerA: Actor & { customer: Customer; mobileNo: string };
let customerB: Actor;
let staffPlain: Actor;
let admin: Actor;
const staffOnly = new Map<string, Actor>();
const staffAllBut = new Map<string, Actor>();
const resources = {} as Record<Exclude<Resource, 'session'>, string | number>;
let deskForm: Json;
let markersOfA: string[];

const staffActions = [
  ...new Set(contract.operations.flatMap((op) => (op.access.kind === 'staff' ? [op.access.action] : []))),
];

let keys = 0;
async function call(op: Operation, actor: Actor, body: unknown, pathValues: Record<string, string> = {}) {
  const headers: Record<string, string> = { 'x-requested-with': 'XMLHttpRequest' };
  if (actor.token) headers.authorization = `Bearer ${actor.token}`;
  for (const p of parametersOf(op).filter((x) => x.in === 'header')) {
    headers[p.name.toLowerCase()] = `access-matrix-${process.pid}-${keys++}`;
  }
  let payload: BodyInit | undefined;
  if (op.multipart) {
    payload = uploadForm(await png(), 'a.png', 'nationalCard', 'image/png');
  } else if (op.method !== 'GET') {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body ?? {});
  }
  const res = await fetch(server.url + urlOf(op, pathValues), {
    method: op.method,
    headers,
    body: payload,
    redirect: 'manual',
  });
  const text = await res.text();
  let parsed: Json = {};
  try {
    parsed = JSON.parse(text) as Json;
  } catch {
    // an image or a redirect
  }
  return { status: res.status, msg: String(parsed.msg ?? ''), text };
}
type Answer = Awaited<ReturnType<typeof call>>;

const refusedByAccess = (a: Answer) =>
  (a.status === 401 && a.msg === UNAUTHORIZED) || (a.status === 403 && a.msg === FORBIDDEN);
const show = (a: Answer) => `${a.status} ${a.text.slice(0, 160)}`;

/** Logs the actor in again when an operation (logout, a password change) ended its session. */
async function stillSignedIn(actor: Actor): Promise<void> {
  if (!actor.token || !actor.login) return;
  const me = await post(server, '/api/me/fetchUserData', undefined, bearer(actor.token));
  if (me.status === 401) actor.token = await actor.login();
}

async function newStaff(label: string, actionNames: string[]): Promise<Actor> {
  const { token } = await helpers.staffWithActions(actionNames);
  const me = await post(server, '/api/me/fetchUserData', undefined, bearer(token));
  const username = String((me.body.data as Json).mobileNo);
  const login = async () => {
    const res = await post(server, '/api/me/loginByPassword', { username, password: 'staff-password-1' });
    if (res.status !== 200) throw new Error(`${label} cannot log in again: ${res.status} ${res.body.msg}`);
    return (res.body.data as { userToken: string }).userToken;
  };
  return { label, token, login };
}

/** A new session of A's (a resource revokeOwnSession ends), made fresh for each call that names it. */
async function freshSessionOfA(): Promise<number> {
  const token = await loginByCode(server, customerA.mobileNo);
  const sessions = await post(server, '/api/me/searchSessions', undefined, bearer(token));
  const items = (sessions.body.data as { items: Array<{ id: number; current: boolean }> }).items;
  return items.find((s) => s.current)!.id;
}

/** A value of the same form that names nothing: another id, or one character of a key changed. */
function unknownLike(value: string | number): string | number {
  if (typeof value === 'number') return 2_147_483_000;
  const slash = value.lastIndexOf('/');
  const chars = [...value];
  for (let i = slash + 1; i < chars.length; i++) {
    if (/[0-9a-f]/.test(chars[i]!)) {
      chars[i] = ((parseInt(chars[i]!, 16) + 1) % 16).toString(16);
      return chars.join('');
    }
  }
  return `${value}0`;
}

/** The resources a `user` operation's body names, by field. */
function resourceFieldsOf(op: Operation): Array<[string, Resource]> {
  if (op.access.kind !== 'user') return [];
  const schema = bodySchemaOf(op);
  if (!schema) return [];
  return Object.keys(topLevelProperties(schema)).flatMap((name) =>
    RESOURCE_FIELDS[name] ? [[name, RESOURCE_FIELDS[name]] as [string, Resource]] : [],
  );
}

function baseBody(op: Operation): Json | undefined {
  const schema = bodySchemaOf(op);
  if (!schema) return undefined;
  const body = (sample(schema) ?? {}) as Json;
  // A rate alert names a currency that exists (A's alert is on it).
  if ('currencyId' in body) body.currencyId = helpers.usd.id;
  return parametersOf(op).some((p) => p.name === 'desk') ? { ...body, ...deskForm } : body;
}

const pathValuesOf = (op: Operation): Record<string, string> =>
  parametersOf(op).some((p) => p.name === 'desk') ? { desk: DESK } : {};

beforeAll(async () => {
  server = await startServer({
    web: false,
    // Every actor may log in again as often as the walk needs.
    env: { SMS_LIMIT_PER_MOBILE: '100000', LOGIN_FAILURES_PER_ACCOUNT: '100000', LOGIN_FAILURES_PER_IP: '100000' },
  });
  helpers = money();
  await helpers.ready();
  const adminToken = await loginAdmin(server);
  admin = { label: 'staff holding every action', token: adminToken, login: () => loginAdmin(server) };
  guest = { label: 'guest', token: null, login: null };

  const a = await helpers.customer();
  const me = (await post(server, '/api/me/fetchUserData', undefined, bearer(a.token))).body.data as Json;
  const mobileA = String(me.mobileNo);
  customerA = {
    label: 'customer A',
    token: a.token,
    login: () => loginByCode(server, mobileA),
    customer: a,
    mobileNo: mobileA,
  };
  const b = await helpers.customer();
  const meB = (await post(server, '/api/me/fetchUserData', undefined, bearer(b.token))).body.data as Json;
  customerB = { label: 'customer B', token: b.token, login: () => loginByCode(server, String(meB.mobileNo)) };
  markersOfA = [a.nationalCode, mobileA];

  // A's resources: a request waiting for payment, a paid one with its bank receipt, an unspent quote, an upload,
  // a bank account.
  const waiting = await helpers.request(a);
  resources.purchase = waiting.id;
  resources.user = a.userId;
  const paid = await helpers.request(a);
  const paying = await helpers.payOk(a, paid.id);
  const bankPage = new URL(paying.gatewayUrl!, server.url);
  const atBank = await fetch(bankPage, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ cardNo: '6037991234567890', holderNationalCode: a.nationalCode, action: 'pay' }),
  });
  await fetch(new URL(atBank.headers.get('location')!, bankPage), { redirect: 'manual' });
  const detail = await helpers.purchaseOf(a, paid.id);
  resources.collection = detail.payments[0]!.collectionId!;
  const groups = (await post(server, '/api/public/searchPaymentMethodGroups')).body.data as {
    items: Array<{ id: number; isCash: boolean }>;
  };
  deskForm = {
    currency: helpers.usd.id,
    amount: 100,
    requestedPaymentMethodGroup: groups.items.find((g) => !g.isCash)!.id,
  };
  const quote = await post(server, `/api/me/desks/${DESK}/priceInquiry`, deskForm, bearer(a.token));
  resources.quote = (quote.body.data as { quoteId: string }).quoteId;
  const upload = await fetch(`${server.url}/api/me/uploadFile`, {
    method: 'POST',
    headers: bearer(a.token),
    body: uploadForm(await png(), 'card.png', 'nationalCard', 'image/png'),
  });
  resources.file = ((await upload.json()) as { path: string }).path;
  const account = await post(
    server,
    '/api/me/saveUserBankAccount',
    { iban: 'IR820540102680020817909002', ownerName: 'سارا کریمی' },
    bearer(a.token),
  );
  expect(account.status, account.body.msg).toBe(200);
  resources.bankAccount = (account.body.data as { id: number }).id;
  const card = await post(server, '/api/me/saveUserCard', { cardNumber: '6037991234567893' }, bearer(a.token));
  expect(card.status, card.body.msg).toBe(200);
  resources.card = (card.body.data as { id: number }).id;
  const alert = await post(
    server,
    '/api/me/saveRateAlert',
    { currencyId: helpers.usd.id, direction: 'below', threshold: 1_000 },
    bearer(a.token),
  );
  expect(alert.status, alert.body.msg).toBe(200);
  resources.rateAlert = (alert.body.data as { id: number }).id;

  staffPlain = await newStaff('staff without actions', []);
  for (const action of staffActions) {
    staffOnly.set(action, await newStaff(`staff holding only ${action}`, [action]));
    staffAllBut.set(
      action,
      await newStaff(
        `staff holding all but ${action}`,
        staffActions.filter((x) => x !== action),
      ),
    );
  }
}, 180_000);

afterAll(async () => server?.stop());

describe('the contract', () => {
  it('gives every operation an x-access', () => {
    const document = parse(readFileSync(CONTRACT_FILE, 'utf8')) as { paths: Record<string, Record<string, Json>> };
    const missing = Object.entries(document.paths).flatMap(([p, item]) =>
      ['get', 'post', 'put', 'patch', 'delete'].flatMap((m) =>
        item[m] && !/^(public|user|staff:[A-Za-z][A-Za-z0-9]*)$/.test(String(item[m]['x-access'])) ? [`${m} ${p}`] : [],
      ),
    );
    expect(missing).toEqual([]);
    expect(contract.operations.length).toBeGreaterThan(80);
  });
});

describe('x-access is enforced for every operation', () => {
  it.each(contract.operations.map((op) => [op.operationId, op] as const))('%s', async (_id, op) => {
    const failures: string[] = [];
    const body = baseBody(op);
    const pathValues = pathValuesOf(op);
    const owned = resourceFieldsOf(op);
    const withA = async (): Promise<Json | undefined> => {
      if (!body) return body;
      const out: Json = { ...body };
      for (const [field, resource] of owned) {
        out[field] = resource === 'session' ? await freshSessionOfA() : resources[resource];
      }
      return out;
    };
    const withUnknown = async (): Promise<Json | undefined> => {
      if (!body) return body;
      const out: Json = { ...body };
      for (const [field, resource] of owned) {
        out[field] = unknownLike(resource === 'session' ? 1 : resources[resource]);
      }
      return out;
    };

    const expectRefused = async (actor: Actor, status: 401 | 403) => {
      const answer = await call(op, actor, await withA(), pathValues);
      if (answer.status !== status || answer.msg !== (status === 401 ? UNAUTHORIZED : FORBIDDEN)) {
        failures.push(`${actor.label}: expected ${status}, got ${show(answer)}`);
      }
    };
    const expectPassed = async (actor: Actor, requestBody: Json | undefined): Promise<Answer> => {
      const answer = await call(op, actor, requestBody, pathValues);
      if (refusedByAccess(answer) || answer.status >= 500) {
        failures.push(`${actor.label}: expected to pass the access check, got ${show(answer)}`);
      }
      if (answer.status < 300) await stillSignedIn(actor);
      return answer;
    };
    /** Someone who is not A, on A's resources: the answer for a resource that does not exist, and none of A's data. */
    const expectStranger = async (actor: Actor) => {
      const onA = await expectPassed(actor, await withA());
      if (owned.length > 0) {
        const onNothing = await expectPassed(actor, await withUnknown());
        if (onA.status !== onNothing.status || onA.msg !== onNothing.msg) {
          failures.push(
            `${actor.label} on A's ${owned.map(([f]) => f).join(', ')}: ${show(onA)}; on none: ${show(onNothing)}`,
          );
        }
      }
      for (const marker of markersOfA) {
        if (onA.text.includes(marker)) failures.push(`${actor.label} saw A's ${marker}: ${show(onA)}`);
      }
    };

    switch (op.access.kind) {
      case 'public':
        for (const actor of [guest, customerB, staffPlain, admin, customerA]) await expectPassed(actor, await withA());
        break;
      case 'user': {
        await expectRefused(guest, 401);
        await expectStranger(customerB);
        await expectStranger(staffPlain);
        await expectPassed(admin, await withA());
        const own = await expectPassed(customerA, await withA());
        // payPaymentLink is found by its link's token, a capability meant for someone else that the walk has none
        // of: A's own card and quote ride with an unknown token, which is 404 for everyone.
        const foundByLinkToken = op.operationId === 'payPaymentLink';
        if (owned.length > 0 && own.status === 404 && !foundByLinkToken) {
          failures.push(`customer A on A's own resource: ${show(own)}`);
        }
        break;
      }
      case 'staff': {
        const { action } = op.access;
        await expectRefused(guest, 401);
        await expectRefused(customerA, 403);
        await expectRefused(customerB, 403);
        await expectRefused(staffPlain, 403);
        await expectRefused(staffAllBut.get(action)!, 403);
        await expectPassed(staffOnly.get(action)!, body);
        break;
      }
    }
    expect(failures).toEqual([]);
  });
});
