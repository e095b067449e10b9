/**
 * One mobile number is one account, whatever its spelling (issue 15, point 3): log-in, the per-number code
 * limit, staff user creation and search all go through the canonical 09xxxxxxxxx; ten first log-ins at once
 * make one account; migration 005 rewrites stored spellings and reports duplicates.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/server/db/database';
import { migrate } from '../../src/server/db/migrate';
import { hashCode } from '../../src/server/modules/identity/mobile-codes';
import { ADMIN_PASSWORD, bearer, loginAdmin, post, type RunningServer, startServer } from '../support/server';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ web: false, env: { SMS_LIMIT_PER_MOBILE: '5' } });
});
afterAll(async () => server?.stop());

const TOO_MANY = 'تعداد درخواست‌ها بیش از حد مجاز است. لطفا کمی بعد دوباره تلاش کنید.';

async function userOf(token: string): Promise<{ id: number; mobileNo: string }> {
  const me = await post(server, '/api/me/fetchUserData', undefined, bearer(token));
  expect(me.status).toBe(200);
  return me.body.data as { id: number; mobileNo: string };
}

/** Asks for a code with one spelling and logs in with another. */
async function logInWithSpellings(canonical: string, sendAs: string, loginAs: string): Promise<string> {
  const sent = await post(server, '/api/public/sendMobileValidationCode', { mobileNo: sendAs });
  expect(sent.status, sent.body.msg).toBe(200);
  const validationCode = server.lastSmsCode(canonical);
  expect(validationCode).toMatch(/^\d{5}$/);
  const login = await post(server, '/api/me/loginByMobileValidationCode', { mobileNo: loginAs, validationCode });
  expect(login.status, login.body.msg).toBe(200);
  return (login.body.data as { userToken: string }).userToken;
}

describe('one number, one account', () => {
  it('reaches one account from spellings with spaces, dashes, +98, 0098, Persian and Arabic digits', async () => {
    const canonical = '09121234567';
    const pairs: Array<[string, string]> = [
      ['09121234567', ' 09121234567'],
      ['0912-123-4567', '+98 912 123 4567'],
      ['0098 912 123 4567', '۰۹۱۲۱۲۳۴۵۶۷'],
      ['٠٩١٢١٢٣٤٥٦٧', '0912\u200C123\u00A04567'],
      ['(0912) 123 4567', '9121234567'],
    ];
    const users = [];
    for (const [sendAs, loginAs] of pairs)
      users.push(await userOf(await logInWithSpellings(canonical, sendAs, loginAs)));
    expect(new Set(users.map((u) => u.id)).size).toBe(1);
    expect(users[0]!.mobileNo).toBe(canonical);
    // Every SMS went to a canonical number.
    expect(server.logs.filter((l) => l.msg === 'sms').every((l) => /^09\d{9}$/.test(String(l.mobileNo)))).toBe(true);
  });

  it('logs in by password with another spelling of the number', async () => {
    for (const username of ['+98 912 000 0000', '۰۹۱۲-۰۰۰-۰۰۰۰', ' 09120000000']) {
      const login = await post(server, '/api/me/loginByPassword', { username, password: ADMIN_PASSWORD });
      expect(login.status, username).toBe(200);
    }
  });

  it('counts every spelling against the per-number limit: the 6th of 7 spellings is refused with 429', async () => {
    const spellings = [
      '09131112233',
      ' 09131112233',
      '0913-111-2233',
      '+989131112233',
      '00989131112233',
      '۰۹۱۳۱۱۱۲۲۳۳',
      '٠٩١٣١١١٢٢٣٣',
    ];
    const statuses: number[] = [];
    for (const mobileNo of spellings) {
      const res = await post(server, '/api/public/sendMobileValidationCode', { mobileNo });
      statuses.push(res.status);
      if (res.status === 429) expect(res.body.msg).toBe(TOO_MANY);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(server.logs.filter((l) => l.msg === 'sms' && l.mobileNo === '09131112233')).toHaveLength(1);
  });

  it('refuses text that is no mobile number in any spelling, in Persian', async () => {
    for (const mobileNo of ['0912 123 456', '+9809121234567', '0912.123.4567', '۰۹۱۲'.repeat(20)]) {
      const res = await post(server, '/api/public/sendMobileValidationCode', { mobileNo });
      expect(res.status, mobileNo).toBe(400);
      expect(res.body.msg).toBe('شماره موبایل صحیح نیست.');
    }
  });

  it('makes one account from ten first log-ins at once with ten spellings, without a unique violation', async () => {
    const canonical = '09141234567';
    // The API keeps one active code per number, so ten log-ins that all pass the code check at once need ten
    // codes: they are written here, hashed as the code module does, and each request consumes one.
    const code = '24680';
    await server.app.database.db
      .insertInto('mobileValidationCodes')
      .values(
        Array.from({ length: 10 }, () => ({
          mobileNo: canonical,
          codeHash: hashCode(canonical, code),
          expiresAt: new Date(Date.now() + 600_000),
        })),
      )
      .execute();
    const spellings = [
      '09141234567',
      ' 09141234567',
      '0914 123 4567',
      '0914-123-4567',
      '+98 914 123 4567',
      '0098 914 123 4567',
      '989141234567',
      '9141234567',
      '۰۹۱۴۱۲۳۴۵۶۷',
      '٠٩١٤١٢٣٤٥٦٧',
    ];
    const results = await Promise.all(
      spellings.map((mobileNo) =>
        post(server, '/api/me/loginByMobileValidationCode', { mobileNo, validationCode: code }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    const ids = await Promise.all(results.map((r) => userOf((r.body.data as { userToken: string }).userToken)));
    expect(new Set(ids.map((u) => u.id)).size).toBe(1);
    const rows = await server.app.database.db
      .selectFrom('users')
      .select('id')
      .where('mobileNo', 'like', '%9141234567%')
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('lets staff create a user with any spelling, refuses another spelling of a taken number, and finds both', async () => {
    const admin = await loginAdmin(server);
    const created = await post(
      server,
      '/api/users/saveUser',
      { mobileNo: '+98 (935) 000-1111', isStaff: true, firstName: 'کارمند' },
      bearer(admin),
    );
    expect(created.status, created.body.msg).toBe(200);
    const again = await post(server, '/api/users/saveUser', { mobileNo: '۰۹۳۵۰۰۰۱۱۱۱', isStaff: false }, bearer(admin));
    expect(again.status).toBe(409);
    expect(again.body.msg).toMatch(/[\u0600-\u06FF]/);
    for (const search of ['0935 000 1111', '۰۹۳۵۰۰۰', '+989350001111']) {
      const found = await post(server, '/api/sys/searchUsers', { search }, bearer(admin));
      const items = (found.body.data as { items: Array<{ mobileNo: string }> }).items;
      expect(
        items.map((u) => u.mobileNo),
        search,
      ).toEqual(['09350001111']);
    }
  });
});

describe('migration 005 on a database with duplicate spellings', () => {
  const migrationsDir = path.resolve(import.meta.dirname, '../../src/server/db/migrations');
  let handle: DatabaseHandle;
  let dropDatabase: (() => Promise<void>) | null = null;

  beforeAll(async () => {
    // PGlite in memory, and PostgreSQL too when the suite runs against it (a database of this test's own).
    let databaseUrl = 'memory://';
    const testUrl = process.env.TEST_DATABASE_URL;
    if (testUrl?.startsWith('postgres')) {
      const name = `mig005_${process.pid}`;
      const admin = new pg.Client({ connectionString: testUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${name}`);
      await admin.query(`create database ${name}`);
      await admin.end();
      const url = new URL(testUrl);
      url.pathname = `/${name}`;
      databaseUrl = url.toString();
      dropDatabase = async () => {
        const client = new pg.Client({ connectionString: testUrl });
        await client.connect();
        await client.query(`drop database if exists ${name}`);
        await client.end();
      };
    }
    handle = await openDatabase({ databaseUrl, dataDir: '' });
    const { db } = handle;
    await sql`create table schema_migrations (name text primary key, applied_at timestamptz not null default now())`.execute(
      db,
    );
    // The schema before migration 005, as the old runner left it (its bookkeeping included): migrate() adopts it.
    for (const file of readdirSync(migrationsDir)
      .filter((f) => f.endsWith('.sql') && f < '005')
      .sort()) {
      await handle.runScript(db, readFileSync(path.join(migrationsDir, file), 'utf8'));
      await sql`insert into schema_migrations (name) values (${file})`.execute(db);
    }
  });
  afterAll(async () => {
    await handle?.close();
    await dropDatabase?.();
  });

  it('rewrites spellings, keeps one account per number, and reports the rest', async () => {
    const { db } = handle;
    const stored = [
      ' 09121234567', // older, but not the canonical spelling
      '09121234567', // keeps the number
      '+98 912 123 4567',
      '۰۹۳۵۱۱۱۲۲۲۳', // alone: rewritten
      '0912 777 8888', // oldest of two spellings without a canonical one: keeps it
      '0098-912-777-8888',
      'not a number',
      '0912\u200C555\u00A06666',
      '09130000000', // already canonical: untouched
    ];
    const ids: number[] = [];
    for (const [i, mobileNo] of stored.entries()) {
      const row = await db
        .insertInto('users')
        .values({ uid: `u${i}`, mobileNo, createdAt: new Date(Date.UTC(2024, 0, 1 + i)) })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    // Nothing the old runner applied runs again: the first migration applied now is 005.
    expect((await migrate(handle))[0]).toBe('005_mobile_canonical');

    const users = await db.selectFrom('users').select(['id', 'mobileNo']).orderBy('id').execute();
    expect(users.map((u) => u.mobileNo)).toEqual([
      null,
      '09121234567',
      null,
      '09351112223',
      '09127778888',
      null,
      null,
      '09125556666',
      '09130000000',
    ]);
    const changes = await db
      .selectFrom('mobileNoChanges')
      .select(['userId', 'originalMobileNo', 'canonicalMobileNo', 'outcome', 'keptByUserId'])
      .orderBy('userId')
      .execute();
    expect(changes).toEqual([
      {
        userId: ids[0],
        originalMobileNo: ' 09121234567',
        canonicalMobileNo: '09121234567',
        outcome: 'duplicate',
        keptByUserId: ids[1],
      },
      {
        userId: ids[2],
        originalMobileNo: '+98 912 123 4567',
        canonicalMobileNo: '09121234567',
        outcome: 'duplicate',
        keptByUserId: ids[1],
      },
      {
        userId: ids[3],
        originalMobileNo: '۰۹۳۵۱۱۱۲۲۲۳',
        canonicalMobileNo: '09351112223',
        outcome: 'canonicalised',
        keptByUserId: null,
      },
      {
        userId: ids[4],
        originalMobileNo: '0912 777 8888',
        canonicalMobileNo: '09127778888',
        outcome: 'canonicalised',
        keptByUserId: null,
      },
      {
        userId: ids[5],
        originalMobileNo: '0098-912-777-8888',
        canonicalMobileNo: '09127778888',
        outcome: 'duplicate',
        keptByUserId: ids[4],
      },
      {
        userId: ids[6],
        originalMobileNo: 'not a number',
        canonicalMobileNo: null,
        outcome: 'invalid',
        keptByUserId: null,
      },
      {
        userId: ids[7],
        originalMobileNo: '0912\u200C555\u00A06666',
        canonicalMobileNo: '09125556666',
        outcome: 'canonicalised',
        keptByUserId: null,
      },
    ]);

    // From now on the column holds canonical numbers only, and each at most once.
    const bad = await db
      .insertInto('users')
      .values({ uid: 'bad', mobileNo: ' 09129999999' })
      .execute()
      .catch((e: { code?: string }) => e.code);
    expect(bad).toBe('23514');
    const twice = await db
      .insertInto('users')
      .values({ uid: 'twice', mobileNo: '09121234567' })
      .execute()
      .catch((e: { code?: string }) => e.code);
    expect(twice).toBe('23505');
  });
});
