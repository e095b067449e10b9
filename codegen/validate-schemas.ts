/**
 * Validates every JSON file under schemas/ against the meta-schema its "$schema" names
 * (meta-schemas themselves against JSON Schema 2020-12). Prints file, JSON pointer and message per error.
 * Then checks the references files make to each other, which a meta-schema cannot: a desk's form type exists
 * (any file under forms/ is one), every `comps` key names a field of that form (nested by path,
 * `billingAddress/city`), a form's `priceInputs`, `amountField` and `staffOnlyFields` name its fields, its schema
 * compiles with the shared keywords, every field has a title, and every `x-messages` key exists in
 * messages/fa.json; and that a plan template's steps name desks that exist, in a currency the desk takes, prefilling
 * only fields of its form (planProblems); and that the request lifecycle names states it lists, ledger types, notification
 * kinds, task types and audit actions that exist, with every state reachable (lifecycleProblems).
 * Usable as a library: `validateSchemaTree(dir)` returns the errors (tests point it at a temporary copy).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  type CatalogueDocument,
  messageKeyProblems,
  calendarProblems,
  metaProblem,
  planProblems,
  referenceProblems,
} from '../src/shared/catalogue-check';
import { createAjv } from '../src/shared/validation/ajv';
import { AUDIT_ACTION_NAMES } from '../src/shared/audit/names';
import { NOTIFICATION_KIND_NAMES } from '../src/shared/notifications';
import { lifecycleProblems } from '../src/shared/request-lifecycle';
import type { RequestLifecycle } from '../src/generated/schemas/requestLifecycle';

export interface SchemaProblem {
  file: string;
  pointer: string;
  message: string;
}

async function listJson(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.json'))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

export async function validateSchemaTree(schemasDir: string): Promise<SchemaProblem[]> {
  const ajv = createAjv({ allErrors: true, strict: true, allowUnionTypes: true, verbose: false });
  const problems: SchemaProblem[] = [];
  const files = await listJson(schemasDir);
  const parsed = new Map<string, unknown>();
  for (const file of files) {
    try {
      parsed.set(file, JSON.parse(await readFile(file, 'utf8')));
    } catch (error) {
      problems.push({ file, pointer: '', message: `not valid JSON: ${(error as Error).message}` });
    }
  }
  const metaDir = path.join(schemasDir, 'meta');
  const validators = new Map<string, ReturnType<typeof ajv.compile>>();
  for (const [file, schema] of parsed) {
    if (path.dirname(file) !== metaDir) continue;
    try {
      validators.set(file, ajv.compile(schema as object));
    } catch (error) {
      problems.push({ file, pointer: '', message: `invalid meta-schema: ${(error as Error).message}` });
    }
  }
  for (const [file, data] of parsed) {
    if (path.dirname(file) === metaDir) continue;
    const ref = (data as { $schema?: unknown })?.$schema;
    if (typeof ref !== 'string') {
      problems.push({ file, pointer: '/$schema', message: 'missing "$schema" naming its meta-schema' });
      continue;
    }
    const metaFile = path.resolve(path.dirname(file), ref);
    const validate = validators.get(metaFile);
    if (!validate) {
      problems.push({ file, pointer: '/$schema', message: `meta-schema ${ref} not found under schemas/meta` });
      continue;
    }
    if (!validate(data)) {
      for (const error of validate.errors ?? []) {
        const { pointer, message } = metaProblem(file, error);
        problems.push({ file, pointer, message });
      }
    }
  }
  problems.push(...checkReferences(schemasDir, parsed));
  return problems;
}

function checkReferences(schemasDir: string, parsed: Map<string, unknown>): SchemaProblem[] {
  const messages = (parsed.get(path.join(schemasDir, 'messages/fa.json')) as { messages?: Record<string, string> })
    ?.messages;
  const documentsIn = (dir: string): CatalogueDocument[] =>
    [...parsed].filter(([file]) => path.dirname(file) === dir).map(([file, data]) => ({ file, data }));
  const problems: SchemaProblem[] = referenceProblems(
    documentsIn(path.join(schemasDir, 'forms')),
    documentsIn(path.join(schemasDir, 'catalogue/desks')),
  );
  problems.push(
    ...planProblems(
      documentsIn(path.join(schemasDir, 'plans')),
      documentsIn(path.join(schemasDir, 'catalogue/desks')),
      documentsIn(path.join(schemasDir, 'forms')),
    ),
  );
  problems.push(...calendarProblems(documentsIn(path.join(schemasDir, 'calendars'))));
  problems.push(...lifecycleCheck(schemasDir, parsed));
  if (messages) {
    for (const [file, data] of parsed) {
      if (path.dirname(file) === path.join(schemasDir, 'meta')) continue;
      problems.push(...messageKeyProblems({ file, data }, messages));
    }
  }
  return problems.map(({ file, pointer, message }) => ({ file, pointer, message }));
}

/** The request lifecycle against the ledger's types, the task types, the notification kinds and the audit actions. */
function lifecycleCheck(schemasDir: string, parsed: Map<string, unknown>): SchemaProblem[] {
  const file = path.join(schemasDir, 'requests/lifecycle.json');
  const doc = parsed.get(file) as RequestLifecycle | undefined;
  if (!doc?.events || !doc.states) return [];
  const ledger = parsed.get(path.join(schemasDir, 'ledger/transactionTypes.json')) as
    { transactionTypes?: Array<{ name: string; aliases?: Array<{ name: string }> }> } | undefined;
  const tasks = parsed.get(path.join(schemasDir, 'tasks/taskTypes.json')) as
    { taskTypes?: Array<{ identifier: string }> } | undefined;
  return lifecycleProblems(doc, {
    transactionNames: (ledger?.transactionTypes ?? []).flatMap((t) => [
      t.name,
      ...(t.aliases ?? []).map((a) => a.name),
    ]),
    notificationKinds: NOTIFICATION_KIND_NAMES,
    taskTypes: (tasks?.taskTypes ?? []).map((t) => t.identifier),
    auditActions: Object.keys(AUDIT_ACTION_NAMES),
  }).map((p) => ({ file, ...p }));
}

if (process.argv[1] === import.meta.filename) {
  const dir = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '../schemas'));
  const problems = await validateSchemaTree(dir);
  for (const p of problems) console.error(`${path.relative(process.cwd(), p.file)}  ${p.pointer}  ${p.message}`);
  if (problems.length > 0) {
    console.error(`schemas: ${problems.length} problem(s)`);
    process.exit(1);
  }
  console.log(`schemas: every file under ${path.relative(process.cwd(), dir) || '.'} is valid`);
}
