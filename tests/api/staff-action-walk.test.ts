/**
 * Every staff operation of the contract needs its own action: walked from the contract, so operations added later
 * are covered. For each action named by some operation's x-access, a staff member holding every other action of
 * the catalogue is refused each of that action's operations (403 with a Persian message), and so is a customer;
 * the money pages reached by a user operation (one customer's wallet) answer staff without viewCustomers as if the
 * customer did not exist.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import actionCatalogue from '../../schemas/access/actions.json' with { type: 'json' };
import { loadContract, toRoutePattern } from '../../src/server/contract/contract';
import { moneyHelpers } from '../support/money';
import { bearer, post, type RunningServer, startServer } from '../support/server';

let server: RunningServer;
let money: ReturnType<typeof moneyHelpers>;
beforeAll(async () => {
  server = await startServer({ web: false });
  money = moneyHelpers(server);
  await money.ready();
});
afterAll(async () => server?.stop());

const staffOperations = loadContract().operations.flatMap((op) =>
  op.access.kind === 'staff' ? [{ ...op, action: op.access.action }] : [],
);
const actions = [...new Set(staffOperations.map((op) => op.action))].sort();
const PERSIAN = /[\u0600-\u06FF]/;

async function call(method: string, path: string, token: string) {
  const res = await fetch(server.url + toRoutePattern(path).replace(/:(\w+)/g, '1'), {
    method,
    headers: { ...bearer(token), ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) },
    body: method === 'GET' ? undefined : '{}',
  });
  return { status: res.status, body: (await res.json()) as { result: boolean; msg: string } };
}

describe('each staff operation needs its own action', () => {
  it('names only actions of the catalogue', () => {
    const catalogue = new Set(actionCatalogue.actions.map((a) => a.name));
    for (const action of actions) expect(catalogue.has(action), action).toBe(true);
  });

  for (const action of actions) {
    it(`refuses staff holding every action but ${action}, and customers`, async () => {
      const others = actionCatalogue.actions.map((a) => a.name).filter((name) => name !== action);
      const staff = await money.staffWithActions(others);
      const who = await money.customer();
      for (const op of staffOperations.filter((o) => o.action === action)) {
        for (const token of [staff.token, who.token]) {
          const res = await call(op.method, op.path, token);
          expect(res.status, `${op.method} ${op.path}`).toBe(403);
          expect(res.body.result).toBe(false);
          expect(res.body.msg, `${op.method} ${op.path}`).toMatch(PERSIAN);
        }
      }
    });
  }

  it("answers one customer's wallet to staff without viewCustomers as if it did not exist", async () => {
    const who = await money.customer();
    const staff = await money.staffWithActions(
      actionCatalogue.actions.map((a) => a.name).filter((name) => name !== 'viewCustomers'),
    );
    for (const path of ['/api/sys/fetchCustomerWallet', '/api/sys/searchCustomerTransactions']) {
      const res = await post(server, path, { userId: who.userId }, bearer(staff.token));
      expect(res.status, path).toBe(404);
      expect(res.body.msg).toMatch(PERSIAN);
    }
  });
});
