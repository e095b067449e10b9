/**
 * Whether a vitest stage of `npm test` passed (tests/run.ts). Vitest's exit code alone is not enough: stopped by a
 * SIGTERM it exits 0 and writes no report, so the stage looked passed with nothing run. A stage passes only when
 * vitest exited 0 and its JSON report exists, is whole, shows tests ran, and none failed or was left unfinished.
 */

/** The part of vitest's JSON report (`--reporter=json`) a verdict and the time table read. */
export interface VitestReport {
  numTotalTests: number;
  numPassedTests: number;
  numFailedTests: number;
  numFailedTestSuites: number;
  success: boolean;
  testResults: Array<{
    name: string;
    status: string;
    startTime: number;
    endTime: number;
    assertionResults: Array<{ status: string }>;
  }>;
}

export interface VitestExit {
  /** The exit code, null when a signal ended the process. */
  status: number | null;
  signal: string | null;
}

export type StageVerdict = { ok: true; report: VitestReport } | { ok: false; why: string; report: VitestReport | null };

const tests = (n: number) => `${n} ${n === 1 ? 'test' : 'tests'}`;

const counts = ['numTotalTests', 'numPassedTests', 'numFailedTests', 'numFailedTestSuites'] as const;

/** The report read from its text, or why it cannot be used (missing, cut short, not vitest's shape). */
export function parseReport(text: string | null): VitestReport | string {
  if (text === null) return 'no JSON report was written';
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'the JSON report is not whole JSON';
  }
  const report = parsed as Partial<Record<string, unknown>> | null;
  if (
    typeof report !== 'object' ||
    report === null ||
    counts.some((name) => !Number.isInteger(report[name])) ||
    typeof report.success !== 'boolean' ||
    !Array.isArray(report.testResults)
  ) {
    return 'the JSON report is not a vitest report';
  }
  return report as unknown as VitestReport;
}

/**
 * The verdict on one vitest run: `exit` as the process ended, `reportText` the JSON report's text (null when the
 * file does not exist; the caller deletes it before the run, so an old one is never judged).
 */
export function judgeVitestStage(exit: VitestExit, reportText: string | null): StageVerdict {
  const parsed = parseReport(reportText);
  const report = typeof parsed === 'string' ? null : parsed;
  const fail = (why: string): StageVerdict => ({ ok: false, why, report });
  if (exit.signal) return fail(`vitest was stopped by ${exit.signal}`);
  if (typeof parsed === 'string') return fail(parsed);
  if (parsed.numFailedTests > 0) return fail(`${tests(parsed.numFailedTests)} failed`);
  const failedFiles = parsed.testResults.filter((file) => file.status === 'failed').length;
  if (parsed.numFailedTestSuites > 0 || failedFiles > 0) return fail('a test file or suite failed');
  // A test still queued or running when the report was written: the run was cut short.
  const unfinished = parsed.testResults
    .flatMap((file) => file.assertionResults ?? [])
    .filter((test) => test.status === 'pending').length;
  if (unfinished > 0) return fail(`${tests(unfinished)} did not finish`);
  if (parsed.numTotalTests === 0 || parsed.numPassedTests === 0) return fail('no test ran');
  if (!parsed.success) return fail('the report does not say success');
  if (exit.status !== 0) return fail(`vitest exited ${exit.status}`);
  return { ok: true, report: parsed };
}
