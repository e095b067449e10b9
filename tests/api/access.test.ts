/**
 * Walks every operation of the contract as a guest: public operations never answer 401/403,
 * every other operation answers 401 with the Persian message. Later issues extend the walk to
 * customers and staff with and without the action.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract, toRoutePattern } from '../../src/server/contract/contract';
import { type RunningServer, startServer } from '../support/server';

const contract = loadContract();
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ web: false });
});
afterAll(async () => server?.stop());

const samplePath = (p: string) => toRoutePattern(p).replace(/:(\w+)/g, 'sample');

describe('x-access is enforced for every operation', () => {
  for (const op of contract.operations) {
    it(`${op.method} ${op.path} as a guest (${op.access.kind})`, async () => {
      const res = await fetch(server.url + samplePath(op.path), {
        method: op.method,
        headers: op.method === 'GET' ? {} : { 'content-type': 'application/json' },
        body: op.method === 'GET' ? undefined : '{}',
        // A public redirect (the gateway's callback) is judged by its own answer, not by the page it leads to.
        redirect: 'manual',
      });
      if (op.access.kind === 'public') {
        expect([401, 403]).not.toContain(res.status);
        return;
      }
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ result: false, msg: 'ابتدا وارد حساب کاربری خود شوید.' });
    });
  }
});
