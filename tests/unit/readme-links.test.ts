/** A fresh clone has only the repository: README and docs link to nothing outside it, and every link resolves. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const docs = [
  'README.md',
  ...readdirSync(path.join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => path.join('docs', f)),
];

/** Relative link targets of a Markdown file ([text](target)), without anchors. */
function relativeLinks(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => (m[1] ?? '').split('#')[0] ?? '')
    .filter((target) => target !== '' && !/^[a-z]+:/i.test(target));
}

describe('README and docs', () => {
  it('README names no file outside the repository', () => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    expect(readme).not.toContain('](../');
    expect(readme).not.toMatch(/`\.\.\/shared\//);
  });

  it.each(docs)('%s links only to files inside the repository that exist', (file) => {
    const dir = path.dirname(path.join(root, file));
    for (const target of relativeLinks(readFileSync(path.join(root, file), 'utf8'))) {
      const resolved = path.resolve(dir, target);
      expect(path.relative(root, resolved).startsWith('..'), `${file} → ${target}`).toBe(false);
      expect(existsSync(resolved), `${file} → ${target}`).toBe(true);
    }
  });
});
