/**
 * The declarative desk catalogue: categories, desks and form types. A desk's effective form schema is its form
 * type's schema with the desk's `comps` applied, so the server validates a submission with exactly what the form
 * shows.
 *
 * `CatalogueSnapshot` is one consistent catalogue, never changed once built. `Catalogue` is the live catalogue
 * every part of the server reads from: it holds the current snapshot, which the catalogue source (live-source.ts:
 * the files under schemas/, watched, and the versions staff published) replaces when something changes, and tells
 * its subscribers. Read `catalogue.snapshot` (or the getters, which read the current snapshot) per use; keep a
 * snapshot only for the span of one request. `onChange` is the hook for caches built from it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ProductCategories } from '../../../generated/schemas/categories';
import type { Desk } from '../../../generated/schemas/desk';
import type { FormType } from '../../../generated/schemas/form';
import type { Plan } from '../../../generated/schemas/plan';
import type { WorkingCalendar } from '../../../generated/schemas/workingCalendar';
import { WorkingTime } from '../../../shared/working-time';
import { effectiveForm, type JsonSchemaObject } from '../../../shared/catalogue';

export type { Desk, FormType, Plan };
export type Category = ProductCategories['categories'][number];

export interface DeskForm {
  desk: Desk;
  form: FormType;
  schema: JsonSchemaObject;
  uiSchema: Record<string, unknown>;
  /** Values the desk fixes (e.g. foriWire's username '-'), filled in before validation. */
  staticValues: Record<string, unknown>;
}

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

/** One consistent catalogue. Building it throws when a desk names a missing form type or field. */
export class CatalogueSnapshot {
  readonly deskForms = new Map<string, DeskForm>();
  /**
   * Fields some form declares staff-only (`staffOnlyFields`) or marks `writeOnly` (a third-party password): kept
   * with a request, never listed. Taken over every form, so a request of a desk since removed from the catalogue
   * is covered too.
   */
  readonly writeOnlyFields: ReadonlySet<string>;
  /** Working time from the live calendars: the promise at the quote is priced with it. */
  readonly workingTime: WorkingTime;

  constructor(
    readonly categories: Category[],
    readonly desks: Desk[],
    readonly forms: FormType[],
    /** Study-abroad plan templates (schemas/plans, decision 030), as given; the plans module orders them. */
    readonly plans: Plan[] = [],
    /** Working calendars, one per Jalali year (schemas/calendars, decision 041). */
    readonly calendars: WorkingCalendar[] = [],
  ) {
    this.workingTime = new WorkingTime(calendars);
    this.writeOnlyFields = new Set(
      forms.flatMap((f) => [
        ...(f.staffOnlyFields ?? []),
        ...Object.entries(f.schema.properties as Record<string, { writeOnly?: boolean }>)
          .filter(([, property]) => property.writeOnly === true)
          .map(([name]) => name),
      ]),
    );
    for (const desk of desks) {
      const form = forms.find((f) => f.formType === desk.formType);
      if (!form) throw new Error(`desk ${desk.identifier}: unknown form type ${desk.formType}`);
      const { schema, uiSchema, staticValues } = effectiveForm(desk, form);
      this.deskForms.set(desk.identifier, { desk, form, schema, uiSchema, staticValues });
    }
  }

  deskForm(identifier: string): DeskForm | undefined {
    return this.deskForms.get(identifier);
  }
}

/** What changed between two snapshots: desks whose desk or effective form differs, and form types. */
export interface CatalogueChange {
  desks: string[];
  forms: string[];
}

export type CatalogueListener = (snapshot: CatalogueSnapshot, change: CatalogueChange) => void;

/** Reads the JSON files of a folder, sorted by name: [file, parsed] (parse errors are the caller's). */
export function jsonFilesIn(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => path.join(dir, f));
}

export function readCategories(schemasDir: string): Category[] {
  return readJson<ProductCategories>(path.join(schemasDir, 'catalogue/categories.json')).categories;
}

export function changeBetween(before: CatalogueSnapshot, after: CatalogueSnapshot): CatalogueChange {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const desks = new Set([...before.deskForms.keys(), ...after.deskForms.keys()]);
  const forms = new Set([...before.forms, ...after.forms].map((f) => f.formType));
  return {
    desks: [...desks].filter((d) => {
      const a = before.deskForms.get(d);
      const b = after.deskForms.get(d);
      return !a || !b || !same(a.desk, b.desk) || !same(a.form, b.form);
    }),
    forms: [...forms].filter(
      (name) =>
        !same(
          before.forms.find((f) => f.formType === name),
          after.forms.find((f) => f.formType === name),
        ),
    ),
  };
}

export class Catalogue {
  private current: CatalogueSnapshot;
  private readonly listeners = new Set<CatalogueListener>();

  constructor(snapshot: CatalogueSnapshot) {
    this.current = snapshot;
  }

  /** The files under `schemasDir` as they are now, not watched (the live source watches them). */
  static load(schemasDir: string): Catalogue {
    const desks = jsonFilesIn(path.join(schemasDir, 'catalogue/desks')).map((f) => readJson<Desk>(f));
    const forms = jsonFilesIn(path.join(schemasDir, 'forms')).map((f) => readJson<FormType>(f));
    const plansDir = path.join(schemasDir, 'plans');
    const plans = existsSync(plansDir) ? jsonFilesIn(plansDir).map((f) => readJson<Plan>(f)) : [];
    return new Catalogue(new CatalogueSnapshot(readCategories(schemasDir), desks, forms, plans));
  }

  /** The catalogue now. */
  get snapshot(): CatalogueSnapshot {
    return this.current;
  }

  get categories(): Category[] {
    return this.current.categories;
  }

  get desks(): Desk[] {
    return this.current.desks;
  }

  get forms(): FormType[] {
    return this.current.forms;
  }

  get plans(): Plan[] {
    return this.current.plans;
  }

  get writeOnlyFields(): ReadonlySet<string> {
    return this.current.writeOnlyFields;
  }

  deskForm(identifier: string): DeskForm | undefined {
    return this.current.deskForm(identifier);
  }

  /** Calls `listener` after each change, with the new snapshot; returns the unsubscribe function. */
  onChange(listener: CatalogueListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Makes `snapshot` the catalogue and tells the subscribers what changed (nothing when nothing did). */
  replace(snapshot: CatalogueSnapshot): CatalogueChange {
    const change = changeBetween(this.current, snapshot);
    this.current = snapshot;
    if (change.desks.length === 0 && change.forms.length === 0) return change;
    for (const listener of this.listeners) {
      try {
        listener(snapshot, change);
      } catch {
        // A subscriber's failure must not stop the others or the change.
      }
    }
    return change;
  }
}
