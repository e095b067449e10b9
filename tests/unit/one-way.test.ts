/**
 * What every module does the same way is written once (decision 007): paging and the list envelope, text search,
 * replacing a join table's rows, making an Ajv and reading system parameters each live in one file, and no other
 * source file does them by hand. Each rule names the pattern that gives a copy away and the only files allowed it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** The server, where the rules are about, and every side that makes an Ajv. */
const sources = ['src/server', 'src/shared', 'src/web', 'codegen']
  .flatMap((dir) =>
    readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && /\.tsx?$/.test(e.name))
      .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/')),
  )
  .sort();
const text = new Map(sources.map((file) => [file, readFileSync(path.join(root, file), 'utf8')]));

const inside = (file: string, places: string[]) =>
  places.some((p) => (p.endsWith('/') ? file.startsWith(p) : file === p));

/** Files under `scope` other than `allowed` (paths, or folders ending in '/') whose text matches `pattern`. */
function copiesOutside(pattern: RegExp, allowed: string[], scope: string[]): string[] {
  return sources.filter((file) => inside(file, scope) && !inside(file, allowed) && pattern.test(text.get(file)!));
}

const SERVER = ['src/server/'];
const EVERYWHERE = ['src/', 'codegen/'];

const RULES: Array<{ what: string; pattern: RegExp; home: string[]; scope: string[] }> = [
  {
    what: 'paging: LIMIT/OFFSET from page and perPage',
    pattern: /\.offset\(|perPage \?\?/,
    home: ['src/server/lib/paging.ts'],
    scope: SERVER,
  },
  {
    what: 'the list total: count(*) as total',
    pattern: /count\(\*\)::int`\.as\('total'\)/,
    home: ['src/server/lib/paging.ts'],
    scope: SERVER,
  },
  {
    what: 'text search: ILIKE and its escaped pattern',
    pattern: /'ilike'|likePattern\(|\.includes\(needle/,
    home: ['src/server/lib/sql.ts'],
    scope: SERVER,
  },
  {
    what: 'a staff list search: text columns or, for a whole number, an id (textOrId)',
    pattern: /\^\\d\{1,15\}\$\/\.test\(/,
    home: ['src/server/lib/sql.ts'],
    scope: SERVER,
  },
  {
    what: "replacing a join table's rows",
    pattern: /deleteFrom\('group(?:Users|Actions)'\)/,
    home: [],
    scope: SERVER,
  },
  {
    what: 'making an Ajv: the class, ajv-formats and the shared keywords',
    pattern: /new Ajv(?:2020)?\(|addFormats\(|addSharedKeywords\(|ajvOptionsOverrides/,
    home: [
      'src/shared/validation/ajv.ts',
      'src/shared/validation/ajv-keywords.ts',
      'src/shared/validation/standalone.ts',
    ],
    scope: EVERYWHERE,
  },
  {
    what: 'reading or writing system parameters',
    pattern: /From\('systemParameters'\)|Table\('systemParameters'\)|Into\('systemParameters'\)/,
    home: ['src/server/modules/settings/'],
    scope: SERVER,
  },
  {
    what: "system parameters' defaults on the server",
    pattern: /systemParameters\.json/,
    home: ['src/server/modules/settings/'],
    scope: SERVER,
  },
];

describe('one way to do each thing', () => {
  it('reads the source it checks', () => {
    expect(sources).toContain('src/server/lib/paging.ts');
    expect(sources).toContain('src/server/modules/access/handlers.ts');
    expect(sources).toContain('codegen/validate-schemas.ts');
  });

  for (const rule of RULES) {
    it(`${rule.what}: only in ${rule.home.join(', ') || 'access/join-rows.ts (by a table picked at run time)'}`, () => {
      expect(copiesOutside(rule.pattern, rule.home, rule.scope)).toEqual([]);
    });
  }

  it('each home holds what the rule says', () => {
    for (const rule of RULES) {
      for (const home of rule.home.filter((h) => !h.endsWith('/'))) {
        expect(text.get(home), home).toBeDefined();
      }
    }
    expect(text.get('src/server/modules/access/join-rows.ts')).toMatch(/deleteFrom\(side\.table\)/);
    // The staff list search's pattern finds the one real copy, so a copy elsewhere would be caught.
    const staffSearch = RULES.find((r) => r.what.startsWith('a staff list search'))!;
    expect(text.get('src/server/lib/sql.ts')).toMatch(staffSearch.pattern);
  });
});
