/**
 * Reads that go through the owner (docs/decisions/038-module-front-doors.md): who holds which staff action is
 * access's knowledge, so access's group tables are read only inside modules/access; identity and notifications
 * are handed access's read functions (modules/access/holders.ts) by the composition.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const serverDir = path.join(root, 'src/server');
const files = readdirSync(serverDir, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.split(path.sep).join('/'));

/** A query naming one of access's tables: from, any join, or its columns in a reference. */
const ACCESS_TABLES = /(?:selectFrom|Join|whereRef|onRef)\([^)]*'(?:groupUsers|groupActions|groups|actions)[.' ]/;

describe("access's tables", () => {
  it('are read by access (the pattern finds its own reads)', () => {
    const inAccess = files.filter(
      (f) => f.startsWith('modules/access/') && ACCESS_TABLES.test(readFileSync(path.join(serverDir, f), 'utf8')),
    );
    expect(inAccess).toContain('modules/access/holders.ts');
    expect(inAccess).toContain('modules/access/guards.ts');
  });

  it('are read nowhere else: other parts of the server ask access who holds an action', () => {
    const outside = files.filter(
      (f) =>
        !f.startsWith('modules/access/') &&
        !f.startsWith('db/migrations/') &&
        ACCESS_TABLES.test(readFileSync(path.join(serverDir, f), 'utf8')),
    );
    expect(outside).toEqual([]);
  });
});
