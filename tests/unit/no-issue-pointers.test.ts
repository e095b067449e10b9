/**
 * A comment or document says which decision (docs/decisions/) or SPEC section it means, never "issue N": the
 * tracker is not in the repository, so a reader has nowhere to follow such a pointer. Migration files are frozen
 * once released (a checksum per file, decision 008), so their first lines keep what they said.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const FROZEN = 'src/server/db/migrations/';
const POINTER = /\bissues? #?\d+/i;

function filesUnder(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)));
}

/** Every `file:line` under the folders given whose text points to an issue. */
function pointers(dirs: string[]): string[] {
  const found: string[] = [];
  for (const file of dirs.flatMap(filesUnder)) {
    if (file.startsWith(FROZEN) || !/\.(ts|tsx|mjs|js|md|yaml|json|css|html)$/.test(file)) continue;
    readFileSync(path.join(root, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (POINTER.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
      });
  }
  return found;
}

describe('pointers to the issue tracker', () => {
  it('are in no comment of src/ and nowhere in docs/, openapi/ or README.md', () => {
    expect(pointers(['src', 'docs', 'openapi'])).toEqual([]);
    expect(POINTER.test(readFileSync(path.join(root, 'README.md'), 'utf8'))).toBe(false);
  });

  it('are found where they are written', () => {
    expect(POINTER.test('// Refused before a byte is inflated (issue 43).')).toBe(true);
    expect(POINTER.test('-- Issue 43: user_cards.card_hash was the plain SHA-256')).toBe(true);
    expect(POINTER.test(' * (decision 031, «A refused restore»)')).toBe(false);
  });
});
