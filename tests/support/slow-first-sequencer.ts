/**
 * Files run two at a time, so a long file started last keeps one core busy alone at the end of a stage. Vitest
 * orders files by the duration of its last run when it has one, and by size on a fresh clone, where a short file
 * of walks over every route (the page walk) can take minutes. This sequencer starts the files named
 * in SLOW_FIRST (read off the slowest files `npm test` reports in `tests/artifacts/ci-times.json`) first, in that order,
 * then the rest in vitest's own order; projects keep vitest's order.
 */
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const root = path.resolve(import.meta.dirname, '../..');

/** The longest files of the api and e2e stages, longest first. */
export const SLOW_FIRST = [
  'tests/e2e/page-walk.test.ts',
  'tests/e2e/payments.test.ts',
  'tests/e2e/shell.test.ts',
  'tests/e2e/staff-admin.test.ts',
  'tests/e2e/desks.test.ts',
  'tests/e2e/money-journey.test.ts',
  'tests/e2e/google-ads.test.ts',
  'tests/api/startup.test.ts',
  'tests/api/crash-safety.test.ts',
  'tests/api/hostile-input.test.ts',
  'tests/api/payments.test.ts',
  'tests/api/production-switch.test.ts',
  'tests/api/migrations.test.ts',
  'tests/api/data-dir-lock.test.ts',
  'tests/api/ledger.test.ts',
  'tests/api/realtime.test.ts',
  'tests/api/hostile-numbers.test.ts',
];

/** Fisher–Yates with a small seeded generator (mulberry32), so `--sequence.seed` replays an order. */
function shuffled<T>(items: T[], seed: number): T[] {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const result = [...items];
  for (let i = result.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [result[i], result[j]] = [result[j]!, result[i]!];
  }
  return result;
}

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // `--sequence.shuffle` still shuffles files (vitest's own random order is not used once a sequencer is set).
    if (this.ctx.config.sequence.shuffle) return shuffled(files, this.ctx.config.sequence.seed ?? Date.now());
    const rank = (spec: TestSpecification) => {
      const index = SLOW_FIRST.indexOf(path.relative(root, spec.moduleId));
      return index < 0 ? SLOW_FIRST.length : index;
    };
    const sorted = await super.sort(files);
    const projects = [...new Set(sorted.map((spec) => spec.project.name))];
    const project = (spec: TestSpecification) => projects.indexOf(spec.project.name);
    return sorted
      .map((spec, order) => ({ spec, order }))
      .sort((a, b) => project(a.spec) - project(b.spec) || rank(a.spec) - rank(b.spec) || a.order - b.order)
      .map(({ spec }) => spec);
  }
}
