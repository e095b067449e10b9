/**
 * The audit trail staff can read (issue 33, point 5): searchAuditLog answers only staff holding viewAuditLog,
 * newest first, with who acted, the action, the record and the values before and after; narrowed by the person,
 * the action, the kind of record, its id, the days and a text found in the recorded values.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  loginAdmin,
  post,
  type RunningServer,
  staffWithActions,
  startServer,
  verifiedCustomer,
} from '../support/server';

interface Entry {
  id: number;
  createdAt: string;
  actorUserId: number | null;
  actorName: string | null;
  actorMobileNo: string | null;
  action: string;
  entity: string;
  entityId: string | null;
  before: string | null;
  after: string | null;
}
interface Page {
  items: Entry[];
  total: number;
  actions: string[];
  entities: string[];
}

let server: RunningServer;
let reader: string;
let admin: string;
let groupId: number;
const today = new Date().toISOString().slice(0, 10);

const search = async (body: Record<string, unknown>, token = reader) => {
  const res = await post(server, '/api/sys/searchAuditLog', body, bearer(token));
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data as Page;
};

beforeAll(async () => {
  server = await startServer({ web: false });
  admin = await loginAdmin(server);
  reader = (await staffWithActions(server, ['viewAuditLog'], '09145550001')).token;
  const made = await post(server, '/api/users/saveGroup', { name: 'auditors', title: 'حسابرسان' }, bearer(admin));
  groupId = (made.body.data as { id: number }).id;
  const renamed = await post(
    server,
    '/api/users/saveGroup',
    { id: groupId, name: 'auditors', title: 'حسابرسان ارشد' },
    bearer(admin),
  );
  expect(renamed.status).toBe(200);
});
afterAll(async () => server.stop());

describe('searchAuditLog', () => {
  it('shows a change with who made it and the values before and after, newest first', async () => {
    const page = await search({ entity: 'group', entityId: String(groupId) });
    expect(page.total).toBe(2);
    const [rename, creation] = page.items;
    expect(rename!.id).toBeGreaterThan(creation!.id);
    expect(rename).toMatchObject({ action: 'saveGroup', entity: 'group', entityId: String(groupId) });
    expect(rename!.actorMobileNo).toBe('09120000000');
    expect(JSON.parse(rename!.before!)).toMatchObject({ title: 'حسابرسان' });
    expect(JSON.parse(rename!.after!)).toMatchObject({ title: 'حسابرسان ارشد' });
    expect(creation!.before).toBeNull();
    expect(page.actions).toContain('saveGroup');
    expect(page.entities).toContain('group');
  });

  it('narrows by the person, the action, the days and a text in the recorded values', async () => {
    const byAdmin = await search({ actor: '09120000000', action: 'saveGroup' });
    expect(byAdmin.items.length).toBeGreaterThanOrEqual(2);
    expect(byAdmin.items.every((e) => e.actorMobileNo === '09120000000' && e.action === 'saveGroup')).toBe(true);
    expect((await search({ actor: '09999999999' })).total).toBe(0);
    expect((await search({ search: 'حسابرسان ارشد' })).items.map((e) => e.entityId)).toContain(String(groupId));
    expect((await search({ entity: 'group', from: today, to: today })).total).toBeGreaterThanOrEqual(2);
    expect((await search({ entity: 'group', from: '2020-01-01', to: '2020-01-02' })).total).toBe(0);
    // LIKE's wildcards are taken literally: "%" finds nothing rather than everything.
    expect((await search({ search: '%' })).total).toBe(0);
  });

  it('pages', async () => {
    const first = await search({ perPage: 1, page: 1 });
    const second = await search({ perPage: 1, page: 2 });
    expect(first.items).toHaveLength(1);
    expect(second.items[0]!.id).toBeLessThan(first.items[0]!.id);
  });

  it('refuses a customer, staff without the action, and a guest', async () => {
    const customer = await verifiedCustomer(server, '09135550002', '0013542419');
    const other = (await staffWithActions(server, ['viewCustomers'], '09145550003')).token;
    for (const token of [customer, other]) {
      const res = await post(server, '/api/sys/searchAuditLog', {}, bearer(token));
      expect(res.status).toBe(403);
      expect(res.body.msg).toMatch(/[\u0600-\u06FF]/);
    }
    expect((await post(server, '/api/sys/searchAuditLog', {})).status).toBe(401);
  });

  it('answers bad filters with a 400 in Persian', async () => {
    for (const body of [{ from: '1405/09/07' }, { actor: 'x'.repeat(101) }, { perPage: 0 }, { unknown: 1 }]) {
      const res = await post(server, '/api/sys/searchAuditLog', body, bearer(reader));
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.msg).toMatch(/[\u0600-\u06FF]/);
    }
  });
});
