/**
 * `npm test`: every check, in order, stopping at the first stage that fails.
 *   lint · format · typecheck · schemas · codegen freshness · OpenAPI lint · npm audit · unit · build, side by side
 *     on the two cores (none reads what another writes) · byte budgets of the build
 *   · API: when DATABASE_URL is set, the embedded engine's files and a smoke set on PGlite (support/stages.ts names
 *     them and why), then the whole suite on PostgreSQL + Redis (in a fresh database created and dropped here);
 *     the whole suite on PGlite otherwise
 *   · end-to-end in Chromium (installs Debian's chromium when missing and running as root): the whole suite on
 *     PostgreSQL and Redis when DATABASE_URL is set, with a smoke set on PGlite (vitest.config.ts names it and why);
 *     the whole suite on PGlite otherwise · the e2e servers' logs searched for secrets.
 * Ends with a table of the stages and their seconds and the ten slowest test files (also written to
 * tests/artifacts/ci-times.json), and one line "tests: N passed, N failed" summed over every vitest run. A vitest
 * stage passes only on its JSON report (support/stage-verdict.ts).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { withFreshDatabase } from './support/postgres-admin';
import { judgeVitestStage, type VitestReport } from './support/stage-verdict';
import { PGLITE_SMOKE_SIZES } from './support/stages';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name: string) => path.join(root, 'node_modules/.bin', name);
const artifacts = path.join(root, 'tests/artifacts');
mkdirSync(artifacts, { recursive: true });

class StepFailed extends Error {}

let passed = 0;
let failed = 0;
const stages: Array<{ stage: string; seconds: number; ok: boolean }> = [];
const fileTimes: Array<{ file: string; stage: string; seconds: number }> = [];
const runStarted = Date.now();

function run(title: string, command: string, args: string[], env: Record<string, string> = {}): void {
  const started = Date.now();
  console.log(`\n▶ ${title}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  stages.push({ stage: title, seconds: Number(seconds), ok: result.status === 0 });
  if (result.status !== 0) {
    console.error(`✖ ${title} failed (${seconds}s)`);
    throw new StepFailed(title);
  }
  console.log(`✔ ${title} (${seconds}s)`);
}

interface Step {
  title: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
  /** A vitest step's JSON report: the step passes only on it (support/stage-verdict.ts), as `vitest()` judges. */
  report?: string;
}

/**
 * Runs independent steps two at a time (one per core), each one's output printed whole when it ends; fails after
 * all have ended when any failed.
 */
async function runTogether(steps: Step[], lanes = 2): Promise<void> {
  const queue = [...steps];
  const failures: string[] = [];
  const lane = async () => {
    for (let step = queue.shift(); step; step = queue.shift()) {
      const { title, command, args, report } = step;
      if (report) rmSync(report, { force: true });
      const started = Date.now();
      const child = spawn(command, args, {
        cwd: root,
        env: { ...process.env, ...step.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      const exit = await new Promise<{ status: number | null; signal: string | null }>((resolve) =>
        child.on('close', (status, signal) => resolve({ status, signal })),
      );
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      let ok = exit.status === 0;
      let why = '';
      if (report) {
        const verdict = judgeVitestStage(exit, existsSync(report) ? readFileSync(report, 'utf8') : null);
        ok = verdict.ok;
        if (!verdict.ok) why = `: ${verdict.why}`;
        if (verdict.report) countReport(verdict.report, title);
      }
      stages.push({ stage: title, seconds: Number(seconds), ok });
      console.log(`\n▶ ${title}`);
      if (output) process.stdout.write(output);
      if (ok) console.log(`✔ ${title} (${seconds}s)`);
      else {
        console.error(`✖ ${title} failed (${seconds}s)${why}`);
        failures.push(title);
      }
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  if (failures.length > 0) throw new StepFailed(failures.join(', '));
}

/** Where a vitest stage writes its JSON report. */
const reportOf = (title: string) => path.join(artifacts, `vitest-${title.replace(/\W+/g, '-')}.json`);

/** A vitest stage's tests and files, for the last line and the slowest files. */
function countReport(report: VitestReport, title: string): void {
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  for (const file of report.testResults) {
    const fileSeconds = Math.round((file.endTime - file.startTime) / 100) / 10;
    fileTimes.push({ file: path.relative(root, file.name), stage: title, seconds: fileSeconds });
  }
}

/** A vitest stage as a step of `runTogether`: `--project`, the default and JSON reporters. */
function vitestStep(title: string, project: string): Step {
  const report = reportOf(title);
  const args = ['run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`];
  return { title, command: bin('vitest'), args, report };
}

/**
 * A vitest stage passes only on its report (support/stage-verdict.ts): vitest stopped by a SIGTERM exits 0 and
 * writes none. The report is removed first, so a report of an earlier run is never judged.
 */
function vitest(title: string, project: string, env: Record<string, string> = {}): void {
  const report = reportOf(title);
  rmSync(report, { force: true });
  const started = Date.now();
  console.log(`\n▶ ${title}`);
  const result = spawnSync(
    bin('vitest'),
    ['run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } },
  );
  const verdict = judgeVitestStage(result, existsSync(report) ? readFileSync(report, 'utf8') : null);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  stages.push({ stage: title, seconds: Number(seconds), ok: verdict.ok });
  if (verdict.report) countReport(verdict.report, title);
  if (!verdict.ok) {
    console.error(`✖ ${title} failed (${seconds}s): ${verdict.why}`);
    throw new StepFailed(title);
  }
  console.log(`✔ ${title} (${seconds}s)`);
}

/** The budget you can see: each stage's seconds and the slowest files, printed and kept for the next run's note. */
function reportTimes(): void {
  const total = Math.round((Date.now() - runStarted) / 1000);
  const slowest = [...fileTimes].sort((a, b) => b.seconds - a.seconds).slice(0, 10);
  const width = Math.max(...stages.map((s) => s.stage.length), 5);
  console.log('\nstage'.padEnd(width + 1) + '  seconds');
  for (const s of stages) console.log(`${s.stage.padEnd(width)}  ${String(s.seconds).padStart(7)}${s.ok ? '' : '  ✖'}`);
  console.log(`${'total'.padEnd(width)}  ${String(total).padStart(7)}`);
  if (slowest.length > 0) {
    console.log('\nslowest test files');
    for (const f of slowest) console.log(`${String(f.seconds).padStart(7)} s  ${f.file}  (${f.stage})`);
  }
  writeFileSync(
    path.join(artifacts, 'ci-times.json'),
    `${JSON.stringify({ finishedAt: new Date().toISOString(), totalSeconds: total, stages, slowestFiles: slowest }, null, 2)}\n`,
  );
}

// One migrated PGlite image for every API and e2e stage of this run (tests/support/global-setup.ts): the first stage
// makes it, the others load it instead of running initdb and the migrations again.
const sharedImage = path.join(os.tmpdir(), `arzpay-stages-${process.pid}-${Date.now()}.tar`);
process.env.TEST_PGLITE_IMAGE = sharedImage;

function finish(code: number): never {
  rmSync(sharedImage, { force: true });
  reportTimes();
  console.log(`\ntests: ${passed} passed, ${failed} failed`);
  process.exit(code);
}

function ensureChromium(): void {
  if (existsSync('/usr/bin/chromium')) return;
  if (process.getuid?.() === 0) {
    run('install chromium (apt-get)', 'sh', ['-c', 'apt-get update -qq && apt-get install -y -qq chromium']);
    return;
  }
  console.error('Chromium is missing: run `sudo apt-get install -y chromium` and try again.');
  throw new StepFailed('chromium');
}

const node = process.execPath;
const tsx = ['--import', 'tsx'];
const only = process.argv[2];

try {
  // The static checks, the unit tests and the build read what none of them writes: they share the two cores, the
  // longest first, so one lane's waits (a process starting, the audit asking the registry) are the other's work.
  const first: Step[] = [];
  if (!only || only === 'static') {
    first.push(
      { title: 'typecheck (tsc)', command: bin('tsc'), args: ['-p', 'tsconfig.json', '--noEmit'] },
      { title: 'lint (eslint)', command: bin('eslint'), args: ['.', '--max-warnings', '0'] },
      { title: 'format (prettier --check)', command: bin('prettier'), args: ['--check', '.', '--log-level', 'warn'] },
      { title: 'generated code is fresh', command: node, args: [...tsx, 'codegen/generate.ts', '--check'] },
    );
  }
  if (!only || only === 'unit') first.splice(1, 0, vitestStep('unit', 'unit'));
  if (!only || only === 'api' || only === 'e2e')
    first.push({ title: 'build web (vite)', command: node, args: [bin('vite'), 'build'] });
  if (!only || only === 'static') {
    first.push(
      { title: 'schemas against meta-schemas', command: node, args: [...tsx, 'codegen/validate-schemas.ts'] },
      {
        title: 'OpenAPI lint (redocly)',
        command: bin('redocly'),
        args: ['lint', 'openapi/openapi.yaml', '--config', 'openapi/redocly.yaml'],
      },
      // Skipped (and passing) when the registry gives no advisories: CI must not fail for the network (decision 017).
      { title: 'dependencies (npm audit --omit=dev)', command: node, args: [...tsx, 'tests/audit.ts'] },
    );
  }
  await runTogether(first);
  // Read from the build just made, no browser: a page over its bytes fails here (support/byte-budgets.ts).
  if (!only || only === 'api' || only === 'e2e') run('byte budgets of the pages', node, [...tsx, 'tests/budgets.ts']);
  if (!only || only === 'api') {
    const onPglite = { TEST_DATABASE_URL: '', TEST_REDIS_URL: '' };
    const databaseUrl = process.env.DATABASE_URL;
    if (databaseUrl) {
      // Each suite once where it proves something (decision 035): on PGlite the engine's own files and a smoke set
      // at small sizes (support/stages.ts names them and why; a size set in the environment wins), then the whole
      // suite on PostgreSQL + Redis, which skips the cases the PGlite stage ran on an embedded data folder.
      const sizes = Object.fromEntries(
        Object.entries(PGLITE_SMOKE_SIZES).map(([name, size]) => [name, process.env[name] || size]),
      );
      vitest('api (embedded PGlite: engine files and smoke)', 'api-pglite', { ...onPglite, ...sizes });
      await withFreshDatabase(databaseUrl, 'arzpay_test', (url) =>
        vitest(`api (PostgreSQL${process.env.REDIS_URL ? ' + Redis' : ''})`, 'api', {
          TEST_DATABASE_URL: url,
          TEST_REDIS_URL: process.env.REDIS_URL ?? '',
          EMBEDDED_CASES_RAN: '1',
        }),
      );
    } else {
      vitest('api (embedded PGlite)', 'api', onPglite);
    }
  }
  if (!only || only === 'e2e') {
    ensureChromium();
    // Every server the e2e tests start keeps its log here; the stage ends by searching them for secrets.
    const logs = path.join(artifacts, 'e2e-server-logs');
    rmSync(logs, { recursive: true, force: true });
    const databaseUrl = process.env.DATABASE_URL;
    const onPglite = { TEST_DATABASE_URL: '', TEST_REDIS_URL: '', TEST_LOG_DIR: logs };
    if (databaseUrl) {
      // The pictures are taken once, in the whole suite's run below.
      vitest('e2e smoke (Chromium, PGlite)', 'e2e-smoke', { ...onPglite, TEST_SCREENSHOTS: 'off' });
      await withFreshDatabase(databaseUrl, 'arzpay_test', (url) =>
        vitest('e2e (Chromium, PostgreSQL + Redis)', 'e2e', {
          TEST_DATABASE_URL: url,
          TEST_REDIS_URL: process.env.REDIS_URL ?? '',
          TEST_LOG_DIR: logs,
        }),
      );
    } else {
      vitest('e2e (Chromium, PGlite)', 'e2e', onPglite);
    }
    run('e2e server logs hold no secret', node, [...tsx, 'tests/scan-logs.ts', logs]);
  }
} catch (error) {
  if (!(error instanceof StepFailed)) console.error(error);
  finish(1);
}
finish(failed > 0 ? 1 : 0);
