/**
 * Starts the real server in-process on port 0 with a fresh database: an in-memory PGlite by default,
 * or, when TEST_DATABASE_URL is set (tests/run.ts sets it to a database it created), PostgreSQL.
 * Builds the web app first when dist/web is missing so e2e tests always have a UI to drive.
 */
import { isLoginCodeSms, loginCodeIn } from './sms-code';
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import { type App, buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { copyOfTemplate, pgliteImage, templateInfo } from './template-database';

const root = path.resolve(import.meta.dirname, '../..');

export const ADMIN_MOBILE = '09120000000';
export const ADMIN_PASSWORD = 'admin-test-password';

/** What talking to a server over HTTP needs: its address, and the log-in codes its `log` SMS driver wrote. */
export type ServerAddress = Pick<RunningServer, 'url' | 'lastSmsCode'>;

export interface RunningServer {
  url: string;
  app: App;
  dataDir: string;
  /** Every JSON log line the server wrote. */
  logs: Array<Record<string, unknown>>;
  /** The same lines as the server wrote them (for greps: tests/support/log-scan.ts). */
  rawLogs: string[];
  /** The last log-in code the `log` SMS driver "sent" to this number. */
  lastSmsCode(mobileNo: string): string | null;
  stop(): Promise<void>;
}

let servers = 0;

/**
 * Parses the server's log lines, and, when TEST_LOG_DIR is set (tests/run.ts sets it for the e2e stage), also
 * appends them to a file there, so the whole run's log can be searched for secrets afterwards.
 */
function captureLogs(): { stream: Writable; lines: Array<Record<string, unknown>>; raw: string[]; close(): void } {
  const lines: Array<Record<string, unknown>> = [];
  const raw: string[] = [];
  const dir = process.env.TEST_LOG_DIR;
  let file: number | null = null;
  if (dir) {
    mkdirSync(dir, { recursive: true });
    file = openSync(path.join(dir, `server-${process.pid}-${servers++}.log`), 'a');
  }
  let pending = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      pending += String(chunk);
      let newline = pending.indexOf('\n');
      while (newline >= 0) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        raw.push(line);
        if (file !== null) writeSync(file, `${line}\n`);
        try {
          lines.push(JSON.parse(line) as Record<string, unknown>);
        } catch {
          // not a JSON line
        }
        newline = pending.indexOf('\n');
      }
      done();
    },
  });
  return {
    stream,
    lines,
    raw,
    close() {
      if (file !== null) closeSync(file);
      file = null;
    },
  };
}

/** The built web app the test server serves; TEST_WEB_DIR lets parallel work trees keep separate builds. */
export const webDir = process.env.TEST_WEB_DIR ? path.resolve(process.env.TEST_WEB_DIR) : path.join(root, 'dist/web');

export function ensureWebBuilt(): void {
  if (existsSync(path.join(webDir, 'index.html'))) return;
  const args = [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', webDir, '--emptyOutDir'];
  const result = spawnSync(process.execPath, args, {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('vite build failed');
}

/** The file databases a server has started on: the first server on one uses it as the template left it. */
const startedOnFileDatabase = new Set<string>();

/**
 * Gives the next server an empty, migrated PostgreSQL database. The file's own copy of the stage's template
 * (tests/support/file-database.ts) is used as it is by the file's first server and copied again for later
 * ones; without a template (a bench run), every table is dropped and the server migrates again.
 */
async function resetPostgres(url: string): Promise<void> {
  const postgres = templateInfo()?.postgres;
  if (postgres && url === process.env.TEST_DATABASE_URL) {
    if (startedOnFileDatabase.has(url)) await copyOfTemplate(postgres, new URL(url).pathname.slice(1));
    startedOnFileDatabase.add(url);
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('drop schema public cascade; create schema public;');
  } finally {
    await client.end();
  }
}

export async function startServer(
  opts: {
    env?: Record<string, string>;
    web?: boolean;
    /** False: a second server on the PostgreSQL database another one already uses (default: start it empty). */
    resetDatabase?: boolean;
    /**
     * A data folder of the test's own, left in place on stop; with `embedded`, the server keeps its PGlite in it
     * (DATABASE_URL unset), as `npm start` does (tests/api/backup-restore.test.ts).
     */
    dataDir?: string;
    embedded?: boolean;
  } = {},
): Promise<RunningServer> {
  if (opts.web !== false) ensureWebBuilt();
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'arzpay-test-'));
  // A test that names its own database (say `memory://` beside a PostgreSQL run) must not empty the shared one.
  const databaseUrl = opts.embedded ? '' : opts.env?.DATABASE_URL || process.env.TEST_DATABASE_URL || 'memory://';
  if (databaseUrl.startsWith('postgres') && opts.resetDatabase !== false) await resetPostgres(databaseUrl);
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.TEST_REDIS_URL ?? '',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'info',
    ADMIN_USERNAME: '09120000000',
    ADMIN_PASSWORD: ADMIN_PASSWORD,
    SMS_LIMIT_PER_IP: '100000',
    // Rate-limit counters of earlier runs must not leak into this one.
    REDIS_KEY_PREFIX: `test-${process.pid}-${Date.now()}:`,
    WEB_DIR: webDir,
    // The nightly reconciliation would write into a test's database at 23:00 UTC; tests run it with their clock.
    RECONCILE_HOUR: 'off',
    ...opts.env,
  });
  const logs = captureLogs();
  const memoryImage = databaseUrl === 'memory://' ? await pgliteImage() : null;
  const app = await buildApp(
    { ...config, port: 0, host: '127.0.0.1' },
    { logStream: logs.stream, ...(memoryImage && { memoryImage }) },
  );
  await app.fastify.listen({ port: 0, host: '127.0.0.1' });
  const address = app.fastify.server.address();
  if (!address || typeof address === 'string') throw new Error('server did not bind a TCP port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    app,
    dataDir,
    logs: logs.lines,
    rawLogs: logs.raw,
    lastSmsCode(mobileNo: string) {
      // A notification's SMS (no log-in code in it) may have gone to the same number since.
      const sms = logs.lines.filter((l) => l.msg === 'sms' && l.mobileNo === mobileNo && isLoginCodeSms(l.text)).at(-1);
      return sms ? loginCodeIn(sms.text) : null;
    },
    async stop() {
      await app.fastify.close();
      logs.close();
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** POSTs JSON and returns status and parsed body. */
export async function post(
  server: Pick<RunningServer, 'url'>,
  urlPath: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: { result: boolean; msg: string; data: unknown } & Record<string, unknown> }> {
  const res = await fetch(server.url + urlPath, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as never };
}

/** Logs a customer in by SMS code (read from the log driver) and returns the bearer token. */
export async function loginByCode(server: ServerAddress, mobileNo: string): Promise<string> {
  const sent = await post(server, '/api/public/sendMobileValidationCode', { mobileNo });
  if (sent.status !== 200) throw new Error(`sendMobileValidationCode: ${sent.status} ${sent.body.msg}`);
  // A server in a child process (tests/api/crash-safety.test.ts) may write its log line after it answered: the line
  // is waited for as long as a busy machine may take to pass it on, not a few seconds.
  let validationCode = server.lastSmsCode(mobileNo);
  for (let waited = 0; !validationCode && waited < 60_000; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    validationCode = server.lastSmsCode(mobileNo);
  }
  if (!validationCode) throw new Error('no SMS code in the log');
  const login = await post(server, '/api/me/loginByMobileValidationCode', { mobileNo, validationCode });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${login.body.msg}`);
  return (login.body.data as { userToken: string }).userToken;
}

export async function loginAdmin(server: Pick<RunningServer, 'url'>): Promise<string> {
  const login = await post(server, '/api/me/loginByPassword', { username: ADMIN_MOBILE, password: ADMIN_PASSWORD });
  if (login.status !== 200) throw new Error(`admin login: ${login.status} ${login.body.msg}`);
  return (login.body.data as { userToken: string }).userToken;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

let staffMade = 0;

/**
 * A staff member (a new user, in a new group holding exactly `actionNames`, or in none when there are none),
 * logged in: their token and id. `mobileNo` defaults to a new number of this process.
 */
export async function staffWithActions(
  server: RunningServer,
  actionNames: string[],
  mobileNo = `0914${String(5_000_000 + staffMade++)}`,
): Promise<{ token: string; userId: number }> {
  const admin = await loginAdmin(server);
  const password = 'staff-password-1';
  const user = await post(server, '/api/users/saveUser', { mobileNo, isStaff: true, password }, bearer(admin));
  if (user.status !== 200) throw new Error(`saveUser: ${user.status} ${user.body.msg}`);
  const userId = (user.body.data as { id: number }).id;
  if (actionNames.length > 0) {
    const group = await post(
      server,
      '/api/users/saveGroup',
      { name: `g${userId}`, title: `گروه ${userId}` },
      bearer(admin),
    );
    const groupId = (group.body.data as { id: number }).id;
    const actions = (await fetch(`${server.url}/api/users/getActions`, { headers: bearer(admin) }).then((r) =>
      r.json(),
    )) as { data: { items: Array<{ id: number; name: string }> } };
    const ids = actions.data.items.filter((a) => actionNames.includes(a.name)).map((a) => a.id);
    if (ids.length !== actionNames.length) throw new Error(`unknown staff actions among ${actionNames.join(', ')}`);
    await post(server, '/api/users/saveGroupActions', { id: groupId, actions: ids }, bearer(admin));
    await post(server, '/api/users/saveGroupUsers', { id: groupId, users: [userId] }, bearer(admin));
  }
  const login = await post(server, '/api/me/loginByPassword', { username: mobileNo, password });
  if (login.status !== 200) throw new Error(`staff login: ${login.status} ${login.body.msg}`);
  return { token: (login.body.data as { userToken: string }).userToken, userId };
}

/** A customer whose profile staff approved and who accepted every category's terms. */
export async function verifiedCustomer(server: ServerAddress, mobileNo: string, nationalCode: string): Promise<string> {
  const { jpegWithExif, uploadForm } = await import('./images');
  const admin = await loginAdmin(server);
  const token = await loginByCode(server, mobileNo);
  const res = await fetch(`${server.url}/api/me/uploadFile`, {
    method: 'POST',
    headers: bearer(token),
    body: uploadForm(await jpegWithExif(), 'card.jpg'),
  });
  const card = ((await res.json()) as { path: string }).path;
  await post(
    server,
    '/api/me/updateUserData',
    { nationalCode, firstName: 'سارا', lastName: 'کریمی', dateOfBirth: '1992-02-02', nationalCardImageAddress: card },
    bearer(token),
  );
  const me = (await post(server, '/api/me/fetchUserData', undefined, bearer(token))).body.data as { id: number };
  const tasks = await post(server, '/api/me/searchTasks', { perPage: 500 }, bearer(admin));
  const task = (tasks.body.data as { items: Array<{ id: number; subjectUserId: number }> }).items.find(
    (t) => t.subjectUserId === me.id,
  );
  if (!task) throw new Error('no approval task for the new customer');
  await post(server, '/api/sys/fetchApproveProfileAsL1TaskData', { taskId: task.id }, bearer(admin));
  await post(server, '/api/sys/approveProfileAsL1', { taskId: task.id }, bearer(admin));
  for (const p of ['Educational', 'InternationalExams', 'Embassies', 'Others']) {
    await post(server, `/api/me/approve${p}Policy`, undefined, bearer(token));
  }
  return token;
}
