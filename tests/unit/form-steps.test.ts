/**
 * A form in steps (`uiSchema["ui:steps"]`, issue 47): the meta-schema admits a list of titled steps, and the
 * catalogue check (schemas:check, the publish) refuses steps that leave a field out, repeat one or name one the form
 * lacks, each with a Persian message naming the field; the IELTS registration form is in steps and passes.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { referenceProblems, stepProblems } from '../../src/shared/catalogue-check';
import messages from '../../schemas/messages/fa.json' with { type: 'json' };
import { createAjv } from '../../src/shared/validation/ajv';

const schemasDir = path.resolve(import.meta.dirname, '../../schemas');
const read = (file: string) => JSON.parse(readFileSync(path.join(schemasDir, file), 'utf8')) as Record<string, unknown>;
const schema = {
  type: 'object',
  properties: {
    a: { type: 'string', title: 'نام' },
    b: { type: 'string', title: 'شهر' },
  },
  if: { properties: { a: { const: 'x' } } },
  then: { properties: { c: { type: 'string', title: 'کد پستی' } } },
};
const persian = (key: string, params: Record<string, string>) =>
  Object.entries(params).reduce(
    (text, [name, value]) => text.replaceAll(`{${name}}`, value),
    (messages.messages as Record<string, string>)[key] ?? `missing ${key}`,
  );

describe('form steps', () => {
  it('accepts every field in exactly one step, a field of a conditional branch included', () => {
    const steps = [
      { title: 'یک', fields: ['a', 'b'] },
      { title: 'دو', fields: ['c'] },
    ];
    expect(stepProblems('f.json', schema, { 'ui:steps': steps })).toEqual([]);
    // No steps: the form is one page, nothing to check.
    expect(stepProblems('f.json', schema, {})).toEqual([]);
  });

  it('refuses a field left out, one in two steps and one the form lacks, naming the field in Persian', () => {
    const problems = stepProblems('f.json', schema, {
      'ui:steps': [
        { title: 'یک', fields: ['a', 'zip'] },
        { title: 'دو', fields: ['a', 'c'] },
      ],
    });
    expect(problems.map((p) => [p.pointer, p.key, p.params.name])).toEqual([
      ['/uiSchema/ui:steps/0/fields/1', 'catalogue.problem.noSuchField', 'zip'],
      ['/uiSchema/ui:steps/1/fields/0', 'catalogue.problem.stepOnce', 'a'],
      ['/uiSchema/ui:steps', 'catalogue.problem.stepOnce', 'b'],
    ]);
    const texts = problems.map((p) => persian(p.key, p.params));
    expect(texts[0]).toBe('فرم فیلدی به نام «zip» ندارد.');
    expect(texts[1]).toContain('«نام»');
    expect(texts[2]).toContain('«شهر» (b)');
    for (const text of texts) expect(text).not.toMatch(/\{\w+\}/);
  });

  it('is part of the reference check that schemas:check and the publish run', () => {
    const form = read('forms/ieltsRegistrationCpr.json');
    expect(referenceProblems([{ file: 'forms/ieltsRegistrationCpr.json', data: form }], [])).toEqual([]);
    const edited = structuredClone(form) as unknown as { uiSchema: { 'ui:steps': Array<{ fields: string[] }> } };
    edited.uiSchema['ui:steps'][1]!.fields = ['passportNumber'];
    expect(referenceProblems([{ file: 'forms/ieltsRegistrationCpr.json', data: edited }], [])).toEqual([
      expect.objectContaining({
        pointer: '/uiSchema/ui:steps',
        key: 'catalogue.problem.stepOnce',
        params: { name: 'passportExpiry', title: 'تاریخ انقضای گذرنامه' },
      }),
    ]);
  });

  it('is described by the form meta-schema: titled steps, at least two, each with fields', () => {
    const ajv = createAjv();
    const validate = ajv.compile(read('meta/form.schema.json'));
    const form = read('forms/ieltsRegistrationCpr.json');
    expect(validate(form), JSON.stringify(validate.errors)).toBe(true);
    const withSteps = (steps: unknown) => ({ ...form, uiSchema: { ...(form.uiSchema as object), 'ui:steps': steps } });
    expect(validate(withSteps([{ title: 'تنها', fields: ['a'] }]))).toBe(false);
    expect(
      validate(
        withSteps([
          { title: '', fields: ['a'] },
          { title: 'دو', fields: ['b'] },
        ]),
      ),
    ).toBe(false);
    expect(
      validate(
        withSteps([
          { title: 'یک', fields: [] },
          { title: 'دو', fields: ['b'] },
        ]),
      ),
    ).toBe(false);
  });
});
