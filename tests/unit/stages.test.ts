/**
 * The one list of API files CI also runs on the embedded database (tests/support/stages.ts, decision 035) stays true:
 * each file exists, each has its reason, every file with cases that start their own process on an embedded data
 * folder is on it (so the PostgreSQL stage may skip them), and the smoke sizes are knobs the listed files read.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_ON_PGLITE, PGLITE_SMOKE_SIZES } from '../support/stages';

const root = path.resolve(import.meta.dirname, '../..');
const apiFiles = readdirSync(path.join(root, 'tests/api'))
  .filter((name) => name.endsWith('.test.ts'))
  .map((name) => `tests/api/${name}`);
const text = (file: string) => readFileSync(path.join(root, file), 'utf8');

describe('API files on PGlite in CI', () => {
  it('names existing API test files, each with its reason', () => {
    for (const [file, reason] of Object.entries(API_ON_PGLITE)) {
      expect(existsSync(path.join(root, file)), file).toBe(true);
      expect(apiFiles).toContain(file);
      expect(reason.length, file).toBeGreaterThan(20);
    }
  });

  it('holds every file whose embedded cases the PostgreSQL stage skips', () => {
    const skipping = apiFiles.filter((file) => text(file).includes('skipEmbeddedCases(import.meta.url)'));
    expect(skipping.length).toBeGreaterThan(0);
    expect(skipping.filter((file) => !(file in API_ON_PGLITE))).toEqual([]);
  });

  it('sizes its smoke runs with knobs the listed files read', () => {
    const listed = Object.keys(API_ON_PGLITE).map(text).join('\n');
    for (const name of Object.keys(PGLITE_SMOKE_SIZES)) expect(listed, name).toContain(`'${name}'`);
  });
});
