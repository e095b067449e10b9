/**
 * Credentials at rest (issue 12, decision 021) on a real server and database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL): the target page's password a customer types is sealed with AES-256-GCM before it is stored
 * (no table holds it in plain text, nor a plain hash of a body that carries it), never comes back to the customer,
 * opens only for staff with the fulfilment action (each reveal audited), and a value sealed under another key,
 * altered in the database or moved to another request is refused with a Persian 422 that says nothing of the
 * ciphertext. Plain values left from before are sealed at start, values under an old key re-sealed under the new
 * one; without FIELD_ENCRYPTION_KEY the key lives in DATA_DIR/field-encryption.key, owner-only, said once in the log.
 */
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config';
import type { DB } from '../../src/server/db/database';
import { FieldCipher, keyFromDataDir, purchaseFieldContext } from '../../src/server/lib/field-cipher';
import { sealStoredSecrets } from '../../src/server/modules/requests/sealed-fields';
import { moneyHelpers, type Customer } from '../support/money';
import { bearer, post, type RunningServer, startServer } from '../support/server';

const PASSWORD = 'Pw-7f3a9c-رمز-ویژه';
let server: RunningServer;
let db: DB;
let money: ReturnType<typeof moneyHelpers>;
let staff: { token: string; userId: number };
let who: Customer;
const quiet = pino({ level: 'silent' });

beforeAll(async () => {
  server = await startServer({ web: false });
  db = server.app.database.db;
  money = moneyHelpers(server);
  await money.ready();
  staff = await money.staffWithActions(['manageCurrencyPayments', 'viewTasks']);
  who = await money.customer();
}, 180_000); // a fresh database migrates: seconds, a minute on a loaded two-core machine
afterAll(async () => server?.stop());

/** Submits a TOEFL request whose target page password is `password`; returns its id. */
async function submitWith(customer: Customer, password: string, key = money.newKey()): Promise<number> {
  const form = { currency: money.usd.id, amount: 10, requestedPaymentMethodGroup: await cardGroup() };
  const quote = await post(server, '/api/me/desks/toeflGeneralCpr/priceInquiry', form, bearer(customer.token));
  expect(quote.status, quote.body.msg).toBe(200);
  const body = {
    ...form,
    quoteId: (quote.body.data as { quoteId: string }).quoteId,
    targetPageAddress: 'https://www.ets.org/toefl/pay',
    targetPageUsername: 'student1',
    targetPagePassword: password,
  };
  const res = await post(server, '/api/me/desks/toeflGeneralCpr/requests', body, {
    ...bearer(customer.token),
    'idempotency-key': key,
  });
  expect(res.status, res.body.msg).toBe(200);
  return (res.body.data as { id: number }).id;
}

let card: number | undefined;
async function cardGroup(): Promise<number> {
  if (card === undefined) {
    const groups = (await post(server, '/api/public/searchPaymentMethodGroups')).body.data as {
      items: Array<{ id: number; isCash: boolean }>;
    };
    card = groups.items.find((g) => !g.isCash)!.id;
  }
  return card;
}

/** Every row of every table of the database, as text. */
async function wholeDatabase(): Promise<string> {
  const tables = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db);
  const parts: string[] = [];
  for (const { name } of tables.rows) {
    const rows = await sql<{ row: string }>`select t::text as row from ${sql.table(name)} t`.execute(db);
    parts.push(...rows.rows.map((r) => `${name}: ${r.row}`));
  }
  return parts.join('\n');
}

const storedPassword = async (purchaseId: number) => {
  const row = await db.selectFrom('purchases').select('fields').where('id', '=', purchaseId).executeTakeFirstOrThrow();
  return (row.fields as Record<string, unknown>).targetPagePassword;
};
const setStoredPassword = (purchaseId: number, value: unknown) =>
  db
    .updateTable('purchases')
    .set({ fields: sql`fields || ${JSON.stringify({ targetPagePassword: value })}::jsonb` })
    .where('id', '=', purchaseId)
    .execute();
const reveal = (purchase: number, token = staff.token) =>
  post(server, '/api/sys/revealPurchaseSecret', { purchase }, bearer(token));
const serverCipher = () => new FieldCipher(keyFromDataDir(server.dataDir).key);

describe('sealed at rest', () => {
  it('keeps no plain text of the password in any table, nor in what the customer reads back', async () => {
    const id = await submitWith(who, PASSWORD);
    const stored = await storedPassword(id);
    expect(stored).toMatch(/^enc:v1:[\w-]{10}:[\w-]{16}:[\w-]+:[\w-]{22}$/);
    const everything = await wholeDatabase();
    expect(everything).toContain('student1'); // the dump does reach the request
    expect(everything).not.toContain(PASSWORD);
    expect(everything).not.toContain('رمز-ویژه');
    for (const [path, body] of [
      ['/api/me/searchPurchases', {}],
      ['/api/me/fetchPurchase', { purchase: id }],
    ] as const) {
      const text = JSON.stringify((await post(server, path, body, bearer(who.token))).body);
      expect(text, path).not.toContain(PASSWORD);
      expect(text, path).not.toContain('enc:v1');
      expect(text, path).not.toContain('targetPagePassword');
    }
    // Two requests with the same password store different ciphertexts (a fresh IV each).
    const twin = await submitWith(who, PASSWORD);
    expect(await storedPassword(twin)).not.toBe(stored);
  });

  it('replays an idempotent submission by its keyed hash, and refuses the same key with another password', async () => {
    const key = money.newKey();
    const id = await submitWith(who, 'first-password', key);
    const row = await db
      .selectFrom('idempotencyKeys')
      .select('requestHash')
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    expect(row.requestHash).toMatch(/^[0-9a-f]{64}$/);
    const form = { currency: money.usd.id, amount: 10, requestedPaymentMethodGroup: await cardGroup() };
    const quote = await post(server, '/api/me/desks/toeflGeneralCpr/priceInquiry', form, bearer(who.token));
    const other = await post(
      server,
      '/api/me/desks/toeflGeneralCpr/requests',
      {
        ...form,
        quoteId: (quote.body.data as { quoteId: string }).quoteId,
        targetPageAddress: 'https://www.ets.org/toefl/pay',
        targetPageUsername: 'student1',
        targetPagePassword: 'second-password',
      },
      { ...bearer(who.token), 'idempotency-key': key },
    );
    expect(other.status).toBe(422);
    expect(await storedPassword(id)).toMatch(/^enc:v1:/);
  });
});

describe('reveal', () => {
  it('opens the password for staff with the fulfilment action, audited each time; refuses others', async () => {
    const purchase = await money.paidRequest(who, 10);
    for (let i = 0; i < 2; i++) {
      const res = await reveal(purchase.id);
      expect(res.status, res.body.msg).toBe(200);
      expect(res.body.data).toEqual({ fields: { targetPagePassword: 'secret' } });
    }
    const entries = await db
      .selectFrom('auditLog')
      .select(['actorUserId', 'after'])
      .where('action', '=', 'revealPurchaseSecret')
      .where('entityId', '=', String(purchase.id))
      .execute();
    expect(entries).toEqual([
      { actorUserId: staff.userId, after: { fields: ['targetPagePassword'] } },
      { actorUserId: staff.userId, after: { fields: ['targetPagePassword'] } },
    ]);
    const viewer = await money.staffWithActions(['viewTasks', 'viewRequests']);
    expect((await reveal(purchase.id, viewer.token)).status).toBe(403);
    expect((await reveal(purchase.id, who.token)).status).toBe(403);
  });

  it('refuses a tampered value, one under another key and one moved from another request: 422, no details', async () => {
    const a = await submitWith(who, PASSWORD);
    const sealed = String(await storedPassword(a));
    const other = await money.customer();
    const b = await submitWith(other, 'password-of-b');
    const stranger = new FieldCipher(randomBytes(32));
    const cases: Array<[string, number, string, string]> = [
      ['tampered', a, sealed.slice(0, -30) + (sealed.at(-30) === 'A' ? 'B' : 'A') + sealed.slice(-29), 'tampered'],
      ['another key', a, stranger.seal(PASSWORD, purchaseFieldContext(who.userId, 'targetPagePassword')), 'unknownKey'],
      ['moved', b, sealed, 'tampered'],
      ['plain text', a, PASSWORD, 'malformed'],
      ['cut short', a, sealed.split(':').slice(0, 4).join(':'), 'malformed'],
    ];
    for (const [label, purchase, value, reason] of cases) {
      await setStoredPassword(purchase, value);
      const before = server.logs.length;
      const res = await reveal(purchase);
      expect(res.status, label).toBe(422);
      expect(res.body.result).toBe(false);
      expect(res.body.msg, label).toMatch(/رمز عبور این درخواست باز نشد/);
      expect(JSON.stringify(res.body), label).not.toMatch(/enc:v1|Pw-7f3a|password-of-b|stack|Error/);
      const logged = server.logs.slice(before);
      expect(logged.some((l) => l.msg === 'a sealed request credential did not open' && l.reason === reason)).toBe(
        true,
      );
      expect(JSON.stringify(logged), label).not.toMatch(/enc:v1|Pw-7f3a|password-of-b/);
    }
    // The failed reveals are not audited as reveals; the server still answers.
    const audited = await db
      .selectFrom('auditLog')
      .select('id')
      .where('action', '=', 'revealPurchaseSecret')
      .where('entityId', 'in', [String(a), String(b)])
      .execute();
    expect(audited).toEqual([]);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    await setStoredPassword(a, sealed);
    expect((await reveal(a)).body.data).toEqual({ fields: { targetPagePassword: PASSWORD } });
  });
});

describe('sealing stored values at start', () => {
  it('seals plain values left from before, re-seals values under an old key, and leaves unknown ones counted', async () => {
    const plain = await submitWith(who, 'x');
    await setStoredPassword(plain, 'legacy-plain-password');
    const current = serverCipher();
    expect(await sealStoredSecrets(db, current, new Set(['targetPagePassword']), quiet)).toMatchObject({
      sealed: 1,
      resealed: 0,
    });
    expect(await storedPassword(plain)).toMatch(/^enc:v1:/);
    expect((await reveal(plain)).body.data).toEqual({ fields: { targetPagePassword: 'legacy-plain-password' } });
    // Nothing left to do: a second run changes nothing.
    expect(await sealStoredSecrets(db, current, new Set(['targetPagePassword']), quiet)).toEqual({
      sealed: 0,
      resealed: 0,
      unreadable: 0,
    });

    // Rotation: a new key with the old one among the previous keys re-seals everything under the new key.
    const oldKey = keyFromDataDir(server.dataDir).key;
    const newKey = randomBytes(32);
    const rotated = new FieldCipher(newKey, [oldKey]);
    const counts = await sealStoredSecrets(db, rotated, new Set(['targetPagePassword']), quiet);
    // (A value moved to another request by the test above does not open anywhere: counted unreadable, kept.)
    expect(counts.resealed).toBeGreaterThan(0);
    expect(counts.sealed).toBe(0);
    expect(rotated.isCurrent(await storedPassword(plain))).toBe(true);
    // The running server holds only the old key: it refuses (422), it does not fail.
    expect((await reveal(plain)).status).toBe(422);
    // A server that holds neither key counts the values it cannot re-seal and changes nothing.
    const logs: string[] = [];
    const lost = await sealStoredSecrets(
      db,
      new FieldCipher(randomBytes(32)),
      new Set(['targetPagePassword']),
      pino({ level: 'info' }, { write: (line: string) => logs.push(line) }),
    );
    expect(lost.unreadable).toBe(counts.resealed + counts.unreadable);
    expect(logs.join('')).toContain('"unreadable"');
    expect(logs.join('')).not.toContain('enc:v1');
    // And back: the old key current, the new one previous.
    await sealStoredSecrets(db, new FieldCipher(oldKey, [newKey]), new Set(['targetPagePassword']), quiet);
    expect((await reveal(plain)).body.data).toEqual({ fields: { targetPagePassword: 'legacy-plain-password' } });
  });
});

describe('the key', () => {
  it('is created under DATA_DIR, owner-only, said once in the log without the key', async () => {
    const file = path.join(server.dataDir, 'field-encryption.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const said = server.logs.filter((l) => String(l.msg).includes('FIELD_ENCRYPTION_KEY is not set'));
    expect(said).toHaveLength(1);
    expect(said[0]!.file).toBe(file);
    const hex = keyFromDataDir(server.dataDir).key.toString('hex');
    expect(JSON.stringify(server.logs)).not.toContain(hex);
  });

  it('comes from FIELD_ENCRYPTION_KEY (hex or base64) when set; a malformed one stops the start without echoing it', () => {
    const key = randomBytes(32);
    expect(loadConfig({ FIELD_ENCRYPTION_KEY: key.toString('hex') }).fieldKeys.current).toEqual(key);
    expect(loadConfig({ FIELD_ENCRYPTION_KEY: key.toString('base64') }).fieldKeys.current).toEqual(key);
    expect(
      loadConfig({ FIELD_ENCRYPTION_OLD_KEYS: `${key.toString('hex')}, ${key.toString('base64url')}` }).fieldKeys
        .previous,
    ).toEqual([key, key]);
    expect(loadConfig({}).fieldKeys).toEqual({ current: null, previous: [] });
    const short = 'abcdef0123456789';
    expect(() => loadConfig({ FIELD_ENCRYPTION_KEY: short })).toThrow(ConfigError);
    expect(() => loadConfig({ FIELD_ENCRYPTION_KEY: short })).toThrow(/^FIELD_ENCRYPTION_KEY must be a 32-byte key/);
    try {
      loadConfig({ FIELD_ENCRYPTION_OLD_KEYS: short });
    } catch (error) {
      expect((error as Error).message).not.toContain(short);
    }
  });

  it('with FIELD_ENCRYPTION_KEY set, writes no key file and seals under that key', async () => {
    await server.stop();
    const key = randomBytes(32);
    server = await startServer({ web: false, env: { FIELD_ENCRYPTION_KEY: key.toString('hex') } });
    db = server.app.database.db;
    money = moneyHelpers(server);
    await money.ready();
    card = undefined;
    who = await money.customer();
    const id = await submitWith(who, PASSWORD);
    const stored = String(await storedPassword(id));
    expect(new FieldCipher(key).open(stored, purchaseFieldContext(who.userId, 'targetPagePassword'))).toBe(PASSWORD);
    expect(() => statSync(path.join(server.dataDir, 'field-encryption.key'))).toThrow();
    expect(server.logs.some((l) => String(l.msg).includes('FIELD_ENCRYPTION_KEY is not set'))).toBe(false);
  }, 180_000);
});
