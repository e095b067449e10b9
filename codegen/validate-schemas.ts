/**
 * Validates every JSON file under schemas/ against the meta-schema its "$schema" names
 * (meta-schemas themselves against JSON Schema 2020-12). Prints file, JSON pointer and message per error.
 * Then checks the references files make to each other, which a meta-schema cannot: a desk's form type exists
 * (any file under forms/ is one), every `comps` key names a field of that form (nested by path,
 * `billingAddress/city`), a form's `priceInputs`, `amountField` and `staffOnlyFields` name its fields, its schema
 * compiles with the shared keywords, every field has a title, and every `x-messages` key exists in
 * messages/fa.json.
 * Usable as a library: `validateSchemaTree(dir)` returns the errors (tests point it at a temporary copy).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fieldAt, propertyOf, type SchemaNode } from '../src/shared/form-schema';
import { createAjv } from '../src/shared/validation/ajv';

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
        const extra = error.keyword === 'additionalProperties' ? ` (${String(error.params.additionalProperty)})` : '';
        problems.push({
          file,
          pointer: error.instancePath || '/',
          message: `${error.message ?? error.keyword}${extra}`,
        });
      }
    }
  }
  problems.push(...checkReferences(schemasDir, parsed));
  return problems;
}

const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/** Every object in `value` with its JSON pointer. */
function* objectsIn(value: unknown, pointer = ''): Generator<[string, Record<string, unknown>]> {
  if (!value || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) yield* objectsIn(item, `${pointer}/${i}`);
    return;
  }
  yield [pointer, value as Record<string, unknown>];
  for (const [key, item] of Object.entries(value)) yield* objectsIn(item, `${pointer}/${escapePointer(key)}`);
}

/** Fields (schemas under `properties`) without a title: every field a person fills needs its Persian name. */
function* untitledFields(schema: unknown, pointer: string): Generator<string> {
  for (const [at, node] of objectsIn(schema, pointer)) {
    // An `if` or `not` only tests values; its properties are conditions, not fields.
    if (/\/(if|not)(\/|$)/.test(at.slice(pointer.length))) continue;
    const properties = node.properties as Record<string, Record<string, unknown>> | undefined;
    if (!properties || typeof properties !== 'object' || at.endsWith('/properties')) continue;
    for (const [name, property] of Object.entries(properties)) {
      if (property && typeof property === 'object' && typeof property.title !== 'string')
        yield `${at}/properties/${escapePointer(name)}`;
    }
  }
}

function checkReferences(schemasDir: string, parsed: Map<string, unknown>): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const messages = (parsed.get(path.join(schemasDir, 'messages/fa.json')) as { messages?: Record<string, string> })
    ?.messages;
  const formsDir = path.join(schemasDir, 'forms');
  const desksDir = path.join(schemasDir, 'catalogue/desks');
  const forms = new Map<string, { file: string; schema: SchemaNode }>();
  const ajv = createAjv();
  for (const [file, data] of parsed) {
    if (path.dirname(file) !== formsDir) continue;
    const form = data as {
      formType?: string;
      schema?: SchemaNode;
      priceInputs?: string[];
      amountField?: string;
      staffOnlyFields?: string[];
    };
    if (typeof form.formType !== 'string' || !form.schema || typeof form.schema !== 'object') continue;
    const twin = forms.get(form.formType);
    if (twin) {
      problems.push({ file, pointer: '/formType', message: `form type ${form.formType} is also ${twin.file}` });
      continue;
    }
    forms.set(form.formType, { file, schema: form.schema });
    const topLevel = (name: unknown, pointer: string) => {
      if (typeof name === 'string' && !propertyOf(form.schema!, name))
        problems.push({ file, pointer, message: `names no field of the form: ${name}` });
    };
    for (const [i, name] of (form.priceInputs ?? []).entries()) topLevel(name, `/priceInputs/${i}`);
    topLevel(form.amountField, '/amountField');
    for (const [i, name] of (form.staffOnlyFields ?? []).entries()) topLevel(name, `/staffOnlyFields/${i}`);
    for (const pointer of untitledFields(form.schema, '/schema'))
      problems.push({ file, pointer, message: 'a field needs a title (its Persian name)' });
    try {
      ajv.compile(form.schema);
    } catch (error) {
      problems.push({ file, pointer: '/schema', message: `does not compile: ${(error as Error).message}` });
    }
  }
  for (const [file, data] of parsed) {
    if (path.dirname(file) !== desksDir) continue;
    const desk = data as { formType?: unknown; comps?: Record<string, unknown> };
    if (typeof desk.formType !== 'string') continue;
    const form = forms.get(desk.formType);
    if (!form) {
      problems.push({ file, pointer: '/formType', message: `no form type ${desk.formType} under forms/` });
      continue;
    }
    for (const key of Object.keys(desk.comps ?? {})) {
      if (!fieldAt(form.schema, key.split('/')))
        problems.push({ file, pointer: `/comps/${escapePointer(key)}`, message: `names no field of ${desk.formType}` });
    }
  }
  if (messages) {
    for (const [file, data] of parsed) {
      if (path.dirname(file) === path.join(schemasDir, 'meta')) continue;
      for (const [pointer, node] of objectsIn(data)) {
        const declared = node['x-messages'];
        if (!declared || typeof declared !== 'object') continue;
        for (const [keyword, key] of Object.entries(declared as Record<string, unknown>)) {
          if (typeof key === 'string' && !(key in messages))
            problems.push({
              file,
              pointer: `${pointer}/x-messages/${escapePointer(keyword)}`,
              message: `message ${key} is not in messages/fa.json`,
            });
        }
      }
    }
  }
  return problems;
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
