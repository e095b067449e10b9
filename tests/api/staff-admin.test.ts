/**
 * Staff administration beyond adding (issue 15, point 14), against the real server and database: editing a user,
 * deactivating instead of deleting (no log-in, sessions end, reactivation), password reset ending sessions, the
 * self and last-administrator rules, removing groups and actions with their memberships recorded in the audit log,
 * bounded ids and metadata, and system parameters checked against their definitions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_MOBILE,
  bearer,
  loginAdmin,
  loginByCode,
  post,
  type RunningServer,
  startServer,
} from '../support/server';

let server: RunningServer;
let admin: string;
let adminId: number;
let adminGroupId: number;

const WRONG_PASSWORD = 'نام کاربری یا رمز عبور صحیح نیست.';

type Summary = {
  id: number;
  name: string;
  mobileNo: string;
  email: string | null;
  isStaff: boolean;
  isActive: boolean;
};
type Group = { id: number; name: string; users: number[]; actions: number[] };

const get = async <T>(path: string, token: string): Promise<T> =>
  ((await fetch(server.url + path, { headers: bearer(token) }).then((r) => r.json())) as { data: T }).data;

async function userByMobile(mobileNo: string): Promise<Summary> {
  const found = await post(server, '/api/sys/searchUsers', { search: mobileNo }, bearer(admin));
  return (found.body.data as { items: Summary[] }).items.find((u) => u.mobileNo === mobileNo)!;
}

async function passwordLogin(username: string, password: string) {
  return post(server, '/api/me/loginByPassword', { username, password });
}

async function actionIds(names: string[]): Promise<number[]> {
  const actions = await get<{ items: Array<{ id: number; name: string }> }>('/api/users/getActions', admin);
  return actions.items.filter((a) => names.includes(a.name)).map((a) => a.id);
}

/** A staff user with a password in a new group granting `actions`; returns id, group id and a token. */
async function staffUser(mobileNo: string, actions: string[]) {
  const password = 'staff-password-1';
  const created = await post(server, '/api/users/saveUser', { mobileNo, isStaff: true, password }, bearer(admin));
  expect(created.status).toBe(200);
  const id = (created.body.data as { id: number }).id;
  const group = await post(server, '/api/users/saveGroup', { name: `team${id}`, title: `تیم ${id}` }, bearer(admin));
  const groupId = (group.body.data as { id: number }).id;
  await post(server, '/api/users/saveGroupActions', { id: groupId, actions: await actionIds(actions) }, bearer(admin));
  await post(server, '/api/users/saveGroupUsers', { id: groupId, users: [id] }, bearer(admin));
  const login = await passwordLogin(mobileNo, password);
  return { id, groupId, password, token: (login.body.data as { userToken: string }).userToken };
}

beforeAll(async () => {
  server = await startServer({ web: false });
  admin = await loginAdmin(server);
  adminId = (await userByMobile(ADMIN_MOBILE)).id;
  const groups = await get<{ items: Group[] }>('/api/users/getGroups', admin);
  adminGroupId = groups.items.find((g) => g.name === 'administrators')!.id;
});
afterAll(async () => server?.stop());

describe('users', () => {
  it('edits names, mobile and staff flag; a field left out keeps its value', async () => {
    const created = await post(
      server,
      '/api/users/saveUser',
      { mobileNo: '09150000001', email: 'keep@example.com', firstName: 'رضا', lastName: 'کاظمی', isStaff: false },
      bearer(admin),
    );
    const id = (created.body.data as { id: number }).id;
    const edited = await post(
      server,
      '/api/users/saveUser',
      { id, mobileNo: '+98 915 000 0002', firstName: 'رضا', lastName: 'کاظمی‌نژاد', isStaff: true },
      bearer(admin),
    );
    expect(edited.status).toBe(200);
    const user = await userByMobile('09150000002');
    expect(user).toMatchObject({
      id,
      name: 'رضا کاظمی‌نژاد',
      email: 'keep@example.com',
      isStaff: true,
      isActive: true,
    });

    const taken = await post(
      server,
      '/api/users/saveUser',
      { id, mobileNo: ADMIN_MOBILE, isStaff: true },
      bearer(admin),
    );
    expect(taken.status).toBe(409);
    expect(taken.body.msg).toBe('این شماره موبایل متعلق به کاربر دیگری است.');
    const missing = await post(
      server,
      '/api/users/saveUser',
      { id: 999999, mobileNo: '09150000003', isStaff: false },
      bearer(admin),
    );
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toBe('کاربر یافت نشد.');
  });

  it('deactivates instead of deleting: sessions end, no log-in by password or code, reactivation restores it', async () => {
    const staff = await staffUser('09150000011', ['viewTasks']);
    const customerMobile = '09150000012';
    const customer = await loginByCode(server, customerMobile);
    const customerId = (await userByMobile(customerMobile)).id;

    for (const id of [staff.id, customerId]) {
      const removed = await post(server, '/api/users/removeUser', { id }, bearer(admin));
      expect(removed.status).toBe(200);
      expect(removed.body.msg).toBe('حساب کاربر غیرفعال شد و نشست‌های او پایان یافت.');
    }
    expect((await post(server, '/api/me/fetchUserData', undefined, bearer(staff.token))).status).toBe(401);
    expect((await post(server, '/api/me/fetchUserData', undefined, bearer(customer))).status).toBe(401);

    const refused = await passwordLogin('09150000011', staff.password);
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe('حساب کاربری شما غیرفعال شده است. برای پیگیری با پشتیبانی تماس بگیرید.');
    // A wrong password still says only that it is wrong.
    expect((await passwordLogin('09150000011', 'not-the-password')).body.msg).toBe(WRONG_PASSWORD);
    await expect(loginByCode(server, customerMobile)).rejects.toThrow(/403 حساب کاربری شما غیرفعال شده است/);

    // Nothing was deleted: the row, the staff flag and the group membership are still there.
    const row = await userByMobile('09150000011');
    expect(row).toMatchObject({ isActive: false, isStaff: true });
    const groups = await get<{ items: Group[] }>('/api/users/getGroups', admin);
    expect(groups.items.find((g) => g.id === staff.groupId)!.users).toEqual([staff.id]);

    const reactivated = await post(
      server,
      '/api/users/saveUser',
      { id: staff.id, mobileNo: '09150000011', isStaff: true, isActive: true },
      bearer(admin),
    );
    expect(reactivated.status).toBe(200);
    expect((await passwordLogin('09150000011', staff.password)).status).toBe(200);

    // saveUser with isActive false deactivates too, ending sessions.
    const again = (await passwordLogin('09150000011', staff.password)).body.data as { userToken: string };
    await post(
      server,
      '/api/users/saveUser',
      { id: staff.id, mobileNo: '09150000011', isStaff: true, isActive: false },
      bearer(admin),
    );
    expect((await post(server, '/api/me/fetchUserData', undefined, bearer(again.userToken))).status).toBe(401);

    const audit = await server.app.database.db
      .selectFrom('auditLog')
      .selectAll()
      .where('action', '=', 'removeUser')
      .where('entityId', '=', String(staff.id))
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ before: { isActive: true }, after: { isActive: false } });
  });

  it('resets a password: the user logs in with the new one, the old one and the old sessions stop working', async () => {
    const staff = await staffUser('09150000021', ['viewTasks']);
    const reset = await post(
      server,
      '/api/users/changePassword',
      { id: staff.id, password: 'brand-new-secret' },
      bearer(admin),
    );
    expect(reset.status).toBe(200);
    expect(reset.body.msg).toBe('رمز عبور کاربر تغییر کرد و نشست‌های او پایان یافت.');
    expect((await post(server, '/api/me/fetchUserData', undefined, bearer(staff.token))).status).toBe(401);
    expect((await passwordLogin('09150000021', staff.password)).body.msg).toBe(WRONG_PASSWORD);
    expect((await passwordLogin('09150000021', 'brand-new-secret')).status).toBe(200);

    const short = await post(server, '/api/users/changePassword', { id: staff.id, password: 'short' }, bearer(admin));
    expect(short.status).toBe(400);
    expect(short.body.msg).toBe('رمز عبور باید حداقل ۸ کاراکتر باشد.');
  });

  it('refuses a staff user who would deactivate, demote or reset the password of themselves', async () => {
    const cases: Array<[string, object, string]> = [
      ['/api/users/removeUser', { id: adminId }, 'نمی‌توانید حساب خودتان را غیرفعال کنید.'],
      [
        '/api/users/saveUser',
        { id: adminId, mobileNo: ADMIN_MOBILE, isStaff: true, isActive: false },
        'نمی‌توانید حساب خودتان را غیرفعال کنید.',
      ],
      [
        '/api/users/saveUser',
        { id: adminId, mobileNo: ADMIN_MOBILE, isStaff: false },
        'نمی‌توانید دسترسی کارمندی خودتان را بردارید.',
      ],
      [
        '/api/users/changePassword',
        { id: adminId, password: 'another-password' },
        'رمز عبور خودتان را از «تغییر رمز عبور» در منوی کاربری عوض کنید.',
      ],
    ];
    for (const [path, body, message] of cases) {
      const res = await post(server, path, body, bearer(admin));
      expect(res.status, path).toBe(422);
      expect(res.body.msg).toBe(message);
    }
    expect((await post(server, '/api/me/fetchUserData', undefined, bearer(admin))).status).toBe(200);
  });

  it('never leaves the administrators group without an active staff member', async () => {
    // A second access manager outside the administrators group tries every way of removing the only administrator.
    const manager = await staffUser('09150000031', ['manageAccess']);
    const lastAdmin = 'دست‌کم یک مدیر فعال باید در گروه مدیران سیستم بماند؛ این تغییر آخرین مدیر را برمی‌دارد.';
    const attempts: Array<[string, object]> = [
      ['/api/users/removeUser', { id: adminId }],
      ['/api/users/saveUser', { id: adminId, mobileNo: ADMIN_MOBILE, isStaff: false }],
      ['/api/users/saveUser', { id: adminId, mobileNo: ADMIN_MOBILE, isStaff: true, isActive: false }],
      ['/api/users/saveUserGroups', { id: adminId, groups: [] }],
      ['/api/users/saveGroupUsers', { id: adminGroupId, users: [] }],
    ];
    for (const [path, body] of attempts) {
      const res = await post(server, path, body, bearer(manager.token));
      expect(res.status, path).toBe(422);
      expect(res.body.msg).toBe(lastAdmin);
    }
    // Nothing changed: the administrator still works.
    expect((await post(server, '/api/users/getUserAccess', undefined, bearer(admin))).body.data).toMatchObject({
      is_admin: true,
    });

    const removeGroup = await post(server, '/api/users/removeGroup', { id: adminGroupId }, bearer(admin));
    expect(removeGroup.status).toBe(422);
    expect(removeGroup.body.msg).toBe('گروه مدیران سیستم حذف‌شدنی نیست.');
    const rename = await post(
      server,
      '/api/users/saveGroup',
      { id: adminGroupId, name: 'bosses', title: 'مدیران' },
      bearer(admin),
    );
    expect(rename.status).toBe(422);
    expect(rename.body.msg).toBe('نام سیستمی گروه مدیران سیستم تغییرپذیر نیست.');
    const retitle = await post(
      server,
      '/api/users/saveGroup',
      { id: adminGroupId, name: 'administrators', title: 'مدیران ارشد' },
      bearer(admin),
    );
    expect(retitle.status).toBe(200);
    const withoutAccess = await post(
      server,
      '/api/users/saveGroupActions',
      { id: adminGroupId, actions: await actionIds(['viewTasks']) },
      bearer(admin),
    );
    expect(withoutAccess.status).toBe(422);
    expect(withoutAccess.body.msg).toBe(
      'گروه مدیران سیستم باید دسترسی «مدیریت کاربران، گروه‌ها و دسترسی‌ها» را داشته باشد.',
    );

    // With a second active administrator, the first may be taken out of the group by them.
    await post(server, '/api/users/saveGroupUsers', { id: adminGroupId, users: [adminId, manager.id] }, bearer(admin));
    const handedOver = await post(
      server,
      '/api/users/saveUserGroups',
      { id: adminId, groups: [] },
      bearer(manager.token),
    );
    expect(handedOver.status).toBe(200);
    await post(server, '/api/users/saveUserGroups', { id: adminId, groups: [adminGroupId] }, bearer(manager.token));
  });

  it('keeps staff notes (metadata) with bounded keys and values', async () => {
    const staff = await staffUser('09150000041', ['viewTasks']);
    const notes = { شیفت: 'عصر', داخلی: 214, کارآموز: true };
    expect(
      (await post(server, '/api/users/saveUserMetaData', { id: staff.id, metaData: notes }, bearer(admin))).status,
    ).toBe(200);
    const read = await post(server, '/api/users/getMetaData', { id: staff.id }, bearer(admin));
    expect(read.body.data).toEqual(notes);
    const emptyKey = await post(
      server,
      '/api/users/saveUserMetaData',
      { id: staff.id, metaData: { '': 'x' } },
      bearer(admin),
    );
    expect(emptyKey.status).toBe(400);
    const tooLong = await post(
      server,
      '/api/users/saveUserMetaData',
      { id: staff.id, metaData: { note: 'x'.repeat(1001) } },
      bearer(admin),
    );
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.msg).toMatch(/[آ-ی]/);
  });
});

describe('groups and actions', () => {
  it('removes a group with members: they lose its actions, the audit log keeps who they were', async () => {
    const staff = await staffUser('09150000051', ['viewCustomers']);
    const search = () => post(server, '/api/sys/searchCustomers', {}, bearer(staff.token));
    expect((await search()).status).toBe(200);
    const removed = await post(server, '/api/users/removeGroup', { id: staff.groupId }, bearer(admin));
    expect(removed.status).toBe(200);
    expect((await search()).status).toBe(403);
    const groups = await get<{ items: Group[] }>('/api/users/getGroups', admin);
    expect(groups.items.some((g) => g.id === staff.groupId)).toBe(false);
    expect((await userByMobile('09150000051')).isActive).toBe(true);

    const audit = await server.app.database.db
      .selectFrom('auditLog')
      .selectAll()
      .where('action', '=', 'removeGroup')
      .where('entityId', '=', String(staff.groupId))
      .executeTakeFirstOrThrow();
    expect(audit.before).toMatchObject({
      name: `team${staff.id}`,
      users: [staff.id],
      actions: await actionIds(['viewCustomers']),
    });

    const again = await post(server, '/api/users/removeGroup', { id: staff.groupId }, bearer(admin));
    expect(again.status).toBe(404);
    expect(again.body.msg).toBe('گروه یافت نشد.');
  });

  it('edits an action and removes one a group grants, recording the group', async () => {
    const created = await post(server, '/api/users/saveAction', { name: 'viewReports', title: 'گزارش' }, bearer(admin));
    const id = (created.body.data as { id: number }).id;
    const edited = await post(
      server,
      '/api/users/saveAction',
      { id, name: 'viewReports', title: 'مشاهده گزارش‌ها', description: 'گزارش‌های ماهانه' },
      bearer(admin),
    );
    expect(edited.status).toBe(200);
    const group = await post(server, '/api/users/saveGroup', { name: 'reporters', title: 'گزارشگران' }, bearer(admin));
    const groupId = (group.body.data as { id: number }).id;
    await post(server, '/api/users/saveGroupActions', { id: groupId, actions: [id] }, bearer(admin));

    expect((await post(server, '/api/users/removeAction', { id }, bearer(admin))).status).toBe(200);
    const groups = await get<{ items: Group[] }>('/api/users/getGroups', admin);
    expect(groups.items.find((g) => g.id === groupId)!.actions).toEqual([]);
    const audit = await server.app.database.db
      .selectFrom('auditLog')
      .selectAll()
      .where('action', '=', 'removeAction')
      .where('entityId', '=', String(id))
      .executeTakeFirstOrThrow();
    expect(audit.before).toMatchObject({ name: 'viewReports', title: 'مشاهده گزارش‌ها', groups: [groupId] });
  });

  it('answers ids outside their columns with a Persian 400, never a 500', async () => {
    const cases: Array<[string, object]> = [
      ['/api/users/removeGroup', { id: 3_000_000_000 }],
      ['/api/users/removeAction', { id: 3_000_000_000 }],
      ['/api/users/removeUser', { id: 0 }],
      ['/api/users/saveGroupActions', { id: adminGroupId, actions: [3_000_000_000] }],
      ['/api/users/saveUserGroups', { id: adminId, groups: [-1] }],
      ['/api/users/getMetaData', { id: 1e300 }],
    ];
    for (const [path, body] of cases) {
      const res = await post(server, path, body, bearer(admin));
      expect(res.status, path).toBe(400);
      expect(res.body.msg).toMatch(/[آ-ی]/);
    }
  });
});

describe('system parameters', () => {
  type Parameter = { key: string; value: number; title: string; unit: string; minimum: number; maximum: number };
  const save = (key: string, value: number) =>
    post(server, '/api/sys/saveSystemParameter', { key, value }, bearer(admin));

  it('come with Persian titles, units and bounds from their definitions', async () => {
    const list = await post(server, '/api/sys/fetchSystemParameters', undefined, bearer(admin));
    const items = (list.body.data as { items: Parameter[] }).items;
    expect(items.find((p) => p.key === 'fixedFee')).toMatchObject({
      title: 'کارمزد ثابت',
      unit: 'rial',
      value: 500000,
    });
    expect(items.find((p) => p.key === 'minAmount')).toMatchObject({
      title: 'کمترین مبلغ ارزی',
      unit: 'currencyCents',
    });
    expect(items.find((p) => p.key === 'feePercent')).toMatchObject({ unit: 'percent', minimum: 0, maximum: 100 });
    expect(items.every((p) => /[آ-ی]/.test(p.title))).toBe(true);
  });

  it('refuses values outside their definition with a Persian 422', async () => {
    const cases: Array<[string, number, string]> = [
      ['feePercent', 150, 'مقدار «کارمزد خدمات» باید از ۰ درصد تا ۱۰۰ درصد باشد.'],
      ['feePercent', 2.555, 'مقدار «کارمزد خدمات» حداکثر دو رقم اعشار می‌پذیرد.'],
      ['fixedFee', 1000.5, 'مقدار «کارمزد ثابت» باید عدد صحیح باشد.'],
      ['quoteLifetimeSeconds', 5, 'مقدار «اعتبار قیمت اعلام‌شده» باید از ۳۰ ثانیه تا ۸۶٬۴۰۰ ثانیه باشد.'],
      ['minAmount', 2_000_000, '«کمترین مبلغ ارزی» نباید از «بیشترین مبلغ ارزی» بیشتر باشد.'],
      ['maxAmount', 50, '«کمترین مبلغ ارزی» نباید از «بیشترین مبلغ ارزی» بیشتر باشد.'],
    ];
    for (const [key, value, message] of cases) {
      const res = await save(key, value);
      expect(res.status, `${key}=${value}`).toBe(422);
      expect(res.body.msg).toBe(message);
    }
    const unknown = await save('noSuchParameter', 1);
    expect(unknown.status).toBe(404);
    expect(unknown.body.msg).toBe('پارامتر یافت نشد.');
  });

  it('saves a value within its definition and records old and new in the audit log', async () => {
    expect((await save('feePercent', 2.5)).status).toBe(200);
    expect((await save('fixedFee', 750_000)).status).toBe(200);
    const audit = await server.app.database.db
      .selectFrom('auditLog')
      .selectAll()
      .where('action', '=', 'saveSystemParameter')
      .where('entityId', '=', 'fixedFee')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ before: 500000, after: 750000 });
  });
});
