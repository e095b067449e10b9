/**
 * Front doors (docs/decisions/038-module-front-doors.md): each server module has an index.ts, and from outside a
 * module only that index may be imported. The repository's own ESLint configuration refuses a deep import across
 * modules (from a module or from the composition), for a value, a type or lazily, and accepts the same import
 * through the index; and no file of the server imports another module's internal file today.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const serverDir = path.join(root, 'src/server');
const modulesDir = path.join(serverDir, 'modules');
const DOOR_MESSAGE = 'Import another module through its front door (its index.ts)';
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

const modules = () =>
  readdirSync(modulesDir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();

/** The boundary messages ESLint gives for `code` as if it were the file at `filePath` (which need not exist). */
async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return result!.messages.filter((m) => m.ruleId?.startsWith('boundaries/')).map((m) => m.message);
}

describe('front doors in lint', () => {
  it('every module has an index.ts', () => {
    const missing = modules().filter((m) => !existsSync(path.join(modulesDir, m, 'index.ts')));
    expect(modules().length).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });

  it('refuses a deep import of a lower module, for a value, a type or lazily, and accepts its index', async () => {
    const cases = [
      "import { postTransaction } from '../ledger/service';\nexport const fixture = postTransaction;\n",
      "import type { TaskDto } from '../tasks/service';\nexport type Fixture = TaskDto;\n",
      "export const load = () => import('../notifications/notify');\n",
      "export { seedAccess } from '../access/seed';\n",
    ];
    for (const code of cases) {
      expect(await boundaryErrors('src/server/modules/payments/fixture.ts', code), code).toEqual([
        expect.stringContaining(DOOR_MESSAGE),
      ]);
      const throughDoor = code.replace(/'\.\.\/([a-z-]+)\/[a-z-]+'/, "'../$1'");
      expect(throughDoor).not.toEqual(code);
      expect(await boundaryErrors('src/server/modules/payments/fixture.ts', throughDoor), throughDoor).toEqual([]);
    }
  });

  it('refuses a deep import from the composition and the other server files, and accepts the index', async () => {
    for (const file of ['src/server/fixture.ts', 'src/server/backup/fixture.ts']) {
      const prefix = file.startsWith('src/server/backup/') ? '../modules' : './modules';
      expect(
        await boundaryErrors(
          file,
          `import { taskTypes } from '${prefix}/tasks/task-types';\nexport const f = taskTypes;\n`,
        ),
      ).toEqual([expect.stringContaining(DOOR_MESSAGE)]);
      expect(
        await boundaryErrors(file, `import { taskTypes } from '${prefix}/tasks';\nexport const f = taskTypes;\n`),
      ).toEqual([]);
    }
  });

  it('still refuses a door on the same floor or above with the floor message', async () => {
    expect(
      await boundaryErrors(
        'src/server/modules/tasks/fixture.ts',
        "export { fulfilmentHandlers } from '../fulfilment';\n",
      ),
    ).toEqual([expect.stringContaining('Server modules import only lower floors')]);
  });

  it('accepts deep imports inside one module', async () => {
    expect(
      await boundaryErrors(
        'src/server/modules/ledger/fixture.ts',
        "import { postTransaction } from './service';\nexport const fixture = postTransaction;\n",
      ),
    ).toEqual([]);
  });
});

describe('server imports', () => {
  it("never reach another module's internal file", () => {
    const options: ts.CompilerOptions = {
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      allowImportingTsExtensions: true,
      resolveJsonModule: true,
    };
    const moduleOf = (file: string) => /^modules[\\/]([^\\/]+)[\\/]/.exec(path.relative(serverDir, file))?.[1];
    const files = readdirSync(serverDir, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .map((f) => path.join(serverDir, f));
    let crossings = 0;
    const deep = files.flatMap((file) => {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
      return importedFiles.flatMap(({ fileName }) => {
        const target = ts.resolveModuleName(fileName, file, options, ts.sys).resolvedModule?.resolvedFileName;
        const to = target && moduleOf(target);
        if (!target || !to || to === moduleOf(file)) return [];
        crossings += 1;
        return target === path.join(modulesDir, to, 'index.ts')
          ? []
          : [`${path.relative(serverDir, file)} -> ${fileName}`];
      });
    });
    // The check reads real crossings: the composition alone goes through many doors.
    expect(crossings).toBeGreaterThan(50);
    expect(deep).toEqual([]);
  });
});
