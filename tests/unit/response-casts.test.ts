/**
 * The lint guard of API tests (eslint.config.js, RESPONSE_CASTS): a new API test that casts a response body is
 * refused, the typed client's reads pass, and the list of legacy files that may still cast only shrinks.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
let eslint: ESLint;
let LEGACY_UNTYPED_API_TESTS: string[];
let RESPONSE_CASTS: Array<{ selector: string; message: string }>;

beforeAll(async () => {
  eslint = new ESLint({ cwd: root });
  // A path the compiler does not follow: the configuration is plain JavaScript without types.
  const config = (await import(path.join(root, 'eslint.config.js'))) as {
    LEGACY_UNTYPED_API_TESTS: string[];
    RESPONSE_CASTS: typeof RESPONSE_CASTS;
  };
  ({ LEGACY_UNTYPED_API_TESTS, RESPONSE_CASTS } = config);
});

/** The cast refusals ESLint gives for `code` as if it were the file at `filePath` (which need not exist). */
async function castErrors(filePath: string, code: string, linter = eslint): Promise<string[]> {
  const [result] = await linter.lintText(code, { filePath: path.join(root, filePath) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

describe('a cast of a response body in an API test', () => {
  for (const [form, code] of [
    ['body.data as X', `const res = { body: { data: 1 } };\nexport const id = (res.body.data as { id: number }).id;\n`],
    ['body as X', `const res = { body: 1 };\nexport const msg = (res.body as { msg: string }).msg;\n`],
    ['(await res.json()) as X', `export const f = async (res: Response) => (await res.json()) as { ok: true };\n`],
  ] as const) {
    it(`is refused in a new file: ${form}`, async () => {
      const errors = await castErrors('tests/api/a-new.test.ts', code);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toContain('tests/support/typed-api.ts');
    });
  }

  it('is not refused when the answer is read through the typed client', async () => {
    const code = [
      "import { dataOf, type TypedApi } from '../support/typed-api';",
      'export const read = async (api: TypedApi) => {',
      "  const { data } = await api.POST('/api/me/searchRateAlerts');",
      "  return [data!.data.max, (await dataOf(api.POST('/api/me/fetchUserData'))).id];",
      '};',
      '',
    ].join('\n');
    expect(await castErrors('tests/api/a-new.test.ts', code)).toEqual([]);
  });

  it('is let through only in the listed legacy files, each of which still casts (the list only shrinks)', async () => {
    expect(new Set(LEGACY_UNTYPED_API_TESTS).size).toBe(LEGACY_UNTYPED_API_TESTS.length);
    const withRule = new ESLint({
      cwd: root,
      overrideConfig: { rules: { 'no-restricted-syntax': ['error', ...RESPONSE_CASTS] } },
    });
    const stillCasting: string[] = [];
    const results = await withRule.lintFiles(LEGACY_UNTYPED_API_TESTS.filter((f) => existsSync(path.join(root, f))));
    for (const r of results) {
      if (r.messages.some((m) => m.ruleId === 'no-restricted-syntax'))
        stillCasting.push(path.relative(root, r.filePath));
    }
    // A listed file that is gone or casts no more leaves the list.
    expect(LEGACY_UNTYPED_API_TESTS.filter((f) => !stillCasting.includes(f))).toEqual([]);
    const [legacy] = await eslint.lintFiles([LEGACY_UNTYPED_API_TESTS[0]!]);
    expect(legacy!.messages.filter((m) => m.ruleId === 'no-restricted-syntax')).toEqual([]);
  }, 120_000);
});
