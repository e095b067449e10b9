/**
 * Where each API file runs (decision 035). With DATABASE_URL (CI), `npm test` runs the whole API suite once, on
 * PostgreSQL + Redis, the production shape: the SQL, the migrations and the code are the same on the embedded
 * database, what differs is the engine (one connection, WASM, the data folder). On PGlite it runs only the files
 * below: those whose subject is the embedded engine, and a smoke set chosen for what the engine changes (the
 * project `api-pglite` in vitest.config.ts). Without DATABASE_URL the whole suite runs on PGlite, and
 * `npm run test:deep` runs it whole on PGlite as well, so nothing stops being proved.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The API files CI also runs on the embedded database, each with the reason. */
export const API_ON_PGLITE: Readonly<Record<string, string>> = {
  // The embedded engine is their subject: their cases start real processes on an embedded data folder.
  'tests/api/startup.test.ts':
    'the real process entry migrates a fresh embedded data folder, prints the first password, stops on SIGTERM',
  'tests/api/data-dir-lock.test.ts': 'the data-folder lock exists only on the embedded database',
  'tests/api/crash-safety.test.ts':
    'SIGKILLs of a server on an embedded data folder (PGlite never flushes): acknowledged money survives',
  'tests/api/backup-restore.test.ts': 'npm run backup and restore of the embedded data folder while the server writes',
  'tests/api/restore-checks.test.ts':
    'npm run restore refuses a damaged embedded database image and a manifest whose collections total differs',
  'tests/api/production-switch.test.ts': 'ARZPAY_ENV=production through the real process on an embedded data folder',
  'tests/api/notification-delivery.test.ts': 'an SMS claimed when its server on an embedded data folder is killed',
  'tests/api/reconcile-command.test.ts': 'npm run reconcile asks the server that holds the embedded data folder',
  // The migrations run through PGlite's own script path (exec, one session), on the suite's database.
  'tests/api/migrations.test.ts': 'the migrations on the embedded engine: whole files, one transaction, old runner',
  // The smoke set: money on one connection, where transactions queue instead of running side by side.
  'tests/api/ledger.test.ts':
    'randomized postings (small size) and parallel debits through PGlite’s one connection keep the invariants',
  'tests/api/payments.test.ts':
    'randomized payments (small size), parallel payments and callbacks on one connection keep the invariants',
  'tests/api/fulfilment.test.ts': 'one money journey, paid to done or failed, with the ledger invariants after each',
  'tests/api/request-lifecycle.test.ts':
    'randomized request events through the one state writer on one connection: every move on the table, ledger whole',
};

/**
 * The randomized runs' sizes in CI's PGlite stage (CI's own are the files' defaults, on PostgreSQL). The payment
 * run's seed is one whose plan at this size still reaches every ending the run asks for.
 */
export const PGLITE_SMOKE_SIZES: Readonly<Record<string, string>> = {
  LEDGER_FUZZ_RUNS: '2',
  PAYMENT_FUZZ_STEPS: '300',
  PAYMENT_FUZZ_SEED: '8',
};

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Whether the file at `fileUrl` (its `import.meta.url`) skips its cases that start their own process on an embedded
 * data folder, whatever database the stage gives the file: yes in a PostgreSQL stage (EMBEDDED_CASES_RAN=1) when
 * the file is on API_ON_PGLITE, so its PGlite stage runs them. A file not on the list runs them everywhere, and a
 * file run on its own (no such variable) runs all its cases.
 */
export function skipEmbeddedCases(fileUrl: string): boolean {
  if (process.env.EMBEDDED_CASES_RAN !== '1') return false;
  return Object.hasOwn(API_ON_PGLITE, path.relative(root, fileURLToPath(fileUrl)).split(path.sep).join('/'));
}
