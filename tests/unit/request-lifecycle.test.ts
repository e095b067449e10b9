/**
 * The request lifecycle's promises, read from the source (decision 037): a request's state and its history are
 * written only by src/server/modules/requests/lifecycle.ts (every insertInto/updateTable of `purchases` whose values'
 * type has `state`, every write of `purchase_state_changes`, and the same in SQL text, read with the TypeScript compiler); every
 * event of schemas/requests/lifecycle.json is run by some call of the one writer (the event argument's type, as the
 * compiler narrows it) and names contract operations that exist; and the table's check refuses a broken table.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_ACTION_NAMES } from '../../src/shared/audit/names';
import { NOTIFICATION_KIND_NAMES } from '../../src/shared/notifications';
import { lifecycle, lifecycleProblems, PAID_STATES, UNFULFILLED_STATES } from '../../src/shared/request-lifecycle';
import { transactionTypes } from '../../src/server/modules/ledger/types';
import { taskTypes } from '../../src/server/modules/tasks/task-types';

const root = path.resolve(import.meta.dirname, '../..');
const serverDir = path.join(root, 'src/server');
const OWNER = 'src/server/modules/requests/lifecycle.ts';

const tsFiles = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();

const FIXTURE = path.join(root, 'tests/fixtures/request-lifecycle/writes-state.ts');

let shared: ts.Program | undefined;

/**
 * One program of the server and the fixture for every case here (each scan reads only the files it is given):
 * building it is most of this file's seconds.
 */
function program(): ts.Program {
  if (shared) return shared;
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
  shared = ts.createProgram([...tsFiles(serverDir), FIXTURE], config.options);
  return shared;
}

const SQL_STATE_WRITE =
  /\bupdate\s+purchases\b[^;]*\bset\b[^;]*\bstate\s*=|\binsert\s+into\s+purchase_state_changes\b/i;

/** The table a query chain starts from (`db.updateTable('purchases').where(…)` → purchases), if it writes one. */
function tableOfChain(node: ts.Expression): string | null {
  let at: ts.Expression = node;
  while (ts.isCallExpression(at) && ts.isPropertyAccessExpression(at.expression)) {
    const name = at.expression.name.text;
    if (
      (name === 'updateTable' || name === 'insertInto') &&
      at.arguments[0] &&
      ts.isStringLiteralLike(at.arguments[0])
    ) {
      return at.arguments[0].text;
    }
    at = at.expression.expression;
  }
  return null;
}

/** Where `files` write a request's state or its history, as `file:line what`. */
function stateWrites(files: string[]): string[] {
  const p = program();
  const checker = p.getTypeChecker();
  const found: string[] = [];
  for (const file of files) {
    const source = p.getSourceFile(file)!;
    const at = (node: ts.Node) =>
      `${path.relative(root, file)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.arguments[0]) {
        const method = node.expression.name.text;
        const table = ts.isStringLiteralLike(node.arguments[0]) ? node.arguments[0].text : null;
        if ((method === 'insertInto' || method === 'updateTable') && table === 'purchaseStateChanges') {
          found.push(`${at(node)} writes purchaseStateChanges`);
        }
        if ((method === 'set' || method === 'values') && tableOfChain(node.expression.expression) === 'purchases') {
          // Whatever the argument is written as (a literal, a spread, a variable), its type says whether it sets state.
          if (checker.getTypeAtLocation(node.arguments[0]).getProperty('state')) {
            found.push(`${at(node)} ${method} on purchases may set state`);
          }
        }
      }
      if (ts.isTaggedTemplateExpression(node) && /^sql\b/.test(node.tag.getText(source))) {
        if (SQL_STATE_WRITE.test(node.template.getText(source))) found.push(`${at(node)} SQL writes state`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** The events the server's calls of the one writer can run: each call's event argument, as the compiler types it. */
function eventsRun(): Set<string> {
  const files = tsFiles(serverDir);
  const p = program();
  const checker = p.getTypeChecker();
  const events = new Set<string>();
  for (const file of files) {
    const source = p.getSourceFile(file)!;
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node)) {
        const callee = node.expression.getText(source);
        if (callee === 'runRequestEvent' && node.arguments[2]) {
          const type = checker.getTypeAtLocation(node.arguments[2]);
          for (const part of type.isUnion() ? type.types : [type]) {
            if (part.isStringLiteral()) events.add(part.value);
          }
        }
        if (callee === 'recordSubmitted') events.add('submitted');
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return events;
}

describe('the request lifecycle', () => {
  // The one program the scans read, built before the cases (seconds; more on a busy machine: a hang limit).
  beforeAll(() => void program(), 180_000);

  it('writes a request state and its history only in the one writer', () => {
    const writes = stateWrites(tsFiles(serverDir));
    expect(writes.filter((w) => !w.startsWith(OWNER))).toEqual([]);
    // The scan sees the owner's own writes: it is looking at the right thing.
    expect(writes.filter((w) => w.startsWith(OWNER)).length).toBeGreaterThanOrEqual(3);
  });

  it('the scan catches a state written elsewhere, by Kysely and by SQL text', () => {
    expect(stateWrites([FIXTURE]).map((w) => w.replace(/^.*writes-state\.ts:\d+ /, ''))).toEqual([
      'set on purchases may set state',
      'writes purchaseStateChanges',
      'SQL writes state',
    ]);
  });

  it('runs every event of the table from some operation, and each named operation exists', () => {
    const run = eventsRun();
    expect(lifecycle.events.map((e) => e.event).filter((e) => !run.has(e))).toEqual([]);
    expect([...run].filter((e) => !lifecycle.events.some((d) => d.event === e))).toEqual([]);
    const contract = readFileSync(path.join(root, 'openapi/openapi.yaml'), 'utf8');
    const operations = new Set([...contract.matchAll(/operationId: (\w+)/g)].map((m) => m[1]));
    const missing = lifecycle.events.flatMap((e) => e.operations.filter((o) => !operations.has(o)));
    expect(missing).toEqual([]);
  });

  it('derives the state lists the code used to write out', () => {
    expect(UNFULFILLED_STATES).toEqual(['paid', 'inProgress']);
    expect(PAID_STATES).toEqual(['paid', 'inProgress', 'purchaseSucceeded', 'purchaseFailed', 'purchaseInvalidated']);
  });

  it('the table check passes the table and refuses a broken one', () => {
    const known = {
      transactionNames: transactionTypes.flatMap((t) => [t.name, ...(t.aliases ?? []).map((a) => a.name)]),
      notificationKinds: NOTIFICATION_KIND_NAMES,
      taskTypes: taskTypes.map((t) => t.identifier),
      auditActions: Object.keys(AUDIT_ACTION_NAMES),
    };
    expect(lifecycleProblems(lifecycle, known)).toEqual([]);
    const broken = structuredClone(lifecycle);
    const taken = broken.events.find((e) => e.event === 'taken')!;
    taken.postings = ['noSuchPosting'];
    broken.events = broken.events.filter((e) => e.event !== 'cancelled') as typeof broken.events;
    broken.events.find((e) => e.event === 'done')!.from.push('purchaseFailed');
    expect(lifecycleProblems(broken, known).map((p) => p.message)).toEqual([
      "noSuchPosting is not a ledger transaction type's name",
      'purchaseFailed is final: no event starts from it',
      'state cancelled is reached by no event',
    ]);
  });
});
