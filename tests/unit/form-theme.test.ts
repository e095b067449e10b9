/**
 * The form engine's theme covers rjsf whole (decision 012): every widget and template of rjsf's default
 * registry (and every button template) has the theme's own, and every one of rjsf's translatable strings has
 * Persian text. A new rjsf version that adds a name fails here until the theme draws it. Also the shared walk of a
 * form schema by path and its Persian messages, as the server and the web use them.
 */
import getDefaultRegistry from '@rjsf/core/lib/getDefaultRegistry.js';
import { TranslatableString } from '@rjsf/utils';
import { describe, expect, it } from 'vitest';
import { fieldAt, fieldLabel, formErrorMessage, forValidation } from '../../src/shared/form-schema';
import { createAjv } from '../../src/shared/validation/ajv';
import { viewOfFields } from '../../src/shared/form-view';
import { themeTemplates, themeWidgets } from '../../src/web/components/form-engine/theme';
import { PERSIAN, persianTranslator } from '../../src/web/components/form-engine/translator';
import messages from '../../schemas/messages/fa.json';

const core = getDefaultRegistry();

describe('the form theme', () => {
  it('provides every widget rjsf can ask for', () => {
    const missing = Object.keys(core.widgets).filter((name) => !(name in themeWidgets));
    expect(missing).toEqual([]);
    for (const name of Object.keys(core.widgets)) expect(themeWidgets[name]).not.toBe(core.widgets[name]);
  });

  it('provides every template and button template rjsf can ask for', () => {
    const { ButtonTemplates: coreButtons, ...coreTemplates } = core.templates;
    const { ButtonTemplates: buttons, ...templates } = themeTemplates;
    expect(Object.keys(coreTemplates).filter((name) => !(name in templates))).toEqual([]);
    expect(Object.keys(coreButtons).filter((name) => !(name in (buttons ?? {})))).toEqual([]);
    for (const [name, template] of Object.entries(templates))
      expect(template, name).not.toBe((coreTemplates as Record<string, unknown>)[name]);
  });

  it('has Persian text for every translatable string, with its parameters filled', () => {
    const untranslated = Object.values(TranslatableString).filter((key) => !PERSIAN[key]);
    expect(untranslated).toEqual([]);
    for (const key of Object.values(TranslatableString)) {
      const text = persianTranslator(key, ['الف', 'ب', 'پ']);
      expect(text, key).not.toMatch(/[A-Za-z]{3,}|%\d/);
    }
  });
});

const form = {
  type: 'object',
  required: ['kind', 'attendees'],
  properties: {
    kind: {
      type: 'string',
      title: 'نوع ثبت‌نام',
      oneOf: [
        { const: 'regular', title: 'عادی' },
        { const: 'student', title: 'دانشجویی' },
      ],
    },
    attendees: {
      type: 'array',
      title: 'شرکت‌کنندگان',
      minItems: 1,
      items: { type: 'object', title: 'شرکت‌کننده', properties: { name: { type: 'string', title: 'نام' } } },
    },
    billingAddress: {
      type: 'object',
      title: 'نشانی صورتحساب',
      properties: { city: { type: 'string', title: 'شهر', 'x-messages': { required: 'amount.required' } } },
    },
  },
  if: { properties: { kind: { const: 'student' } } },
  then: { required: ['studentId'], properties: { studentId: { type: 'string', title: 'شماره دانشجویی' } } },
};
const text = (key: string, params: Record<string, string | number> = {}) =>
  (messages.messages as Record<string, string>)[key]?.replace(/\{(\w+)\}/g, (_, n: string) => String(params[n]));

describe('a form schema by path', () => {
  it('finds fields nested, in lists and in conditional branches', () => {
    expect(fieldAt(form, ['billingAddress', 'city'])?.title).toBe('شهر');
    expect(fieldAt(form, ['attendees', 'name'])?.title).toBe('نام');
    expect(fieldAt(form, ['attendees', '2', 'name'])?.title).toBe('نام');
    expect(fieldAt(form, ['studentId'])?.title).toBe('شماره دانشجویی');
    expect(fieldAt(form, ['billingAddress', 'street'])).toBeUndefined();
    expect(fieldLabel(form, ['attendees', '1', 'name'])).toBe('شرکت‌کنندگان / ردیف ۲ / نام');
  });

  it('says what is wrong in Persian, by the field titles or its own message', () => {
    const say = (keyword: string, path: string[], params: Record<string, unknown> = {}) =>
      formErrorMessage(form, { keyword, path, params }, text);
    expect(say('required', [], { missingProperty: 'studentId' })).toBe('شماره دانشجویی را وارد نمایید.');
    expect(say('required', ['billingAddress'], { missingProperty: 'city' })).toBe('مبلغ را وارد نمایید.');
    expect(say('minItems', ['attendees'], { limit: 1 })).toBe('«شرکت‌کنندگان» دست‌کم ۱ مورد لازم دارد.');
    expect(say('unevaluatedProperties', ['attendees', '0'], { unevaluatedProperty: 'x' })).toBe(
      'فیلد «x» در «شرکت‌کنندگان / ردیف ۱» نیست.',
    );
    expect(say('type', ['attendees', '0', 'name'])).toBe('مقدار «شرکت‌کنندگان / ردیف ۱ / نام» معتبر نیست.');
  });

  it('shows a request readably: choices by label, lists as rows, groups with their titles', () => {
    const view = viewOfFields(
      form,
      { 'ui:order': ['attendees', '*'] },
      {
        kind: 'student',
        studentId: '12345',
        attendees: [{ name: 'سارا' }],
        billingAddress: { city: 'تهران' },
      },
    );
    expect(view).toEqual([
      {
        path: 'attendees',
        title: 'شرکت‌کنندگان',
        items: [
          {
            path: 'attendees/0',
            title: 'شرکت‌کننده',
            fields: [{ path: 'attendees/0/name', title: 'نام', text: 'سارا' }],
          },
        ],
      },
      { path: 'kind', title: 'نوع ثبت‌نام', text: 'دانشجویی' },
      {
        path: 'billingAddress',
        title: 'نشانی صورتحساب',
        fields: [{ path: 'billingAddress/city', title: 'شهر', text: 'تهران' }],
      },
      { path: 'studentId', title: 'شماره دانشجویی', text: '12345' },
    ]);
  });
});

describe('validating a form', () => {
  it('keeps unevaluatedProperties right beside a dependentSchemas that does not apply (Ajv 8.20 alone refuses)', () => {
    const schema = {
      type: 'object',
      unevaluatedProperties: false,
      properties: { a: { type: 'string' }, b: { type: 'string' } },
      dependentSchemas: { b: { required: ['c'], properties: { c: { type: 'string' } } } },
    };
    const validate = createAjv().compile(forValidation(schema));
    expect(validate({ a: 'x' })).toBe(true);
    expect(validate({ a: 'x', b: 'y', c: 'z' })).toBe(true);
    expect(validate({ a: 'x', b: 'y' })).toBe(false);
    expect(validate({ a: 'x', z: 1 })).toBe(false);
  });
});
