/**
 * `npm run test:deep`: what CI leaves out (decision 035). First the WHOLE API suite on the embedded database (CI
 * runs it whole on PostgreSQL + Redis and on PGlite only the engine's files and a smoke set), with the randomized
 * API tests at deeper sizes than CI's — crash safety (20 SIGKILLs per database), the payment fuzz (10,000 steps), the
 * ledger fuzz (100 runs of 100 postings) and hostile input (2,000 cases per operation); then, when DATABASE_URL is
 * set, those four files at the same sizes on PostgreSQL (with Redis when REDIS_URL is set) in a fresh database
 * created and dropped here. Seeds are fresh each run, the same for both databases, and printed first; a variable set
 * in the environment wins over the deep default, so a failing run replays with the line it printed. Arguments name
 * test files to run on both instead (`npm run test:deep -- tests/api/crash-safety.test.ts`). Over an hour on two
 * cores; not part of `npm test` or CI.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { withFreshDatabase } from './support/postgres-admin';
import { judgeVitestStage } from './support/stage-verdict';

const root = path.resolve(import.meta.dirname, '..');
const chosen = process.argv.slice(2);
/** The files whose sizes `sizes` deepens, run on PostgreSQL too. */
const deepFiles = [
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

/** Passes only on its JSON report, as `npm test`'s stages do (support/stage-verdict.ts). */
function vitest(title: string, files: string[], database: Record<string, string>): void {
  const started = Date.now();
  const report = path.join(root, 'tests/artifacts', `deep-${title.replace(/\W+/g, '-')}.json`);
  rmSync(report, { force: true });
  console.log(`\n▶ ${title}`);
  const result = spawnSync(
    path.join(root, 'node_modules/.bin/vitest'),
    ['run', '--project', 'api', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...files],
    { cwd: root, stdio: 'inherit', env: { ...process.env, ...env, ...database } },
  );
  const verdict = judgeVitestStage(result, existsSync(report) ? readFileSync(report, 'utf8') : null);
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  if (verdict.ok) {
    console.log(`✔ ${title} (${minutes} min, ${verdict.report.numPassedTests} tests passed)`);
  } else {
    console.error(`✖ ${title} failed (${minutes} min): ${verdict.why}`);
    failed.push(title);
  }
}

// No file arguments: the whole API project (the four deep files among them).
vitest(chosen.length > 0 ? 'deep (embedded PGlite)' : 'whole API suite, deep sizes (embedded PGlite)', chosen, {
  TEST_DATABASE_URL: '',
  TEST_REDIS_URL: '',
});

const databaseUrl = process.env.DATABASE_URL;
if (databaseUrl) {
  await withFreshDatabase(databaseUrl, 'arzpay_deep', (url) =>
    // The cases that start their own process on an embedded data folder ran above (support/stages.ts).
    vitest('deep (PostgreSQL)', chosen.length > 0 ? chosen : deepFiles, {
      TEST_DATABASE_URL: url,
      TEST_REDIS_URL: process.env.REDIS_URL ?? '',
      EMBEDDED_CASES_RAN: '1',
    }),
  );
}

if (failed.length > 0) {
  console.error(`\ndeep: ${failed.join(', ')} failed`);
  process.exit(1);
}
console.log('\ndeep: passed');
