import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { SLOW_FIRST } from '../support/slow-first-sequencer';

const root = path.resolve(import.meta.dirname, '../..');

it('names only test files that exist, so a renamed slow file is not started last unnoticed', () => {
  expect(SLOW_FIRST.filter((file) => !existsSync(path.join(root, file)))).toEqual([]);
});
