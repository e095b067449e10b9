/**
 * Crash safety: a stream of money operations (requests submitted and paid from the wallet or through the sandbox
 * bank, deposits recorded by staff, paid requests completed or failed by staff) runs against the real server in a
 * child process while that process is killed with SIGKILL at random moments and started again on the same data:
 * the embedded database in a data folder, and PostgreSQL when TEST_DATABASE_URL is set. Afterwards every operation
 * acknowledged to its client (200) is present, replays of acknowledged operations give the first result, nothing
 * unacknowledged is half-done (a paid request holds its whole price reserved and has its task; a decided or unpaid
 * one holds nothing), and the ledger invariants hold.
 *
 * Every random choice (when to kill, what each customer and the staff member do next, whether a client without an
 * answer retries or gives up, amounts) comes from CRASH_SEED, printed before the run (default: a fresh seed each
 * run); each actor draws from a source of its own, so its choices do not depend on how the actors interleave.
 * Replaying a seed repeats the kill schedule and every actor's choices; where the kills land in the operations
 * still depends on timing. CRASH_KILLS sets the number of kills per database (default 5; `npm run test:deep` 20).
 * CRASH_TRACE names a file to which every call and restart is written, for finding where a run spent its time.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/database';
import { LOCK_NAME, STALE_SECONDS } from '../../src/server/lib/data-dir-lock';
import { checkInvariants } from '../../src/server/modules/ledger/invariants';
import { purchaseReservation } from '../../src/server/modules/ledger/service';
import { adminQuery } from '../support/postgres-admin';
import { copyOfTemplate, restoreMigratedImage, templateInfo } from '../support/template-database';
import { type Customer, moneyHelpers, type PayResult, type Purchase } from '../support/money';
import { skipEmbeddedCases } from '../support/stages';
import { announceSeed, type Choices, envInteger, envSeed, replayable, seededChoices } from '../support/seeded';
import { ADMIN_MOBILE, ADMIN_PASSWORD, bearer, type RunningServer } from '../support/server';
import { isLoginCodeSms, loginCodeIn } from '../support/sms-code';

const root = path.resolve(import.meta.dirname, '../..');
const KILLS = envInteger('CRASH_KILLS', 5, 1);
const SEED = envSeed('CRASH_SEED');
const REPLAY = announceSeed('crash-safety', { CRASH_SEED: SEED, CRASH_KILLS: KILLS });
/**
 * How long the server runs before each kill, and how long it stays down, in ms. A kill cuts off three or four calls
 * whether it comes after half a second or three (each run prints how many), but the time up is when operations get
 * acknowledged: at 0.5–1.5 s, on a machine busy with other test files, a run acknowledged as few as 2 decisions and
 * 5 bank payments where every kind must appear, for a saving of 6 s of the minute a database takes.
 */
const UP_MS = { min: 1_000, max: 3_500 };
const DOWN_MS = { min: 0, max: 500 };
/**
 * A kill and its restart take 8 s on PGlite, 35–45 s on a machine busy with browsers and other test files (at a load
 * of 15 the whole PGlite case took 280–300 s+): the limit only stops a hang.
 */
const TIMEOUT_MS = Math.max(600_000, KILLS * 120_000);
const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const trace = (line: string) =>
  process.env.CRASH_TRACE && appendFileSync(process.env.CRASH_TRACE, `${new Date().toISOString()} ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A port free now, kept for every generation of the server: gateway callback URLs name it. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** The server in a child process, started again after each kill on the same DATA_DIR and database. */
class Supervised {
  private child: ChildProcess | null = null;
  /** Every stdout line of every generation (the SMS codes of the `log` driver are read from it). */
  private readonly lines: string[] = [];
  private stderr = '';
  generations = 0;

  constructor(
    private readonly port: number,
    private readonly env: Record<string, string>,
    private readonly dataDir: string,
  ) {}

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts a generation and resolves once it listens; a lock left by a killed one is made stale first. */
  async start(): Promise<void> {
    if (!this.env.DATABASE_URL) this.ageLeftLock();
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/start.ts'], {
      cwd: root,
      env: { ...process.env, ...this.env, PORT: String(this.port) },
    });
    this.child = child;
    this.generations++;
    let pending = '';
    const listening = new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        pending += String(chunk);
        let newline = pending.indexOf('\n');
        while (newline >= 0) {
          const line = pending.slice(0, newline);
          pending = pending.slice(newline + 1);
          this.lines.push(line);
          if (line.includes('"msg":"listening on')) resolve();
          newline = pending.indexOf('\n');
        }
      });
      child.stderr!.on('data', (chunk: Buffer) => {
        this.stderr += String(chunk);
      });
      child.once('exit', (code, signal) =>
        reject(new Error(`server exited before listening (${code ?? signal}): ${this.stderr.slice(-2000)}`)),
      );
    });
    await listening;
    trace(`generation ${this.generations} listening`);
  }

  /**
   * A killed generation leaves its lock behind, and proper-lockfile takes over a lock whose time stamp is older than
   * STALE_SECONDS. Rather than wait that out (10 s a kill), the lock's time stamp is set back by as much: the next
   * generation still meets a lock a killed process left and must take it over by itself.
   */
  private ageLeftLock(): void {
    const lock = path.join(this.dataDir, LOCK_NAME);
    if (!existsSync(lock)) return;
    expect(this.child?.signalCode, 'only a killed generation leaves its lock').toBe('SIGKILL');
    const stale = new Date(Date.now() - (STALE_SECONDS + 1) * 1000);
    utimesSync(lock, stale, stale);
    trace('lock left by the killed generation made stale');
  }

  async kill(): Promise<void> {
    const child = this.child!;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    trace('killed');
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }

  lastSmsCode(mobileNo: string): string | null {
    for (let i = this.lines.length - 1; i >= 0; i--) {
      const line = this.lines[i]!;
      if (!line.includes('"msg":"sms"') || !line.includes(mobileNo)) continue;
      const parsed = JSON.parse(line) as { mobileNo?: string; text?: string };
      if (parsed.mobileNo === mobileNo && isLoginCodeSms(parsed.text)) return loginCodeIn(parsed.text);
    }
    return null;
  }

  /** Server errors the generations logged (a 5xx is a bug even mid-crash). */
  errors(): string[] {
    return this.lines.filter((l) => l.includes('"level":50') || l.includes('"statusCode":5'));
  }
}

/** A call that failed to get any answer: the process died under it, or was down. */
class NoAnswer extends Error {}

interface Answer {
  status: number;
  body: { result: boolean; msg: string; data: unknown } & Record<string, unknown>;
}

interface Acknowledged {
  kind: 'submit' | 'pay' | 'bank' | 'deposit' | 'done' | 'failed';
  who: Customer;
  path: string;
  body: Record<string, unknown>;
  key?: string;
  data: unknown;
}

async function runOnce(database: { env: Record<string, string>; describe: string }) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'arzpay-crash-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const server = new Supervised(
    await freePort(),
    {
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      REDIS_URL: '',
      WEB_DIR: '/nonexistent',
      LOG_LEVEL: 'info',
      ADMIN_USERNAME: ADMIN_MOBILE,
      ADMIN_PASSWORD,
      SMS_LIMIT_PER_IP: '100000',
      ...database.env,
    },
    dataDir,
  );
  cleanups.push(() => server.stop().catch(() => undefined));
  // The first generation starts on a migrated database (the stage's image here, a copy of its template on
  // PostgreSQL), as every later one does: migrating from nothing (initdb in WASM and every migration, tens of seconds
  // on a busy machine) is startup.test.ts's subject, not this file's.
  if (!database.env.DATABASE_URL) await restoreMigratedImage(dataDir);
  // One source of choices per actor: the killer, the staff member, each customer.
  const [killer, staffChoices, ...customerChoices] = seededChoices(SEED, 5) as [Choices, Choices, ...Choices[]];
  /** Calls sent and not yet answered: how many operations a kill cuts off. */
  let inFlight = 0;
  await server.start();

  // The helpers only speak HTTP here: the server's database belongs to the child process.
  const asServer = server as unknown as RunningServer;
  const money = moneyHelpers(asServer);
  await money.ready();
  const customers = [await money.customer(), await money.customer(), await money.customer()];
  const staff = await money.staffWithActions(['manageCurrencyPayments', 'manageCollections', 'viewTasks']);
  const accounts = await call('/api/sys/searchInternalBankAccounts', {}, bearer(staff.token));
  const bankAccount = (accounts.body.data as { items: Array<{ id: number; isActive: boolean }> }).items.find(
    (a) => a.isActive,
  )!.id;
  const mobileOf = new Map<number, string>();
  for (const who of customers) {
    const me = await call('/api/me/fetchUserData', undefined, bearer(who.token));
    mobileOf.set(who.userId, (me.body.data as { mobileNo: string }).mobileNo);
  }

  /** POSTs JSON; a dropped or refused connection is NoAnswer. */
  async function call(urlPath: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    trace(`call ${urlPath}`);
    let res: Response;
    inFlight++;
    try {
      res = await fetch(server.url + urlPath, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(20_000),
      });
      const answer = { status: res.status, body: (await res.json()) as Answer['body'] };
      trace(`${urlPath} -> ${res.status} ${answer.body.msg}`);
      return answer;
    } catch (error) {
      trace(`${urlPath} no answer ${String(error)}`);
      throw new NoAnswer(String(error));
    } finally {
      inFlight--;
    }
  }

  async function get(url: string, init: RequestInit = {}): Promise<Response> {
    trace(`get ${url}`);
    inFlight++;
    try {
      const res = await fetch(new URL(url, server.url), {
        redirect: 'manual',
        ...init,
        signal: AbortSignal.timeout(20_000),
      });
      await res.arrayBuffer();
      return res;
    } catch (error) {
      throw new NoAnswer(String(error));
    } finally {
      inFlight--;
    }
  }

  /** Calls until an answer comes (the server restarts meanwhile), as a client retrying its request would. */
  async function persist<T>(attempt: () => Promise<T>): Promise<T> {
    for (;;) {
      try {
        return await attempt();
      } catch (error) {
        if (!(error instanceof NoAnswer)) throw error;
        await sleep(200);
      }
    }
  }

  const acknowledged: Acknowledged[] = [];
  const serverErrors: string[] = [];
  const paidKnown: Array<{ who: Customer; purchase: number }> = [];
  let running = true;
  let codes = 0;

  /** Records a 200 as acknowledged; a 5xx is a finding. Other 4xx are refusals the stream may meet. */
  function note(
    kind: Acknowledged['kind'],
    who: Customer,
    urlPath: string,
    body: Record<string, unknown>,
    answer: Answer,
    key?: string,
  ): boolean {
    if (answer.status >= 500) serverErrors.push(`${urlPath} ${answer.status} ${answer.body.msg}`);
    if (answer.status !== 200) return false;
    acknowledged.push({ kind, who, path: urlPath, body, key, data: answer.body.data });
    return true;
  }

  /**
   * Sends an operation; without an answer, retries it with the same idempotency key or gives up (both happen to
   * real clients), so the database sees both operations that were replayed and ones that were left half-way.
   */
  async function send(urlPath: string, body: Record<string, unknown>, headers: Record<string, string>, rng: Choices) {
    for (;;) {
      try {
        return await call(urlPath, body, headers);
      } catch (error) {
        if (!(error instanceof NoAnswer)) throw error;
        if (rng.chance(0.4)) return null;
        await sleep(300);
      }
    }
  }

  async function submit(who: Customer, rng: Choices): Promise<Purchase | null> {
    const form = { currency: money.usd.id, amount: rng.int(1, 40), requestedPaymentMethodGroup: await cardGroup() };
    const quote = await call('/api/me/desks/toeflGeneralCpr/priceInquiry', form, bearer(who.token));
    if (quote.status !== 200) return null;
    const body = {
      ...form,
      quoteId: (quote.body.data as { quoteId: string }).quoteId,
      targetPageAddress: 'https://www.ets.org/toefl/pay',
      targetPageUsername: 'student1',
      targetPagePassword: 'secret',
    };
    const key = money.newKey();
    const path_ = '/api/me/desks/toeflGeneralCpr/requests';
    const answer = await send(path_, body, { ...bearer(who.token), 'idempotency-key': key }, rng);
    if (!answer || !note('submit', who, path_, body, answer, key)) return null;
    return answer.body.data as Purchase;
  }

  let group: number | undefined;
  async function cardGroup(): Promise<number> {
    if (group === undefined) {
      const groups = (await call('/api/public/searchPaymentMethodGroups')).body.data as {
        items: Array<{ id: number; isCash: boolean }>;
      };
      group = groups.items.find((g) => !g.isCash)!.id;
    }
    return group;
  }

  async function pay(who: Customer, purchase: number, rng: Choices): Promise<void> {
    const key = money.newKey();
    const body = { purchase };
    const answer = await send('/api/me/payPurchase', body, { ...bearer(who.token), 'idempotency-key': key }, rng);
    if (!answer || !note('pay', who, '/api/me/payPurchase', body, answer, key)) return;
    const result = answer.body.data as PayResult;
    if (result.gatewayUrl === null) {
      paidKnown.push({ who, purchase });
      return;
    }
    // At the sandbox bank: its page, the payer's card, then back to our callback, which verifies and settles.
    try {
      const page = await get(result.gatewayUrl);
      if (page.status !== 200) return;
      const answered = await get(result.gatewayUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ cardNo: '6037991234567890', holderNationalCode: who.nationalCode, action: 'pay' }),
      });
      if (answered.status !== 303) return;
      const callback = answered.headers.get('location')!;
      const back = await persist(() => get(callback));
      expect(back.status).toBe(303);
      const outcome = new URL(back.headers.get('location')!, server.url).searchParams.get('payment');
      if (outcome === 'success') {
        acknowledged.push({ kind: 'bank', who, path: callback, body, data: outcome });
        paidKnown.push({ who, purchase });
      }
    } catch (error) {
      if (!(error instanceof NoAnswer)) throw error;
    }
  }

  async function deposit(who: Customer, amount: number, rng: Choices): Promise<void> {
    const body = {
      formIsValid: true,
      onlineProformaToken: '',
      customerMobileNo: mobileOf.get(who.userId)!,
      collectionSourceAccountNo: '6037991234567890',
      collectionDestinationAccount: bankAccount,
      collectionAmount: amount,
      collectionTrackingCode: `CRASH-${process.pid}-${codes++}`,
    };
    const answer = await send('/api/sys/payOffline', body, bearer(staff.token), rng);
    if (answer) note('deposit', who, '/api/sys/payOffline', body, answer);
  }

  async function decide(rng: Choices): Promise<void> {
    const next = paidKnown.shift();
    if (!next) return;
    const detail = await persist(() =>
      call('/api/me/fetchPurchase', { purchase: next.purchase }, bearer(next.who.token)),
    );
    const purchase = (detail.body.data as { purchase: Purchase }).purchase;
    if (purchase.state !== 'paid') return;
    if (rng.chance(0.6)) {
      const refund = rng.int(0, Math.floor((purchase.expectedPrice - purchase.totalCosts) / 10));
      const body = {
        purchase: purchase.id,
        realPrice: purchase.expectedPrice - refund,
        currencyPaymentReference: `TX-${purchase.id}`,
        foreignAmount: 10,
      };
      const answer = await send('/api/sys/uafCprDone', body, bearer(staff.token), rng);
      if (answer) note('done', next.who, '/api/sys/uafCprDone', body, answer);
    } else {
      const body = { purchase: purchase.id, reason: 'حساب مقصد پاسخ نداد.' };
      const answer = await send('/api/sys/uafCprFailed', body, bearer(staff.token), rng);
      if (answer) note('failed', next.who, '/api/sys/uafCprFailed', body, answer);
    }
  }

  async function customerStream(who: Customer, rng: Choices): Promise<void> {
    while (running) {
      try {
        const roll = rng.int(0, 99);
        if (roll < 20) {
          await deposit(who, rng.int(5, 60) * 100_000, rng);
        } else {
          const purchase = await submit(who, rng);
          if (purchase && roll < 90) await pay(who, purchase.id, rng);
        }
      } catch (error) {
        if (!(error instanceof NoAnswer)) throw error;
        await sleep(200);
      }
    }
  }

  async function staffStream(rng: Choices): Promise<void> {
    while (running) {
      try {
        await decide(rng);
      } catch (error) {
        if (!(error instanceof NoAnswer)) throw error;
      }
      await sleep(rng.int(50, 300));
    }
  }

  // A dollar costs about a million: small deposits pay some requests whole, others go to the bank for the rest.
  for (const [n, who] of customers.entries()) await deposit(who, 5_000_000, customerChoices[n]!);

  const streams = [...customers.map((who, n) => customerStream(who, customerChoices[n]!)), staffStream(staffChoices)];
  const started = Date.now();
  /** Calls cut off by each kill. */
  const cutOff: number[] = [];
  for (let kill = 0; kill < KILLS; kill++) {
    await sleep(killer.int(UP_MS.min, UP_MS.max));
    cutOff.push(inFlight);
    await server.kill();
    await sleep(killer.int(DOWN_MS.min, DOWN_MS.max));
    await server.start();
  }
  await sleep(1_500);
  // The kinds every run must have acknowledged (asserted below): on a busy machine the times up above can end before
  // the streams got each one through, so the streams run on, with the server up, until they have.
  const mustSee: Array<Acknowledged['kind']> = ['submit', 'pay', 'bank', 'deposit', 'done'];
  while (!mustSee.every((kind) => acknowledged.some((a) => a.kind === kind))) await sleep(200);
  running = false;
  trace('stopping the streams');
  await Promise.all(streams);
  trace('streams stopped');
  const streamSeconds = Math.round((Date.now() - started) / 1000);
  // Whatever staff had left to decide is decided now, with the server up.
  while (paidKnown.length > 0) await decide(staffChoices);

  const counts = Object.fromEntries(
    ['submit', 'pay', 'bank', 'deposit', 'done', 'failed'].map((k) => [
      k,
      acknowledged.filter((a) => a.kind === k).length,
    ]),
  );
  console.log(`${database.describe}: ${server.generations - 1} kills in ${streamSeconds}s, acknowledged`, counts);
  console.log(`${database.describe}: calls cut off by each kill`, cutOff);
  expect(server.generations).toBe(KILLS + 1);
  expect(Math.max(...cutOff), 'no kill cut off a call in flight').toBeGreaterThan(0);
  for (const kind of mustSee) expect(counts[kind], kind).toBeGreaterThan(0);

  // Replays of acknowledged operations answer with the first result, and move nothing again.
  for (const op of acknowledged) {
    if (op.kind === 'submit') {
      const replay = await call(op.path, op.body, { ...bearer(op.who.token), 'idempotency-key': op.key! });
      expect(replay.status, replay.body.msg).toBe(200);
      const first = op.data as Purchase;
      expect(replay.body.data).toMatchObject({ id: first.id, expectedPrice: first.expectedPrice });
    } else if (op.kind === 'pay') {
      const replay = await call(op.path, op.body, { ...bearer(op.who.token), 'idempotency-key': op.key! });
      expect(replay.status, replay.body.msg).toBe(200);
      expect(replay.body.data).toEqual(op.data);
    } else if (op.kind === 'bank') {
      const back = await get(op.path);
      expect(back.status).toBe(303);
      expect(new URL(back.headers.get('location')!, server.url).searchParams.get('payment')).toBe('success');
    } else {
      const replay = await call(op.path, op.body, bearer(staff.token));
      expect(replay.status, `${op.kind} replayed: ${replay.body.msg}`).toBe(409);
    }
  }
  // Each acknowledged request is there for its customer, in a state its acknowledged operations imply.
  for (const op of acknowledged) {
    const purchaseId =
      op.kind === 'submit' ? (op.data as Purchase).id : op.kind === 'deposit' ? null : Number(op.body.purchase);
    if (purchaseId === null) continue;
    const detail = await call('/api/me/fetchPurchase', { purchase: purchaseId }, bearer(op.who.token));
    expect(detail.status, detail.body.msg).toBe(200);
    const state = (detail.body.data as { purchase: Purchase }).purchase.state;
    const paidPay = op.kind === 'pay' && (op.data as PayResult).gatewayUrl === null;
    if (paidPay || op.kind === 'bank') expect(['paid', 'purchaseSucceeded', 'purchaseFailed']).toContain(state);
    if (op.kind === 'done') expect(state).toBe('purchaseSucceeded');
    if (op.kind === 'failed') expect(state).toBe('purchaseFailed');
  }
  expect(serverErrors).toEqual([]);
  expect(server.errors()).toEqual([]);
  await server.stop();

  // The rows, read directly with the server stopped.
  const handle = await openDatabase({
    databaseUrl: database.env.DATABASE_URL || undefined,
    dataDir,
  });
  try {
    const db = handle.db;
    expect(await checkInvariants(db)).toEqual([]);
    for (const op of acknowledged.filter((a) => a.kind === 'deposit')) {
      const rows = await db
        .selectFrom('collections')
        .select(['amount', 'userId'])
        .where('trackingCode', '=', String(op.body.collectionTrackingCode))
        .execute();
      expect(rows).toEqual([{ amount: op.body.collectionAmount, userId: op.who.userId }]);
    }
    for (const op of acknowledged.filter((a) => a.kind === 'pay' || a.kind === 'submit')) {
      const table = op.kind === 'pay' ? 'payRequests' : 'idempotencyKeys';
      const row = await db
        .selectFrom(table)
        .select('key')
        .where('userId', '=', op.who.userId)
        .where('key', '=', op.key!)
        .executeTakeFirst();
      expect(row, `${op.kind} ${op.key}`).toBeDefined();
    }

    // No request half-done, acknowledged or not.
    const purchases = await db
      .selectFrom('purchases')
      .select(['id', 'userId', 'state', 'expectedPrice'])
      .orderBy('id')
      .execute();
    const problems: string[] = [];
    const states: Record<string, number> = {};
    for (const p of purchases) {
      states[p.state] = (states[p.state] ?? 0) + 1;
      const reserved = await purchaseReservation(db, p.userId, p.id);
      const last = await db
        .selectFrom('purchaseStateChanges')
        .select('state')
        .where('purchaseId', '=', p.id)
        .orderBy('id', 'desc')
        .executeTakeFirst();
      if (last?.state !== p.state) problems.push(`request ${p.id} is ${p.state}; its history ends at ${last?.state}`);
      const task = await db.selectFrom('tasks').select('state').where('purchaseId', '=', p.id).executeTakeFirst();
      if (p.state === 'paid' || p.state === 'inProgress') {
        if (reserved !== p.expectedPrice)
          problems.push(`paid request ${p.id} reserves ${reserved} of ${p.expectedPrice}`);
        if (!task || !['open', 'claimed'].includes(task.state)) problems.push(`paid request ${p.id} has no open task`);
      } else if (reserved !== 0) {
        problems.push(`request ${p.id} is ${p.state} yet reserves ${reserved}`);
      }
      if (p.state === 'waitingForPayment' && task) problems.push(`unpaid request ${p.id} has a task`);
      if (p.state === 'purchaseSucceeded' || p.state === 'purchaseFailed') {
        if (task?.state !== (p.state === 'purchaseSucceeded' ? 'done' : 'rejected'))
          problems.push(`decided request ${p.id} left its task ${task?.state}`);
      }
    }
    // Money received online is in a collection, once.
    const settled = await sql<{ id: number; collections: number }>`
      select p.id, count(c.id)::int as collections from online_proformas p
      left join collections c on c.online_proforma_id = p.id
      where p.state in ('settled', 'cardMismatch') group by p.id having count(c.id) <> 1`.execute(db);
    for (const r of settled.rows) problems.push(`settled payment ${r.id} has ${r.collections} collections`);
    const unsettled = await sql<{ id: number }>`
      select p.id from online_proformas p join collections c on c.online_proforma_id = p.id
      where p.state not in ('settled', 'cardMismatch')`.execute(db);
    for (const r of unsettled.rows) problems.push(`payment ${r.id} is not settled yet has a collection`);
    console.log(`${database.describe}: requests by state`, states);
    expect(problems).toEqual([]);
  } finally {
    await handle.close();
  }
}

describe('crash safety under SIGKILL', () => {
  it.skipIf(skipEmbeddedCases(import.meta.url))(
    'on the embedded database in a data folder',
    async () => {
      await replayable(REPLAY, () => runOnce({ env: { DATABASE_URL: '' }, describe: 'PGlite' }));
    },
    TIMEOUT_MS,
  );

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    'on PostgreSQL',
    async () => {
      const testUrl = process.env.TEST_DATABASE_URL!;
      const name = `crash_${process.pid}`;
      const admin = (statement: string) => adminQuery(testUrl, statement);
      cleanups.push(() => admin(`drop database if exists ${name} with (force)`));
      // A copy of the stage's migrated template, as the embedded database starts from its migrated image; outside a
      // stage an empty database, which the first generation migrates.
      const postgres = templateInfo()?.postgres;
      let url: string;
      if (postgres) url = await copyOfTemplate(postgres, name);
      else {
        await admin(`drop database if exists ${name}`);
        await admin(`create database ${name}`);
        const empty = new URL(testUrl);
        empty.pathname = `/${name}`;
        url = empty.toString();
      }
      await replayable(REPLAY, () => runOnce({ env: { DATABASE_URL: url }, describe: 'PostgreSQL' }));
    },
    TIMEOUT_MS,
  );
});
