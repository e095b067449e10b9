/**
 * The declarative desk catalogue, read from JSON at start: categories, desks and form types.
 * A desk's effective form schema is its form type's schema with the desk's `comps` applied, so
 * the server validates a submission with exactly what the form shows.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ProductCategories } from '../../../generated/schemas/categories';
import type { Desk } from '../../../generated/schemas/desk';
import type { FormType } from '../../../generated/schemas/form';
import { effectiveForm, type JsonSchemaObject } from '../../../shared/catalogue';

export type { Desk, FormType };
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

export class Catalogue {
  readonly deskForms = new Map<string, DeskForm>();
  /**
   * Fields some form declares staff-only (`staffOnlyFields`) or marks `writeOnly` (a third-party password): kept
   * with a request, never listed. Taken over every form, so a request of a desk since removed from the catalogue
   * is covered too.
   */
  readonly writeOnlyFields: ReadonlySet<string>;

  private constructor(
    readonly categories: Category[],
    readonly desks: Desk[],
    readonly forms: FormType[],
  ) {
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

  static load(schemasDir: string): Catalogue {
    const categories = readJson<ProductCategories>(path.join(schemasDir, 'catalogue/categories.json')).categories;
    const deskDir = path.join(schemasDir, 'catalogue/desks');
    const desks = readdirSync(deskDir)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => readJson<Desk>(path.join(deskDir, f)));
    const formDir = path.join(schemasDir, 'forms');
    const forms = readdirSync(formDir)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => readJson<FormType>(path.join(formDir, f)));
    return new Catalogue(categories, desks, forms);
  }

  deskForm(identifier: string): DeskForm | undefined {
    return this.deskForms.get(identifier);
  }
}
