import { defineConfig } from 'vitest/config';

// Three suites, run one at a time by tests/run.ts: unit (pure), api (real server + database), e2e (Chromium).
export default defineConfig({
  test: {
    projects: [
      {
        // A few unit tests build a TypeScript program of the whole source (layers, table owners): seconds, more
        // on a busy two-core machine, so the budget is not vitest's 5 s default.
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node', testTimeout: 30_000 },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
