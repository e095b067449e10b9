/**
 * The server's walls (docs/architecture.md, "The module order"): the modules stand on floors and import only lower
 * floors; the lower floors (lib, db, http, contract, realtime) import no module and not the composition. The
 * repository's own ESLint configuration refuses each crossing and accepts each allowed import (proved here for
 * every pair of modules, against the order the document writes), and the server's imports form no cycle, between
 * files or between modules.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const serverDir = path.join(root, 'src/server');
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The boundary messages ESLint gives for `code` as if it were the file at `filePath` (which need not exist). */
async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return result!.messages.filter((m) => m.ruleId?.startsWith('boundaries/')).map((m) => m.message);
}

/** The floors as docs/architecture.md lists them, lowest first: one numbered line per floor, modules in backticks. */
function documentedFloors(): string[][] {
  const doc = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');
  const section = doc.slice(doc.indexOf('### The module order'));
  const list = section.slice(0, section.indexOf('\n#', 5));
  return list
    .split('\n')
    .filter((line) => /^\d+\. /.test(line))
    .map((line) => [...line.split(':')[0]!.matchAll(/`([a-z-]+)`/g)].map((m) => m[1]!));
}

const modulesOnDisk = () =>
  readdirSync(path.join(serverDir, 'modules'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();

describe('the module order in lint', () => {
  it('is written once in the architecture notes, naming every module', () => {
    const floors = documentedFloors();
    expect(floors.length).toBeGreaterThan(3);
    expect(floors.flat().sort()).toEqual(modulesOnDisk());
  });

  it('refuses an import of a module on the same floor or above, and accepts one below', async () => {
    const floors = documentedFloors();
    const levelOf = new Map(floors.flatMap((floor, level) => floor.map((m) => [m, level] as const)));
    const wrong: string[] = [];
    for (const from of levelOf.keys()) {
      // One fixture per module importing every other module through its front door, a line each.
      const others = [...levelOf.keys()].filter((to) => to !== from);
      const code = others.map((to, i) => `export * as m${i} from '../${to}';`).join('\n');
      const [result] = await eslint.lintText(`${code}\n`, {
        filePath: path.join(serverDir, 'modules', from, 'fixture.ts'),
      });
      const refusedLines = new Map(
        result!.messages.filter((m) => m.ruleId?.startsWith('boundaries/')).map((m) => [m.line, m.message] as const),
      );
      others.forEach((to, i) => {
        const message = refusedLines.get(i + 1);
        const refused = levelOf.get(to)! >= levelOf.get(from)!;
        const ok = refused ? message?.startsWith('Server modules import only lower floors') : message === undefined;
        if (!ok) wrong.push(`${from} -> ${to}: ${refused ? 'should be refused' : `should pass (${message})`}`);
      });
    }
    expect(wrong).toEqual([]);
  });

  it('refuses a module import made lazily or for a type, and says what the module may import', async () => {
    for (const code of [
      "export const load = () => import('../payments/paying');\n",
      "import type { Principal } from '../identity/profile-review';\nexport type Fixture = Principal;\n",
    ])
      expect(await boundaryErrors('src/server/modules/tasks/fixture.ts', code), code).toEqual([
        expect.stringContaining('tasks may import ledger, settings, storage, sandbox-bank, notifications;'),
      ]);
  });

  it('accepts imports inside one module', async () => {
    expect(
      await boundaryErrors(
        'src/server/modules/fulfilment/fixture.ts',
        "import { lockForDecision } from './settlement';\nexport const fixture = lockForDecision;\n",
      ),
    ).toEqual([]);
  });
});

describe("the server's lower floors in lint", () => {
  it('refuses a lower floor importing a module or the composition', async () => {
    const cases: Array<[string, string]> = [
      ['src/server/realtime/fixture.ts', "import { taskTypes } from '../modules/tasks/task-types';"],
      ['src/server/lib/fixture.ts', "import { postTransaction } from '../modules/ledger/service';"],
      ['src/server/http/fixture.ts', "import type { Catalogue } from '../modules/desks/catalogue';"],
      ['src/server/contract/fixture.ts', "import { buildApp } from '../app';"],
      ['src/server/db/fixture.ts', "import { loadConfig } from '../config';"],
    ];
    for (const [file, line] of cases)
      expect(await boundaryErrors(file, `${line}\nexport const fixture = 1;\n`), file).toEqual([
        expect.stringContaining("The server's lower floors (lib, db, http, contract, realtime) import no module"),
      ]);
  });

  it('accepts a lower floor importing another, and the composition importing modules', async () => {
    expect(
      await boundaryErrors(
        'src/server/realtime/fixture.ts',
        "import { HttpError } from '../http/errors';\nimport { audit } from '../lib/audit';\nexport const all = [HttpError, audit];\n",
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors(
        'src/server/fixture.ts',
        "import { taskTypes } from './modules/tasks';\nexport const fixture = taskTypes;\n",
      ),
    ).toEqual([]);
  });
});

/** Every import, export-from and import() of each server file, resolved as the compiler does, inside src/server. */
function serverImports(): Map<string, string[]> {
  const files = readdirSync(serverDir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.ts$/.test(f))
    .map((f) => path.join(serverDir, f));
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
    resolveJsonModule: true,
  };
  return new Map(
    files.map((file) => {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      const targets = importedFiles
        .map((i) => ts.resolveModuleName(i.fileName, file, options, ts.sys).resolvedModule?.resolvedFileName)
        .filter((t): t is string => Boolean(t && t.startsWith(serverDir + path.sep) && t.endsWith('.ts')));
      return [file, targets];
    }),
  );
}

/** The cycles of a directed graph, each as the path that closes it. */
function cyclesOf(edges: Map<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (node: string, trail: string[]) => {
    if (state.get(node) === 'done') return;
    if (state.get(node) === 'open') {
      cycles.push([...trail.slice(trail.indexOf(node)), node]);
      return;
    }
    state.set(node, 'open');
    for (const next of edges.get(node) ?? []) visit(next, [...trail, node]);
    state.set(node, 'done');
  };
  for (const node of edges.keys()) visit(node, []);
  return cycles;
}

const moduleOf = (file: string) => /modules[\\/]([^\\/]+)[\\/]/.exec(path.relative(serverDir, file))?.[1];

describe('server imports', () => {
  const imports = serverImports();

  it('are read (the composition imports the modules it wires)', () => {
    expect(imports.get(path.join(serverDir, 'app.ts'))).toContain(path.join(serverDir, 'modules/fulfilment/index.ts'));
  });

  it('form no cycle between files', () => {
    const cycles = cyclesOf(imports).map((c) => c.map((f) => path.relative(serverDir, f)).join(' -> '));
    expect(cycles).toEqual([]);
  });

  it('form no cycle between modules, and each goes down the documented order', () => {
    const moduleEdges = new Map<string, Set<string>>();
    for (const [file, targets] of imports) {
      const from = moduleOf(file);
      if (!from) continue;
      for (const target of targets) {
        const to = moduleOf(target);
        if (to && to !== from) moduleEdges.set(from, (moduleEdges.get(from) ?? new Set()).add(to));
      }
    }
    expect(moduleEdges.get('google-ads')).toContain('fulfilment');
    const asLists = new Map([...moduleEdges].map(([m, to]) => [m, [...to]] as const));
    expect(cyclesOf(asLists).map((c) => c.join(' -> '))).toEqual([]);
    const levelOf = new Map(documentedFloors().flatMap((floor, level) => floor.map((m) => [m, level] as const)));
    const upward = [...asLists].flatMap(([from, tos]) =>
      tos.filter((to) => levelOf.get(to)! >= levelOf.get(from)!).map((to) => `${from} -> ${to}`),
    );
    expect(upward).toEqual([]);
  });

  it('never reach a module from a lower floor', () => {
    const floors = ['lib', 'db', 'http', 'contract', 'realtime'];
    const crossings = [...imports].flatMap(([file, targets]) =>
      floors.includes(path.relative(serverDir, file).split(path.sep)[0]!)
        ? targets
            .filter((t) => moduleOf(t))
            .map((t) => `${path.relative(serverDir, file)} -> ${path.relative(serverDir, t)}`)
        : [],
    );
    expect(crossings).toEqual([]);
  });
});
