/**
 * The walls of docs/decisions/006-web-layers.md hold: the repository's own ESLint configuration refuses an
 * import that crosses one (a component importing a feature, a feature another feature, lib a component,
 * anything importing app, server and web each other) and accepts the imports each layer may make; and the web's
 * imports form no cycle.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
let eslint: ESLint;

/** The messages ESLint gives for `code` as if it were the file at `filePath` (which need not exist). */
async function lint(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

const boundaryErrors = async (filePath: string, code: string) =>
  (await lint(filePath, code)).filter((m) => m.startsWith('boundaries/'));

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

describe('web layers in lint', () => {
  it('refuses a component that imports a feature', async () => {
    const errors = await boundaryErrors(
      'src/web/components/shell/Fixture.tsx',
      "import { LoginForm } from '../../features/auth/LoginForm';\nexport const Fixture = LoginForm;\n",
    );
    expect(errors).toEqual([expect.stringContaining('Components know no feature')]);
  });

  it('refuses a feature that imports another feature, statically, lazily or for a type', async () => {
    const file = 'src/web/features/profile/Fixture.tsx';
    for (const code of [
      "import { PriceSummary } from '../catalogue/PriceSummary';\nexport const Fixture = PriceSummary;\n",
      "export const load = () => import('../catalogue/DeskPage');\n",
      "import type { Quote } from '../catalogue/PriceSummary';\nexport type Fixture = Quote;\n",
    ])
      expect(await boundaryErrors(file, code), code).toEqual([
        expect.stringContaining('Features never import each other'),
      ]);
  });

  it('refuses lib importing a component, and a feature importing app', async () => {
    expect(
      await boundaryErrors(
        'src/web/lib/fixture.ts',
        "import { showSnackbar } from '../components/shell/snackbar';\nexport const fixture = showSnackbar;\n",
      ),
    ).toEqual([expect.stringContaining('lib is the bottom of the web')]);
    expect(
      await boundaryErrors(
        'src/web/features/auth/fixture.ts',
        "import { PAGES } from '../../app/pages';\nexport const fixture = PAGES;\n",
      ),
    ).toEqual([expect.stringContaining('Nothing imports app')]);
  });

  it('refuses the server and the web importing each other, and shared importing either', async () => {
    expect(
      await boundaryErrors(
        'src/server/fixture.ts',
        "import { routes } from '../web/lib/routes';\nexport const fixture = routes;\n",
      ),
    ).toEqual([expect.stringContaining('The server does not import the web')]);
    expect(
      await boundaryErrors(
        'src/web/lib/fixture.ts',
        "import { loadConfig } from '../../server/config';\nexport const fixture = loadConfig;\n",
      ),
    ).toEqual([expect.stringContaining('The web does not import the server')]);
    expect(
      await boundaryErrors(
        'src/shared/fixture.ts',
        "import { routes } from '../web/lib/routes';\nexport const fixture = routes;\n",
      ),
    ).toEqual([expect.stringContaining('src/shared imports neither')]);
  });

  it('accepts what each layer may import', async () => {
    const cases: Array<[string, string]> = [
      // A feature: its own area (management's sub-folders included), components, lib, shared.
      [
        'src/web/features/management/access/Fixture.tsx',
        [
          "import { TablePage } from '../TablePage';",
          "import { ConfirmDialog } from './ConfirmDialog';",
          "import { DataTable } from '../../../components/data-table/DataTable';",
          "import { api } from '../../../lib/api-client';",
          "import { formatRial } from '../../../../shared/format';",
          'export const all = [TablePage, ConfirmDialog, DataTable, api, formatRial];',
        ].join('\n'),
      ],
      // A component: other components and lib.
      [
        'src/web/components/Fixture.tsx',
        "import { LoadError } from './states/LoadError';\nimport { userAtom } from '../lib/session';\nexport const all = [LoadError, userAtom];\n",
      ],
      // The app: features, lazily or not.
      [
        'src/web/app/Fixture.tsx',
        "import ErrorPage from '../features/errors/ErrorPage';\nexport const all = [ErrorPage, () => import('../features/auth/LoginPage')];\n",
      ],
    ];
    for (const [file, code] of cases) expect(await lint(file, code), file).toEqual([]);
  });
});

describe('web imports', () => {
  it('form no cycle', () => {
    const web = path.join(root, 'src/web');
    const files = readdirSync(web, { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.tsx?$/.test(f))
      .map((f) => path.join(web, f));
    const options: ts.CompilerOptions = {
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      allowImportingTsExtensions: true,
      resolveJsonModule: true,
    };
    // Every import, export-from and import() of each file, resolved as the compiler does, kept inside src/web.
    const edges = new Map(
      files.map((file) => {
        const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
        const targets = importedFiles
          .map((i) => ts.resolveModuleName(i.fileName, file, options, ts.sys).resolvedModule?.resolvedFileName)
          .filter((t): t is string => Boolean(t && t.startsWith(web + path.sep) && /\.tsx?$/.test(t)));
        return [file, targets];
      }),
    );
    expect(edges.get(path.join(web, 'app/App.tsx'))).toContain(path.join(web, 'app/pages.ts'));

    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, trail: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push([...trail.slice(trail.indexOf(file)), file].map((f) => path.relative(web, f)).join(' -> '));
        return;
      }
      state.set(file, 'open');
      for (const next of edges.get(file) ?? []) visit(next, [...trail, file]);
      state.set(file, 'done');
    };
    for (const file of files) visit(file, []);
    expect(cycles).toEqual([]);
  });
});
