import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegWithExif, uploadForm } from '../support/images';
import {
  bearer,
  loginAdmin,
  loginByCode,
  post,
  type RunningServer,
  startServer,
  staffWithActions,
} from '../support/server';

let server: RunningServer;
let admin: string;
beforeAll(async () => {
  server = await startServer({ web: false });
  admin = await loginAdmin(server);
});
afterAll(async () => server?.stop());

async function customerWithProfile(mobileNo: string, nationalCode: string): Promise<{ token: string; card: string }> {
  const token = await loginByCode(server, mobileNo);
  const res = await fetch(`${server.url}/api/me/uploadFile`, {
    method: 'POST',
    headers: bearer(token),
    body: uploadForm(await jpegWithExif(), 'card.jpg'),
  });
  const card = ((await res.json()) as { path: string }).path;
  const saved = await post(
    server,
    '/api/me/updateUserData',
    { nationalCode, firstName: 'علی', lastName: 'رضایی', dateOfBirth: '1990-06-01', nationalCardImageAddress: card },
    bearer(token),
  );
  expect(saved.status).toBe(200);
  return { token, card };
}

const openTaskFor = async (token: string, subjectUserId: number) => {
  const tasks = await post(server, '/api/me/searchTasks', { type: 'approveProfileAsL1Task' }, bearer(token));
  return (tasks.body.data as { items: Array<{ id: number; subjectUserId: number; color: string }> }).items.find(
    (t) => t.subjectUserId === subjectUserId,
  );
};

describe('profile approval through the task queue', () => {
  it('claims, approves once, locks the profile; a second decision and another claimer are refused', async () => {
    const customer = await customerWithProfile('09140000001', '0499370899');
    const me = (await post(server, '/api/me/fetchUserData', undefined, bearer(customer.token))).body.data as {
      id: number;
    };

    const types = await post(server, '/api/sys/searchTaskTypes', undefined, bearer(admin));
    const type = (
      types.body.data as { items: Array<{ identifier: string; color: string; openCount: number }> }
    ).items.find((t) => t.identifier === 'approveProfileAsL1Task');
    expect(type?.openCount).toBeGreaterThanOrEqual(1);
    expect(type?.color).toMatch(/^#[0-9a-f]{6}$/i);

    const task = await openTaskFor(admin, me.id);
    expect(task).toBeDefined();
    const data = await post(server, '/api/sys/fetchApproveProfileAsL1TaskData', { taskId: task!.id }, bearer(admin));
    expect(data.status).toBe(200);
    const payload = data.body.data as { user: { nationalCode: string }; nationalCardImageUrl: string };
    expect(payload.user.nationalCode).toBe('0499370899');
    const image = await fetch(server.url + payload.nationalCardImageUrl);
    expect(image.status).toBe(200);

    const colleague = (await staffWithActions(server, ['approveProfileL1', 'viewTasks'], '09140000099')).token;
    const stolen = await post(
      server,
      '/api/sys/fetchApproveProfileAsL1TaskData',
      { taskId: task!.id },
      bearer(colleague),
    );
    expect(stolen.status).toBe(409);
    expect(stolen.body.msg).toBe('این کار در دست همکار دیگری است.');
    const colleagueDecides = await post(server, '/api/sys/approveProfileAsL1', { taskId: task!.id }, bearer(colleague));
    expect(colleagueDecides.status).toBe(409);

    const approved = await post(server, '/api/sys/approveProfileAsL1', { taskId: task!.id }, bearer(admin));
    expect(approved.status).toBe(200);
    const second = await post(server, '/api/sys/approveProfileAsL1', { taskId: task!.id }, bearer(admin));
    expect(second.status).toBe(409);
    expect(second.body.msg).toBe('درباره این کار پیشتر تصمیم‌گیری شده است.');
    const reject = await post(
      server,
      '/api/sys/rejectProfileAsL1',
      { taskId: task!.id, reason: 'دیر است' },
      bearer(admin),
    );
    expect(reject.status).toBe(409);

    const after = await post(server, '/api/me/fetchUserData', undefined, bearer(customer.token));
    expect(after.body.data).toMatchObject({ approvedLevel: 1, maxUnrejectedLevel: 1, profileReviewPending: false });
    const locked = await post(
      server,
      '/api/me/updateUserData',
      {
        nationalCode: '0499370899',
        firstName: 'علی',
        lastName: 'رضایی',
        dateOfBirth: '1990-06-01',
        nationalCardImageAddress: customer.card,
      },
      bearer(customer.token),
    );
    expect(locked.status).toBe(422);
    expect(locked.body.msg).toBe('پروفایل شما تایید شده است و قابل ویرایش نیست.');

    const audit = await server.app.database.db
      .selectFrom('auditLog')
      .selectAll()
      .where('action', '=', 'approveProfileAsL1')
      .where('entityId', '=', String(me.id))
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ before: { approvedLevel: 0 }, after: { approvedLevel: 1 } });
  });

  it('rejects with a reason the customer sees, keeping maxUnrejectedLevel history', async () => {
    const customer = await customerWithProfile('09140000002', '0013542419');
    const me = (await post(server, '/api/me/fetchUserData', undefined, bearer(customer.token))).body.data as {
      id: number;
    };
    const task = await openTaskFor(admin, me.id);
    const notClaimed = await post(
      server,
      '/api/sys/rejectProfileAsL1',
      { taskId: task!.id, reason: 'تصویر ناخوانا است' },
      bearer(admin),
    );
    expect(notClaimed.status).toBe(409);
    await post(server, '/api/sys/fetchApproveProfileAsL1TaskData', { taskId: task!.id }, bearer(admin));
    const noReason = await post(server, '/api/sys/rejectProfileAsL1', { taskId: task!.id, reason: '' }, bearer(admin));
    expect(noReason.body.msg).toBe('دلیل رد را وارد نمایید.');
    const rejected = await post(
      server,
      '/api/sys/rejectProfileAsL1',
      { taskId: task!.id, reason: 'تصویر ناخوانا است' },
      bearer(admin),
    );
    expect(rejected.status).toBe(200);
    const after = await post(server, '/api/me/fetchUserData', undefined, bearer(customer.token));
    expect(after.body.data).toMatchObject({
      approvedLevel: 0,
      maxUnrejectedLevel: 0,
      profileRejectionReason: 'تصویر ناخوانا است',
      profileReviewPending: false,
    });
  });
});

describe('access control', () => {
  it('gives customers 403 on every /api/sys and /api/users staff operation', async () => {
    const { loadContract, toRoutePattern } = await import('../../src/server/contract/contract');
    const customer = await loginByCode(server, '09140000003');
    for (const op of loadContract().operations.filter((o) => o.access.kind === 'staff')) {
      const res = await fetch(server.url + toRoutePattern(op.path).replace(/:(\w+)/g, '1'), {
        method: op.method,
        headers: { ...bearer(customer), ...(op.method === 'GET' ? {} : { 'content-type': 'application/json' }) },
        body: op.method === 'GET' ? undefined : '{}',
      });
      expect(res.status, `${op.method} ${op.path}`).toBe(403);
    }
  });

  it('gives staff without the action 403 and with it 200', async () => {
    const viewer = (await staffWithActions(server, ['viewTasks'], '09140000010')).token;
    expect((await post(server, '/api/sys/searchTaskTypes', undefined, bearer(viewer))).status).toBe(200);
    expect((await post(server, '/api/sys/fetchApproveProfileAsL1TaskData', { taskId: 1 }, bearer(viewer))).status).toBe(
      403,
    );
    const access = await post(server, '/api/users/getUserAccess', undefined, bearer(viewer));
    expect(access.body.data).toMatchObject({ is_staff: true, is_admin: false, role: 'staff', menu: ['tasks'] });
    const policy = await post(server, '/user/get_policy', { action: 'approveProfileL1' }, bearer(viewer));
    expect(policy.body.data).toEqual({ permission: false, action: 'approveProfileL1' });
  });

  it('reports the administrator as admin with every menu entry', async () => {
    const access = await post(server, '/api/users/getUserAccess', undefined, bearer(admin));
    const data = access.body.data as { role: string; is_admin: boolean; menu: string[] };
    expect(data).toMatchObject({ role: 'admin', is_admin: true });
    expect(data.menu).toEqual(expect.arrayContaining(['tasks', 'authorizationUsers', 'currencySettings']));
  });

  it('manages groups and actions, refusing to remove an action the contract uses', async () => {
    const actions = (await fetch(`${server.url}/api/users/getActions`, { headers: bearer(admin) }).then((r) =>
      r.json(),
    )) as {
      data: { items: Array<{ id: number; name: string; usedByContract: boolean }> };
    };
    const used = actions.data.items.find((a) => a.name === 'approveProfileL1')!;
    expect(used.usedByContract).toBe(true);
    const refused = await post(server, '/api/users/removeAction', { id: used.id }, bearer(admin));
    expect(refused.status).toBe(422);
    const created = await post(
      server,
      '/api/users/saveAction',
      { name: 'exportReports', title: 'خروجی گزارش' },
      bearer(admin),
    );
    const id = (created.body.data as { id: number }).id;
    expect((await post(server, '/api/users/removeAction', { id }, bearer(admin))).status).toBe(200);
    const dup = await post(server, '/api/users/saveGroup', { name: 'administrators', title: 'x' }, bearer(admin));
    expect(dup.status).toBe(409);
    const staff = await post(server, '/api/sys/searchUsers', { isStaff: true }, bearer(admin));
    const items = (staff.body.data as { items: Array<{ isStaff: boolean }> }).items;
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((u) => u.isStaff)).toBe(true);
  });

  it('removing (deactivating) a staff user ends their sessions', async () => {
    const token = (await staffWithActions(server, ['viewTasks'], '09140000011')).token;
    const me = (await post(server, '/api/me/fetchUserData', undefined, bearer(token))).body.data as { id: number };
    expect((await post(server, '/api/users/removeUser', { id: me.id }, bearer(admin))).status).toBe(200);
    expect((await post(server, '/api/me/fetchUserData', undefined, bearer(token))).status).toBe(401);
  });
});
