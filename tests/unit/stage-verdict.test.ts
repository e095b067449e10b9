/** `npm test` passes a vitest stage only on its report (tests/support/stage-verdict.ts, decision 035). */
import { describe, expect, it } from 'vitest';
import { judgeVitestStage } from '../support/stage-verdict';

const exited = (status: number | null, signal: string | null = null) => ({ status, signal });

function report(overrides: Record<string, unknown> = {}, tests: string[] = ['passed', 'passed', 'skipped']) {
  return JSON.stringify({
    numTotalTestSuites: 2,
    numPassedTestSuites: 2,
    numFailedTestSuites: 0,
    numPendingTestSuites: 0,
    numTotalTests: tests.length,
    numPassedTests: tests.filter((s) => s === 'passed').length,
    numFailedTests: tests.filter((s) => s === 'failed').length,
    numPendingTests: tests.filter((s) => s !== 'passed' && s !== 'failed').length,
    numTodoTests: 0,
    startTime: 1,
    success: !tests.includes('failed'),
    testResults: [
      {
        name: '/repo/tests/api/a.test.ts',
        status: tests.includes('failed') ? 'failed' : 'passed',
        startTime: 1,
        endTime: 2,
        message: '',
        assertionResults: tests.map((status) => ({ status })),
      },
    ],
    ...overrides,
  });
}

describe('a vitest stage', () => {
  it('passes with exit 0 and a whole report of tests that ran and passed (skipped ones allowed)', () => {
    const verdict = judgeVitestStage(exited(0), report());
    expect(verdict.ok).toBe(true);
    expect(verdict.report?.numPassedTests).toBe(2);
  });

  it('fails without a report, even when vitest exited 0 (stopped by SIGTERM, it does)', () => {
    expect(judgeVitestStage(exited(0), null)).toEqual({ ok: false, why: 'no JSON report was written', report: null });
  });

  it('fails when a signal ended vitest, whatever the report says', () => {
    expect(judgeVitestStage(exited(null, 'SIGTERM'), report())).toMatchObject({
      ok: false,
      why: 'vitest was stopped by SIGTERM',
    });
  });

  it('fails on a report cut short or not vitest’s', () => {
    expect(judgeVitestStage(exited(0), report().slice(0, 40))).toMatchObject({ ok: false, report: null });
    expect(judgeVitestStage(exited(0), '{}')).toMatchObject({
      ok: false,
      why: 'the JSON report is not a vitest report',
    });
    expect(judgeVitestStage(exited(0), 'null')).toMatchObject({ ok: false, report: null });
  });

  it('fails when no test ran: none at all, or every one skipped', () => {
    expect(judgeVitestStage(exited(0), report({}, []))).toMatchObject({ ok: false, why: 'no test ran' });
    expect(judgeVitestStage(exited(0), report({}, ['skipped', 'skipped']))).toMatchObject({
      ok: false,
      why: 'no test ran',
    });
  });

  it('fails when a test failed, even with exit 0, and keeps the report for the counts', () => {
    const verdict = judgeVitestStage(exited(0), report({}, ['passed', 'failed']));
    expect(verdict).toMatchObject({ ok: false, why: '1 test failed' });
    expect(verdict.report?.numPassedTests).toBe(1);
  });

  it('fails when a file failed outside its tests (an import or a hook)', () => {
    expect(judgeVitestStage(exited(0), report({ numFailedTestSuites: 1, success: false }))).toMatchObject({
      ok: false,
      why: 'a test file or suite failed',
    });
  });

  it('fails when a test was still queued or running as the report was written', () => {
    expect(judgeVitestStage(exited(0), report({}, ['passed', 'pending']))).toMatchObject({
      ok: false,
      why: '1 test did not finish',
    });
  });

  it('fails when the report does not say success or vitest exited non-zero (an unhandled error)', () => {
    expect(judgeVitestStage(exited(0), report({ success: false }))).toMatchObject({ ok: false });
    expect(judgeVitestStage(exited(1), report())).toMatchObject({ ok: false, why: 'vitest exited 1' });
  });
});
