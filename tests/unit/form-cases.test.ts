/**
 * A form's own tests (src/shared/form-cases.ts): what a case promises about shown, hidden, required and optional
 * fields, and where data is refused, read as rjsf draws the form and as the server validates it; an edit that breaks
 * a case is a catalogue problem with the case's name and pointer, so `npm run schemas:check` and the publish refuse it.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateSchemaTree } from '../../codegen/validate-schemas';
import { referenceProblems } from '../../src/shared/catalogue-check';
import { caseFailures, type FormCase, refusedAt } from '../../src/shared/form-cases';
import { conferenceForm } from '../support/conference-desk';

const schemasDir = path.resolve(import.meta.dirname, '../../schemas');
const registration = { currency: 1, amount: 120, requestedPaymentMethodGroup: 1, seat: 'standard' };

const student: FormCase = {
  name: 'دانشجو شمارهٔ دانشجویی می‌دهد، نه شمارهٔ عضویت',
  data: { ...registration, registrationType: 'student' },
  shown: ['studentId'],
  hidden: ['membershipNo'],
  required: ['studentId', 'billingAddress/city'],
};

describe('a form case', () => {
  it('reads conditional fields as the desk page draws them: if/then/else, dependentSchemas, nested objects', () => {
    expect(caseFailures(conferenceForm, student)).toEqual([]);
    const member: FormCase = {
      name: 'عضو انجمن',
      data: { ...registration, registrationType: 'member' },
      shown: ['membershipNo'],
      hidden: ['studentId'],
      optional: ['membershipNo', 'companyNationalId'],
    };
    expect(caseFailures(conferenceForm, member)).toEqual([]);
    const company: FormCase = {
      name: 'با نام شرکت، شناسهٔ ملی لازم است',
      data: { ...registration, companyName: 'آرمان' },
      shown: ['companyNationalId'],
      required: ['companyNationalId'],
    };
    expect(caseFailures(conferenceForm, company)).toEqual([]);
  });

  it('names each promise that does not hold, in Persian, at its pointer within the case', () => {
    const wrong: FormCase = {
      ...student,
      shown: ['membershipNo'],
      hidden: ['studentId'],
      required: ['contactEmail'],
      optional: ['studentId'],
    };
    expect(caseFailures(conferenceForm, wrong).map((f) => [f.pointer, f.key, f.params.field])).toEqual([
      ['/shown/0', 'catalogue.problem.caseNotShown', 'membershipNo'],
      ['/hidden/0', 'catalogue.problem.caseNotHidden', 'studentId'],
      ['/required/0', 'catalogue.problem.caseNotRequired', 'contactEmail'],
      ['/optional/0', 'catalogue.problem.caseNotOptional', 'studentId'],
    ]);
    expect(caseFailures(conferenceForm, { name: 'غلط تایپی', data: {}, shown: ['studentID'] })).toEqual([
      expect.objectContaining({ pointer: '/shown/0', key: 'catalogue.problem.caseUnknownField' }),
    ]);
  });

  it('compares where the server refuses the data with exactly the pointers the case lists', () => {
    const data = { ...registration, registrationType: 'student', studentId: '12' };
    expect(refusedAt(conferenceForm.schema, data)).toContain('/studentId');
    const refused = refusedAt(conferenceForm.schema, data);
    expect(caseFailures(conferenceForm, { name: 'دقیق', data, errors: refused })).toEqual([]);
    const [failure] = caseFailures(conferenceForm, { name: 'فقط شماره', data, errors: ['/studentId'] });
    expect(failure).toMatchObject({ pointer: '/errors', key: 'catalogue.problem.caseErrors' });
    expect(failure!.params.expected).toBe('«/studentId»');
    expect(caseFailures(conferenceForm, { name: 'پذیرفته؟', data, valid: true })[0]).toMatchObject({
      pointer: '/valid',
      key: 'catalogue.problem.caseRefused',
    });
  });

  it('makes a form edit that breaks its own case a catalogue problem, as publishing and schemas:check see it', () => {
    const withCase = { ...structuredClone(conferenceForm), cases: [student] };
    const form = (data: unknown) => [{ file: 'forms/conferenceFee.json', data }];
    expect(referenceProblems(form(withCase), [])).toEqual([]);
    // An editor drops "student number required" from the `then` branch: the case that promised it fails.
    const edited = structuredClone(withCase);
    edited.schema.then = { ...edited.schema.then, required: [] };
    expect(referenceProblems(form(edited), [])).toEqual([
      expect.objectContaining({
        file: 'forms/conferenceFee.json',
        pointer: '/cases/0/required/0',
        key: 'catalogue.problem.caseNotRequired',
        params: { name: student.name, field: 'studentId' },
      }),
    ]);
  });
});

describe('the catalogue’s forms', () => {
  it('each form type carries cases, and they hold', async () => {
    for (const name of ['generalCpr', 'deadlineCpr', 'ieltsRegistrationCpr', 'googleAdsAccountCr']) {
      const form = JSON.parse(readFileSync(path.join(schemasDir, `forms/${name}.json`), 'utf8')) as {
        schema: object;
        cases?: FormCase[];
      };
      expect(form.cases?.length, name).toBeGreaterThanOrEqual(2);
      for (const formCase of form.cases!) expect(caseFailures(form, formCase), formCase.name).toEqual([]);
    }
  });

  it('schemas:check refuses a form whose case fails, naming the case and its pointer', async () => {
    const copy = mkdtempSync(path.join(os.tmpdir(), 'form-cases-'));
    try {
      cpSync(schemasDir, copy, { recursive: true });
      const file = path.join(copy, 'forms/ieltsRegistrationCpr.json');
      const form = JSON.parse(readFileSync(file, 'utf8')) as { schema: { properties: Record<string, object> } };
      // An edit that takes a passport number of any shape: the case that says seven digits are too few, fails.
      delete (form.schema.properties.passportNumber as { format?: string }).format;
      writeFileSync(file, JSON.stringify(form));
      const problems = await validateSchemaTree(copy);
      expect(problems).toEqual([
        expect.objectContaining({ pointer: '/cases/1/errors', message: expect.stringContaining('case "') }),
      ]);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
