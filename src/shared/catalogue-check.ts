/**
 * The checks a desk or form type must pass, in one place for `npm run schemas:check` (codegen/validate-schemas.ts),
 * the server's file watcher and the staff catalogue page's publish: its meta-schema (Ajv errors turned into
 * problems), and the references a meta-schema cannot check — a desk's form type exists, every `comps` key is a
 * field path of that form (`billingAddress/city`), a form's `priceInputs`, `amountField` and `staffOnlyFields` name
 * its fields, its schema compiles with the shared keywords, every field has a title, `x-deadline` marks at most one
 * top-level date field, every field drawn with an upload widget declares its file limits (`x-file`) and only those,
 * every `x-messages` key exists in messages/fa.json, what a desk prints on the proof letter
 * has an English title, and the form's own `cases` hold (form-cases.ts). Each problem has the file, a JSON pointer,
 * an English message (the CLI's) and a
 * message key of schemas/messages/fa.json with its parameters (the Persian text staff see).
 */
import type { ErrorObject } from 'ajv';
import { gregorianToJalali } from './calendar';
import { deadlineFieldOf, deadlineInstant, isDateField } from './deadline';
import { FILE_WIDGETS } from './file-limits';
import { caseFailures, type FormCase } from './form-cases';
import { branchesOf, fieldAt, propertyOf, type SchemaNode } from './form-schema';
import { compilerOnce } from './validation/ajv';

export interface CatalogueProblem {
  file: string;
  pointer: string;
  /** English, for the command line and the server log. */
  message: string;
  /** A key of schemas/messages/fa.json (`catalogue.problem.*`) and its parameters: what staff read. */
  key: string;
  params: Record<string, string>;
}

/** A JSON document and the name problems are reported under (a file path, or a published version). */
export interface CatalogueDocument {
  file: string;
  data: unknown;
}

export const escapePointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

const problem = (
  file: string,
  pointer: string,
  message: string,
  key: string,
  params: Record<string, string> = {},
): CatalogueProblem => ({ file, pointer, message, key, params });

const TYPE_NAMES: Record<string, string> = {
  string: 'متن',
  number: 'عدد',
  integer: 'عدد صحیح',
  boolean: 'درست یا نادرست',
  object: 'شیء',
  array: 'فهرست',
  null: 'خالی',
};

/** One meta-schema error as a problem. */
export function metaProblem(file: string, error: ErrorObject): CatalogueProblem {
  const pointer = error.instancePath || '/';
  const params = error.params as Record<string, unknown>;
  const english = `${error.message ?? error.keyword}`;
  const at = (key: string, extra: Record<string, string> = {}, detail = '') =>
    problem(file, pointer, english + detail, `catalogue.problem.${key}`, extra);
  switch (error.keyword) {
    case 'required':
      return at('required', { name: String(params.missingProperty) });
    case 'additionalProperties':
      return at('unknownKey', { name: String(params.additionalProperty) }, ` (${String(params.additionalProperty)})`);
    case 'unevaluatedProperties':
      return at('unknownKey', { name: String(params.unevaluatedProperty) }, ` (${String(params.unevaluatedProperty)})`);
    case 'type': {
      const types = String(params.type).split(',');
      return at('type', { type: types.map((t) => TYPE_NAMES[t] ?? t).join(' یا ') });
    }
    case 'enum':
      return at('enum', { values: ((params.allowedValues as unknown[]) ?? []).map((v) => String(v)).join('، ') });
    case 'const':
      return at('enum', { values: String(params.allowedValue) });
    case 'pattern':
    case 'format':
      return at('pattern');
    case 'minLength':
      return at(Number(params.limit) <= 1 ? 'empty' : 'minLength', { limit: String(params.limit) });
    case 'maxLength':
      return at('maxLength', { limit: String(params.limit) });
    case 'minItems':
    case 'minProperties':
      return at('minItems', { limit: String(params.limit) });
    case 'maxItems':
    case 'maxProperties':
      return at('maxItems', { limit: String(params.limit) });
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return at('range');
    case 'uniqueItems':
      return at('unique');
    default:
      return at('invalid', { keyword: error.keyword });
  }
}

/** Every object in `value` with its JSON pointer. */
export function* objectsIn(value: unknown, pointer = ''): Generator<[string, Record<string, unknown>]> {
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

/**
 * `x-deadline` marks at most one field of a form, a top-level date (shared/deadline.ts): a problem at each mark on
 * a field that is not a date or not at the top, and at each mark after the first.
 */
function deadlineProblems(file: string, schema: SchemaNode): CatalogueProblem[] {
  const problems: CatalogueProblem[] = [];
  let first: string | null = null;
  for (const [pointer, node] of objectsIn(schema, '/schema')) {
    if (!('x-deadline' in node)) continue;
    const at = `${pointer}/x-deadline`;
    if (!/^\/schema\/properties\/[^/]+$/.test(pointer) || !isDateField(node))
      problems.push(
        problem(file, at, 'x-deadline marks a top-level date field only', 'catalogue.problem.deadlineNotDate'),
      );
    else if (first !== null)
      problems.push(
        problem(file, at, `a form has one deadline field; ${first} is one already`, 'catalogue.problem.deadlineTwice', {
          first,
        }),
      );
    else first = pointer;
  }
  return problems;
}

/**
 * File fields (decision 045): every top-level field the UI schema draws with an upload widget declares `x-file`
 * (its kinds and limits), and `x-file` is declared only there: the server finds a field's limits by its top-level
 * name, and a limit on a field drawn as text would promise what no picker offers.
 */
function fileFieldProblems(file: string, schema: SchemaNode, uiSchema: object | undefined): CatalogueProblem[] {
  const problems: CatalogueProblem[] = [];
  const ui = (uiSchema ?? {}) as Record<string, { 'ui:widget'?: unknown } | undefined>;
  const properties = (schema.properties ?? {}) as Record<string, SchemaNode>;
  for (const [name, field] of Object.entries(properties)) {
    const widget = ui[name]?.['ui:widget'];
    const drawnAsFile = typeof widget === 'string' && FILE_WIDGETS.includes(widget);
    if (drawnAsFile && !(field && typeof field === 'object' && 'x-file' in field))
      problems.push(
        problem(
          file,
          `/schema/properties/${escapePointer(name)}`,
          `a file field declares its kinds and limits (x-file): ${name}`,
          'catalogue.problem.fileLimitsMissing',
          { name },
        ),
      );
  }
  for (const [pointer, node] of objectsIn(schema, '/schema')) {
    if (!('x-file' in node)) continue;
    const top = /^\/schema\/properties\/([^/]+)$/.exec(pointer);
    const name = top ? top[1]!.replace(/~1/g, '/').replace(/~0/g, '~') : '';
    const widget = top ? ui[name]?.['ui:widget'] : undefined;
    if (!top || typeof widget !== 'string' || !FILE_WIDGETS.includes(widget))
      problems.push(
        problem(
          file,
          `${pointer}/x-file`,
          'x-file is declared on a top-level field drawn with an upload widget only',
          'catalogue.problem.fileLimitsMisplaced',
        ),
      );
  }
  return problems;
}

/** Every `x-messages` key in `data` must be a message of messages/fa.json. */
export function messageKeyProblems(doc: CatalogueDocument, messages: Record<string, string>): CatalogueProblem[] {
  const problems: CatalogueProblem[] = [];
  for (const [pointer, node] of objectsIn(doc.data)) {
    const declared = node['x-messages'];
    if (!declared || typeof declared !== 'object') continue;
    for (const [keyword, key] of Object.entries(declared as Record<string, unknown>)) {
      if (typeof key === 'string' && !(key in messages))
        problems.push(
          problem(
            doc.file,
            `${pointer}/x-messages/${escapePointer(keyword)}`,
            `message ${key} is not in messages/fa.json`,
            'catalogue.problem.unknownMessage',
            { key },
          ),
        );
    }
  }
  return problems;
}

interface ProofLike {
  'x-title-en'?: unknown;
  foreignReference?: { 'x-title-en'?: unknown };
  proofFields?: unknown[];
}

/**
 * What a finished request's proof letter prints in English must have its English text in the catalogue
 * (docs/decisions/040-proof-letter.md): a desk that declares a foreign reference or printed fields has its own
 * `x-title-en`, so has its reference, and each printed field is a top-level field of its form with one.
 */
function proofProblems(file: string, data: unknown, schema: SchemaNode): CatalogueProblem[] {
  const desk = data as ProofLike;
  const problems: CatalogueProblem[] = [];
  const untitled = (pointer: string, name: string) =>
    problem(
      file,
      pointer,
      `printed on the proof letter without an English title (x-title-en): ${name}`,
      'catalogue.problem.noEnglishTitle',
      {
        name,
      },
    );
  const printed = desk.proofFields ?? [];
  if ((desk.foreignReference || printed.length > 0) && typeof desk['x-title-en'] !== 'string')
    problems.push(untitled('/x-title-en', 'title'));
  if (desk.foreignReference && typeof desk.foreignReference['x-title-en'] !== 'string')
    problems.push(untitled('/foreignReference', 'foreignReference'));
  for (const [i, name] of printed.entries()) {
    if (typeof name !== 'string') continue;
    const field = propertyOf(schema, name);
    if (!field)
      problems.push(
        problem(file, `/proofFields/${i}`, `names no field of the form: ${name}`, 'catalogue.problem.noSuchField', {
          name,
        }),
      );
    else if (typeof (field as Record<string, unknown>)['x-title-en'] !== 'string')
      problems.push(untitled(`/proofFields/${i}`, name));
  }
  return problems;
}

/** A step of a form's `ui:steps` (form.schema.json). */
export interface FormStep {
  title: string;
  fields: string[];
}

/** The top-level fields of a form, wherever a branch declares them, in the order first declared. */
export function topLevelFields(schema: SchemaNode): string[] {
  const names = new Set<string>();
  for (const branch of branchesOf(schema)) {
    const properties = branch.properties;
    if (properties && typeof properties === 'object') for (const name of Object.keys(properties)) names.add(name);
  }
  return [...names];
}

/**
 * A form in steps (`uiSchema["ui:steps"]`): every top-level field in exactly one step, no step naming a field the
 * form lacks. Each problem names the field by its title and code name.
 */
export function stepProblems(file: string, schema: SchemaNode, uiSchema: object | undefined): CatalogueProblem[] {
  const steps = (uiSchema as { 'ui:steps'?: unknown } | undefined)?.['ui:steps'];
  if (!Array.isArray(steps)) return [];
  const problems: CatalogueProblem[] = [];
  const fields = topLevelFields(schema);
  const titleOf = (name: string) => {
    const title = propertyOf(schema, name)?.title;
    return typeof title === 'string' ? title : name;
  };
  const stepOf = new Map<string, string>();
  for (const [i, step] of (steps as Partial<FormStep>[]).entries()) {
    const stepTitle = typeof step?.title === 'string' ? step.title : String(i + 1);
    for (const [j, name] of (Array.isArray(step?.fields) ? step.fields : []).entries()) {
      if (typeof name !== 'string') continue;
      const pointer = `/uiSchema/ui:steps/${i}/fields/${j}`;
      if (!fields.includes(name)) {
        problems.push(
          problem(
            file,
            pointer,
            `step "${stepTitle}" names no field of the form: ${name}`,
            'catalogue.problem.noSuchField',
            { name },
          ),
        );
        continue;
      }
      const first = stepOf.get(name);
      if (first !== undefined) {
        problems.push(
          problem(file, pointer, `${name} is in step "${first}" already`, 'catalogue.problem.stepOnce', {
            name,
            title: titleOf(name),
          }),
        );
        continue;
      }
      stepOf.set(name, stepTitle);
    }
  }
  for (const name of fields)
    if (!stepOf.has(name))
      problems.push(
        problem(file, '/uiSchema/ui:steps', `${name} is in no step`, 'catalogue.problem.stepOnce', {
          name,
          title: titleOf(name),
        }),
      );
  return problems;
}

interface FormLike {
  formType?: unknown;
  schema?: SchemaNode;
  priceInputs?: unknown[];
  amountField?: unknown;
  staffOnlyFields?: unknown[];
  uiSchema?: object;
  cases?: FormCase[];
}

const compileForm = compilerOnce({});

/**
 * The references of form types and desks (each already checked against its meta-schema): duplicate form types,
 * fields a form names, titles, compilation, a desk's form type and its `comps` paths. Desks are checked against
 * `forms` only (a desk whose form type is elsewhere is wrong).
 */
export function referenceProblems(forms: CatalogueDocument[], desks: CatalogueDocument[]): CatalogueProblem[] {
  const problems: CatalogueProblem[] = [];
  const known = new Map<string, { file: string; schema: SchemaNode }>();
  for (const { file, data } of forms) {
    const form = data as FormLike;
    if (typeof form?.formType !== 'string' || !form.schema || typeof form.schema !== 'object') continue;
    const twin = known.get(form.formType);
    if (twin) {
      problems.push(
        problem(file, '/formType', `form type ${form.formType} is also ${twin.file}`, 'catalogue.problem.duplicate', {
          name: form.formType,
          file: twin.file,
        }),
      );
      continue;
    }
    known.set(form.formType, { file, schema: form.schema });
    const topLevel = (name: unknown, pointer: string) => {
      if (typeof name === 'string' && !propertyOf(form.schema!, name))
        problems.push(
          problem(file, pointer, `names no field of the form: ${name}`, 'catalogue.problem.noSuchField', { name }),
        );
    };
    for (const [i, name] of (form.priceInputs ?? []).entries()) topLevel(name, `/priceInputs/${i}`);
    topLevel(form.amountField, '/amountField');
    for (const [i, name] of (form.staffOnlyFields ?? []).entries()) topLevel(name, `/staffOnlyFields/${i}`);
    problems.push(...deadlineProblems(file, form.schema));
    problems.push(...stepProblems(file, form.schema, form.uiSchema));
    problems.push(...fileFieldProblems(file, form.schema, form.uiSchema));
    for (const pointer of untitledFields(form.schema, '/schema'))
      problems.push(problem(file, pointer, 'a field needs a title (its Persian name)', 'catalogue.problem.untitled'));
    try {
      compileForm(form.schema);
    } catch (error) {
      const reason = (error as Error).message;
      problems.push(problem(file, '/schema', `does not compile: ${reason}`, 'catalogue.problem.noCompile', { reason }));
      continue;
    }
    // The form's own tests: what a case promises still holds for this schema.
    for (const [i, formCase] of (form.cases ?? []).entries()) {
      for (const failure of caseFailures({ schema: form.schema, uiSchema: form.uiSchema }, formCase))
        problems.push(
          problem(
            file,
            `/cases/${i}${failure.pointer}`,
            `case "${formCase.name}": ${failure.message}`,
            failure.key,
            failure.params,
          ),
        );
    }
  }
  const deskFiles = new Map<string, string>();
  for (const { file, data } of desks) {
    const desk = data as {
      identifier?: unknown;
      formType?: unknown;
      comps?: Record<string, unknown>;
      promise?: unknown;
    };
    if (typeof desk?.identifier === 'string') {
      const twin = deskFiles.get(desk.identifier);
      if (twin)
        problems.push(
          problem(file, '/identifier', `desk ${desk.identifier} is also ${twin}`, 'catalogue.problem.duplicateDesk', {
            name: desk.identifier,
            file: twin,
          }),
        );
      else deskFiles.set(desk.identifier, file);
    }
    if (typeof desk?.formType !== 'string') continue;
    const form = known.get(desk.formType);
    if (!form) {
      problems.push(
        problem(file, '/formType', `no form type ${desk.formType} under forms/`, 'catalogue.problem.unknownFormType', {
          name: desk.formType,
        }),
      );
      continue;
    }
    if (desk.promise && deadlineFieldOf(form.schema) === null)
      problems.push(
        problem(
          file,
          '/promise',
          `${desk.formType} has no x-deadline field to promise against`,
          'catalogue.problem.promiseNoDeadline',
          {
            formType: desk.formType,
          },
        ),
      );
    problems.push(...proofProblems(file, data, form.schema));
    for (const key of Object.keys(desk.comps ?? {})) {
      if (!fieldAt(form.schema, key.split('/')))
        problems.push(
          problem(
            file,
            `/comps/${escapePointer(key)}`,
            `names no field of ${desk.formType}`,
            'catalogue.problem.compsUnknownField',
            { name: key, formType: desk.formType },
          ),
        );
    }
  }
  return problems;
}

interface PlanStepLike {
  key?: unknown;
  order?: unknown;
  desk?: unknown;
  otherDesks?: unknown[];
  fee?: { currency?: unknown };
  prefill?: Record<string, unknown>;
}

/**
 * The references of plan templates (schemas/plans/, each already checked against its meta-schema): every desk a
 * step names exists, the step's fee is in a currency its desk takes, its prefill names fields of the desk's form
 * other than the price inputs (the fee gives currency and amount), and step keys, orders and desks are not repeated
 * in a plan, nor identifiers across plans.
 */
export function planProblems(
  plans: CatalogueDocument[],
  desks: CatalogueDocument[],
  forms: CatalogueDocument[],
): CatalogueProblem[] {
  const problems: CatalogueProblem[] = [];
  const deskById = new Map<string, { formType?: unknown; currencies?: unknown[] }>();
  for (const { data } of desks) {
    const desk = data as { identifier?: unknown };
    if (typeof desk?.identifier === 'string') deskById.set(desk.identifier, desk as never);
  }
  const formByType = new Map<string, FormLike>();
  for (const { data } of forms) {
    const form = data as FormLike;
    if (typeof form?.formType === 'string') formByType.set(form.formType, form);
  }
  const planFiles = new Map<string, string>();
  for (const { file, data } of plans) {
    const plan = data as { identifier?: unknown; steps?: unknown };
    if (typeof plan?.identifier === 'string') {
      const twin = planFiles.get(plan.identifier);
      if (twin)
        problems.push(
          problem(file, '/identifier', `plan ${plan.identifier} is also ${twin}`, 'catalogue.problem.duplicatePlan', {
            name: plan.identifier,
            file: twin,
          }),
        );
      else planFiles.set(plan.identifier, file);
    }
    if (!Array.isArray(plan?.steps)) continue;
    const seen = { key: new Set<unknown>(), order: new Set<unknown>(), desk: new Set<unknown>() };
    for (const [i, raw] of plan.steps.entries()) {
      const step = raw as PlanStepLike;
      const at = `/steps/${i}`;
      for (const name of ['key', 'order'] as const) {
        if (seen[name].has(step[name]))
          problems.push(
            problem(
              file,
              `${at}/${name}`,
              `another step has ${name} ${String(step[name])}`,
              'catalogue.problem.planRepeated',
              {
                name: String(step[name]),
              },
            ),
          );
        seen[name].add(step[name]);
      }
      const named: [string, unknown][] = [
        [`${at}/desk`, step.desk],
        ...(step.otherDesks ?? []).map((d, j): [string, unknown] => [`${at}/otherDesks/${j}`, d]),
      ];
      for (const [pointer, identifier] of named) {
        if (typeof identifier !== 'string') continue;
        if (seen.desk.has(identifier))
          problems.push(
            problem(file, pointer, `desk ${identifier} is in another step`, 'catalogue.problem.planRepeated', {
              name: identifier,
            }),
          );
        seen.desk.add(identifier);
        const desk = deskById.get(identifier);
        if (!desk) {
          problems.push(
            problem(file, pointer, `no desk ${identifier} under catalogue/desks`, 'catalogue.problem.planUnknownDesk', {
              name: identifier,
            }),
          );
          continue;
        }
        const currency = step.fee?.currency;
        if (typeof currency === 'string' && Array.isArray(desk.currencies) && !desk.currencies.includes(currency))
          problems.push(
            problem(
              file,
              `${at}/fee/currency`,
              `desk ${identifier} is not paid in ${currency}`,
              'catalogue.problem.planCurrency',
              { name: identifier, currency },
            ),
          );
      }
      const desk = typeof step.desk === 'string' ? deskById.get(step.desk) : undefined;
      const form = typeof desk?.formType === 'string' ? formByType.get(desk.formType) : undefined;
      if (!form?.schema) continue;
      for (const field of Object.keys(step.prefill ?? {})) {
        if (!propertyOf(form.schema, field) || (form.priceInputs ?? []).includes(field))
          problems.push(
            problem(
              file,
              `${at}/prefill/${escapePointer(field)}`,
              `not a field of ${String(desk?.formType)} a plan may fill`,
              'catalogue.problem.planPrefill',
              { name: field },
            ),
          );
      }
    }
  }
  return problems;
}

interface CalendarLike {
  identifier?: unknown;
  jalaliYear?: unknown;
  week?: Record<string, { from?: string; to?: string } | null>;
  holidays?: Array<{ date?: unknown }>;
}

/**
 * What a working calendar's meta-schema cannot say (decision 041): each holiday is a real day inside the calendar's
 * Jalali year and is listed once, each weekday's hours end after they start, and no two calendars are of one year.
 */
export function calendarProblems(calendars: CatalogueDocument[]): CatalogueProblem[] {
  const problems: CatalogueProblem[] = [];
  const years = new Map<unknown, string>();
  for (const { file, data } of calendars) {
    const calendar = data as CalendarLike;
    const twin = years.get(calendar?.jalaliYear);
    if (twin)
      problems.push(
        problem(
          file,
          '/jalaliYear',
          `year ${String(calendar.jalaliYear)} is also ${twin}`,
          'catalogue.problem.calendarYear',
          {
            name: String(calendar.jalaliYear),
            file: twin,
          },
        ),
      );
    else years.set(calendar?.jalaliYear, file);
    for (const [weekday, hours] of Object.entries(calendar?.week ?? {})) {
      if (hours?.from && hours.to && hours.to <= hours.from)
        problems.push(
          problem(
            file,
            `/week/${weekday}`,
            'the working hours end before they start',
            'catalogue.problem.calendarHours',
          ),
        );
    }
    const seen = new Set<unknown>();
    for (const [i, holiday] of (calendar?.holidays ?? []).entries()) {
      const date = holiday?.date;
      if (typeof date !== 'string') continue;
      const inYear =
        deadlineInstant(date) !== null && gregorianToJalali(date).startsWith(`${String(calendar.jalaliYear)}/`);
      if (!inYear || seen.has(date))
        problems.push(
          problem(
            file,
            `/holidays/${i}/date`,
            inYear ? `${date} is listed twice` : `${date} is not a day of the year ${String(calendar.jalaliYear)}`,
            'catalogue.problem.calendarHoliday',
            { name: date, year: String(calendar.jalaliYear) },
          ),
        );
      seen.add(date);
    }
  }
  return problems;
}
