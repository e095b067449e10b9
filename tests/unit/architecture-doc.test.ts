/**
 * docs/architecture.md names what the code holds: every folder and file at the top of src/server and every module in
 * "The server", every area of src/web/features in "The web". A new one fails here, by name, until the document says
 * what it is for.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const doc = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');

/** The text of the `## title` section, up to the next section of the same level. */
function section(title: string): string {
  const start = doc.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`docs/architecture.md has no "## ${title}" section`);
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end < 0 ? undefined : end);
}

const entries = (dir: string) => readdirSync(path.join(root, dir), { withFileTypes: true });

describe('docs/architecture.md', () => {
  it('names every folder and file at the top of src/server in "The server"', () => {
    const text = section('The server');
    const named = entries('src/server').map((e) => (e.isDirectory() ? `${e.name}/` : e.name));
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((name) => !text.includes(`\`${name}\``))).toEqual([]);
  });

  it('names every module of src/server/modules in "The server"', () => {
    const text = section('The server');
    const modules = entries('src/server/modules')
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(modules.length).toBeGreaterThan(10);
    expect(modules.filter((name) => !text.includes(`- **${name}** —`))).toEqual([]);
  });

  it('names every area of src/web/features in "The web"', () => {
    const text = section('The web');
    const areas = entries('src/web/features')
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(areas.length).toBeGreaterThan(5);
    expect(areas.filter((name) => !text.includes(`- **\`${name}/\`** —`))).toEqual([]);
  });
});

describe("README.md's notification table", () => {
  it('lists every notification kind of src/shared/notifications.ts', async () => {
    const { NOTIFICATION_KINDS } = await import('../../src/shared/notifications');
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('\n## Notifications\n'));
    const listed = [...table.matchAll(/^\| `([a-zA-Z]+)` +\|/gm)].map((m) => m[1]);
    expect(Object.keys(NOTIFICATION_KINDS).filter((kind) => !listed.includes(kind))).toEqual([]);
  });
});
