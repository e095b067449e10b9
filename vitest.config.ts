import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './tests/support/slow-first-sequencer';
import { API_ON_PGLITE } from './tests/support/stages';

/**
 * The e2e files that also run on the embedded database (PGlite). The whole e2e suite runs on PostgreSQL + Redis,
 * the production shape; what the embedded database changes is the server, which the API suite covers on both.
 * These walk what PGlite touches in a person's way: the first start with the administrator's password (identity:
 * staff sign in with it and approve a profile), the phone journey to a paid request, the form engine's nested
 * values stored and shown, and the catalogue editor's publish (versions written and read back).
 */
export const E2E_SMOKE_ON_PGLITE = [
  'tests/e2e/identity.test.ts',
  'tests/e2e/journey.test.ts',
  'tests/e2e/form-engine.test.ts',
  'tests/e2e/catalogue.test.ts',
];

// Each api and e2e file has a database of its own, copied from one migrated per stage (tests/support/
// global-setup.ts, tests/support/file-database.ts), a Redis key prefix of its own (tests/support/server.ts) and
// servers on ports the system picks, so files run side by side: two at a time, one per core of the machine CI
// runs on. Nothing left that files share needs a serial group.
// A worker keeps its imported modules from one file to the next (isolate: false): each file starts its own servers
// and browser and stops them, and importing the server, PGlite and Playwright again took 3–4 s per file.
const serverSuite = {
  environment: 'node' as const,
  isolate: false,
  globalSetup: ['tests/support/global-setup.ts'],
  setupFiles: ['tests/support/file-database.ts'],
};

// An e2e `expect.poll` waits for what a person waits for as long as Playwright's waits do (WAIT_MS of
// tests/support/browser.ts) instead of vitest's default second, which a busy machine can overrun.
const e2eWaits = { poll: { timeout: 90_000 } };

export default defineConfig({
  test: {
    maxWorkers: Number(process.env.TEST_WORKERS ?? 2),
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        // A few unit tests build a TypeScript program of the whole source (layers, table owners) or load ESLint:
        // seconds, more on a busy two-core machine where `npm test` runs them beside tsc and eslint, so the limits
        // only stop a hang (at load 37 a 30 s test and a 10 s hook were not enough).
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          ...serverSuite,
        },
      },
      {
        // CI's API stage on the embedded database: the files tests/support/stages.ts lists, each with its reason.
        test: {
          name: 'api-pglite',
          include: Object.keys(API_ON_PGLITE),
          testTimeout: 30_000,
          hookTimeout: 60_000,
          ...serverSuite,
        },
      },
      {
        test: {
          name: 'e2e',
          expect: e2eWaits,
          include: ['tests/e2e/**/*.test.ts'],
          // Tests wait for events, never for time; the limit only stops a hung test, so it holds on a busy machine.
          testTimeout: 180_000,
          hookTimeout: 120_000,
          ...serverSuite,
        },
      },
      {
        test: {
          name: 'e2e-smoke',
          expect: e2eWaits,
          include: E2E_SMOKE_ON_PGLITE,
          testTimeout: 180_000,
          hookTimeout: 120_000,
          ...serverSuite,
        },
      },
    ],
  },
});
