/**
 * Each table has one writer (docs/decisions/007-table-ownership.md): every insertInto, updateTable and
 * deleteFrom call and every SQL text under src/server is read with the TypeScript compiler, its table named from
 * the argument's type (so a table picked at run time from a union of names counts as each of them), and checked
 * against src/server/db/table-owners.ts. Every table the migrations and the generated types know needs an owner,
 * and docs/architecture.md lists the same map.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { TABLE_OWNERS } from '../../src/server/db/table-owners';

const root = path.resolve(import.meta.dirname, '../..');
const serverDir = path.join(root, 'src/server');
const owners: Record<string, string> = TABLE_OWNERS;

interface Write {
  table: string;
  /** `modules/<name>` for files of a module, else the file's path under the scanned root. */
  unit: string;
  where: string;
}

const WRITE_METHODS = new Set(['insertInto', 'updateTable', 'deleteFrom', 'replaceInto', 'mergeInto']);
/** Statements that change rows, in SQL text (not `on conflict do update set`, not `for update`). */
const SQL_WRITE =
  /\b(?:insert\s+into|delete\s+from|truncate(?:\s+table)?|merge\s+into)\s+(?:only\s+)?([a-z_]\w*)|\bupdate\s+(?:only\s+)?(?!set\b)([a-z_]\w*)\s+(?:(?:as\s+)?[a-z_]\w*\s+)?set\b/gi;

/** Kysely names tables in camelCase; the CamelCasePlugin turns them into the database's snake_case. */
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

const tsFiles = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();

function unitOf(scanRoot: string, file: string): string {
  const rel = path.relative(scanRoot, file).split(path.sep).join('/');
  return /^modules\/[^/]+\//.test(rel) ? rel.split('/').slice(0, 2).join('/') : rel;
}

/** Every row-changing call and SQL statement in `files`, with the table(s) it names. */
function scanWrites(scanRoot: string, files: string[]): Write[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  )!;
  const program = ts.createProgram(files, config.options);
  const checker = program.getTypeChecker();
  const writes: Write[] = [];
  for (const file of files) {
    const source = program.getSourceFile(file)!;
    const unit = unitOf(scanRoot, file);
    const at = (node: ts.Node) =>
      `${path.relative(root, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    const sqlText = (text: string, node: ts.Node) => {
      for (const m of text.matchAll(SQL_WRITE))
        writes.push({ table: (m[1] ?? m[2]!).toLowerCase(), unit, where: at(node) });
    };
    const visit = (node: ts.Node) => {
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        WRITE_METHODS.has(node.expression.name.text) &&
        node.arguments[0]
      ) {
        const type = checker.getTypeAtLocation(node.arguments[0]);
        for (const part of type.isUnion() ? type.types : [type]) {
          // A table name the compiler cannot narrow to literals could be any table: reported as such.
          const table = part.isStringLiteral() ? snake(part.value) : `<${checker.typeToString(part)}>`;
          writes.push({ table, unit, where: at(node) });
        }
      }
      if (ts.isTaggedTemplateExpression(node) && /^sql\b/.test(node.tag.getText(source))) {
        sqlText(node.template.getText(source), node);
      }
      if (
        ts.isCallExpression(node) &&
        node.expression.getText(source) === 'sql.raw' &&
        node.arguments[0] &&
        ts.isStringLiteralLike(node.arguments[0])
      ) {
        sqlText(node.arguments[0].text, node);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return writes;
}

const foreignWrites = (writes: Write[]) =>
  writes
    .filter((w) => owners[w.table] !== w.unit)
    .map((w) => `${w.where}: ${w.unit} writes ${w.table}, owned by ${owners[w.table] ?? 'nobody'}`);

/** Tables the migrations create (SQL files or Kysely's createTable), the generated types and the runner's own. */
function knownTables(): Set<string> {
  const tables = new Set<string>();
  const migrations = path.join(serverDir, 'db/migrations');
  for (const name of readdirSync(migrations).sort()) {
    const text = readFileSync(path.join(migrations, name), 'utf8').replace(/--.*$/gm, '');
    for (const m of text.matchAll(
      /\b(create\s+table(?:\s+if\s+not\s+exists)?|drop\s+table(?:\s+if\s+exists)?)\s+([a-z_][a-z0-9_]*)|createTable\(\s*['"]([a-z_][a-z0-9_]*)['"]/gi,
    )) {
      const table = (m[2] ?? m[3]!).toLowerCase();
      if (m[1]?.toLowerCase().startsWith('drop')) tables.delete(table);
      else tables.add(table);
    }
    for (const m of text.matchAll(/\balter\s+table\s+([a-z_][a-z0-9_]*)\s+rename\s+to\s+([a-z_][a-z0-9_]*)/gi)) {
      tables.delete(m[1]!.toLowerCase());
      tables.add(m[2]!.toLowerCase());
    }
  }
  const types = readFileSync(path.join(root, 'src/generated/db.ts'), 'utf8');
  const dbInterface = /export interface DB \{([^}]*)\}/.exec(types)?.[1] ?? '';
  for (const m of dbInterface.matchAll(/^\s*(\w+):/gm)) tables.add(snake(m[1]!));
  for (const file of tsFiles(path.join(serverDir, 'db'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/create\s+table\s+if\s+not\s+exists\s+([a-z_][a-z0-9_]*)/gi)) tables.add(m[1]!);
  }
  return tables;
}

describe('table owners', () => {
  const writes = scanWrites(serverDir, tsFiles(serverDir));

  it('finds the writes it is meant to check', () => {
    const tables = new Set(writes.map((w) => w.table));
    for (const table of ['users', 'tasks', 'group_users', 'group_actions', 'system_parameters', 'audit_log']) {
      expect(tables, table).toContain(table);
    }
  });

  it('every write to a table is made by its owner', () => {
    expect(foreignWrites(writes)).toEqual([]);
  });

  it('every table has an owner, and every owner entry names a table', () => {
    const tables = knownTables();
    expect([...tables].filter((t) => !(t in owners)).sort(), 'tables without an owner').toEqual([]);
    expect(
      Object.keys(owners)
        .filter((t) => !tables.has(t))
        .sort(),
      'owners of no table',
    ).toEqual([]);
  });

  it('names owners that exist', () => {
    for (const owner of new Set(Object.values(owners))) {
      const where = path.join(serverDir, owner);
      expect(
        tsFiles(path.dirname(where)).some((f) => f === where || f.startsWith(`${where}/`)),
        owner,
      ).toBe(true);
    }
  });

  it('docs/architecture.md lists the same map', () => {
    const doc = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');
    const section = /^### Table owners$([\s\S]*?)(?=^#{1,3} )/m.exec(`${doc}\n# end`)?.[1] ?? '';
    const listed = Object.fromEntries(
      [...section.matchAll(/^\|\s*`([a-z0-9_]+)`\s*\|\s*`([^`]+)`\s*\|/gm)].map((m) => [m[1], m[2]]),
    );
    expect(listed).toEqual(owners);
  });

  it('fails on a module that writes a table it does not own', () => {
    // A fixture "tasks" module writing users by a Kysely call and by SQL text, one of two tables picked at run
    // time, and a table named by a plain string.
    const fixtureRoot = path.join(root, 'tests/fixtures/table-owners');
    const found = foreignWrites(scanWrites(fixtureRoot, tsFiles(fixtureRoot)));
    expect(found.map((f) => f.replace(/^.*writes-users\.ts:\d+: /, ''))).toEqual([
      'modules/tasks writes users, owned by modules/identity',
      'modules/tasks writes users, owned by modules/identity',
      'modules/tasks writes group_users, owned by modules/access',
      'modules/tasks writes <string>, owned by nobody',
    ]);
  });
});
