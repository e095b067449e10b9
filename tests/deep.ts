/**
 * `npm run test:deep`: the randomized API tests at deeper sizes than CI's — crash safety (20 SIGKILLs per database),
 * the payment fuzz (10,000 steps), the ledger fuzz (100 runs of 100 postings) and hostile input (2,000 cases per
 * operation) — on the embedded database and, when DATABASE_URL is set, again on PostgreSQL (with Redis when
 * REDIS_URL is set) in a fresh database created and dropped here. Seeds are fresh each run, the same for both
 * databases, and printed first; a variable set in the environment wins over the deep default, so a failing run
 * replays with the line it printed. Arguments name test files to run instead of the four
 * (`npm run test:deep -- tests/api/crash-safety.test.ts`). About an hour on two cores; not part of `npm test` or CI.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { withFreshDatabase } from './support/postgres-admin';

const root = path.resolve(import.meta.dirname, '..');
const files =
  process.argv.length > 2
    ? process.argv.slice(2)
    : [
        'tests/api/crash-safety.test.ts',
        'tests/api/payments.test.ts',
        'tests/api/ledger.test.ts',
        'tests/api/hostile-input.test.ts',
      ];

/** CI's sizes are 5 kills, 1000 steps, 10 runs and 200 cases (each file's default). */
const sizes = { CRASH_KILLS: 20, PAYMENT_FUZZ_STEPS: 10_000, LEDGER_FUZZ_RUNS: 100, HOSTILE_CASES: 2000 };
const seeds = ['CRASH_SEED', 'PAYMENT_FUZZ_SEED', 'LEDGER_FUZZ_SEED', 'HOSTILE_SEED'];

const env: Record<string, string> = {};
for (const [name, size] of Object.entries(sizes)) env[name] = process.env[name] || String(size);
for (const name of seeds) env[name] = process.env[name] || String(Math.floor(Math.random() * 2 ** 31));
console.log(
  `deep run (replay: ${Object.entries(env)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ')} npm run test:deep)`,
);

const failed: string[] = [];

function vitest(title: string, database: Record<string, string>): void {
  const started = Date.now();
  console.log(`\n▶ ${title}`);
  const result = spawnSync(
    path.join(root, 'node_modules/.bin/vitest'),
    ['run', '--project', 'api', '--reporter=default', ...files],
    { cwd: root, stdio: 'inherit', env: { ...process.env, ...env, ...database } },
  );
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  if (result.status === 0) {
    console.log(`✔ ${title} (${minutes} min)`);
  } else {
    console.error(`✖ ${title} failed (${minutes} min)`);
    failed.push(title);
  }
}

vitest('deep (embedded PGlite)', { TEST_DATABASE_URL: '', TEST_REDIS_URL: '' });

const databaseUrl = process.env.DATABASE_URL;
if (databaseUrl) {
  await withFreshDatabase(databaseUrl, 'arzpay_deep', (url) =>
    vitest('deep (PostgreSQL)', { TEST_DATABASE_URL: url, TEST_REDIS_URL: process.env.REDIS_URL ?? '' }),
  );
}

if (failed.length > 0) {
  console.error(`\ndeep: ${failed.join(', ')} failed`);
  process.exit(1);
}
console.log('\ndeep: passed');
