/**
 * A form type and desk written as JSON only (tests/support/conference-desk.ts: every field kind of issue 17's
 * point 2) pass schemas:check, and the real server lists, prices and validates them: a valid nested request is
 * accepted and stored with the form version it was validated against; a missing conditional field, an empty list,
 * a bad nested value and unknown keys at any depth are refused with Persian messages; the customer and staff
 * searches show its nested values titled. Runs on PGlite and PostgreSQL (tests/run.ts).
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateSchemaTree } from '../../codegen/validate-schemas';
import { conferenceDesk, conferenceForm, withConferenceDesk } from '../support/conference-desk';
import { moneyHelpers, type Customer } from '../support/money';
import { bearer, loginAdmin, post, type RunningServer, startServer } from '../support/server';

const schemas = withConferenceDesk();
let server: RunningServer;
let money: ReturnType<typeof moneyHelpers>;
let customer: Customer;
let cardGroup: number;

beforeAll(async () => {
  server = await startServer({ web: false, env: { SCHEMAS_DIR: schemas } });
  money = moneyHelpers(server);
  await money.ready();
  customer = await money.customer();
  const groups = (await post(server, '/api/public/searchPaymentMethodGroups')).body.data as {
    items: Array<{ id: number; isCash: boolean }>;
  };
  cardGroup = groups.items.find((g) => !g.isCash)!.id;
});
afterAll(async () => {
  await server?.stop();
  rmSync(schemas, { recursive: true, force: true });
});

const priceInputs = () => ({ currency: money.usd.id, amount: 120, requestedPaymentMethodGroup: cardGroup });
const valid = () => ({
  ...priceInputs(),
  registrationType: 'student',
  studentId: '98123456',
  seat: 'middle',
  sessions: ['workshop', 'dinner'],
  attendees: [
    { fullName: 'سارا احمدی', mobile: '09121234567' },
    { fullName: 'علی رضایی', mobile: '09351234567' },
  ],
  keywords: ['هوش مصنوعی'],
  billingAddress: { city: 'تهران', postalCode: '1234567890', street: 'خیابان آزادی' },
  contactEmail: 'sara@example.com',
  conferenceUrl: 'https://conf.example.org/register',
  conferenceDate: '2027-05-10',
  companyName: 'شرکت نمونه',
  companyNationalId: '10101234567',
});

let keys = 0;
async function submit(body: Record<string, unknown>) {
  const quote = await post(
    server,
    '/api/me/desks/conferenceFeeCpr/priceInquiry',
    priceInputs(),
    bearer(customer.token),
  );
  expect(quote.status, quote.body.msg).toBe(200);
  return post(
    server,
    '/api/me/desks/conferenceFeeCpr/requests',
    { ...body, quoteId: (quote.body.data as { quoteId: string }).quoteId },
    { ...bearer(customer.token), 'idempotency-key': `conference-${process.pid}-${keys++}` },
  );
}

interface FieldView {
  path: string;
  title: string;
  text?: string;
  items?: FieldView[];
  fields?: FieldView[];
}

describe('a form type and desk added as JSON', () => {
  it('pass schemas:check, and a wrong reference is reported with file and pointer', async () => {
    expect(await validateSchemaTree(schemas)).toEqual([]);
    const broken = withConferenceDesk();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      path.join(broken, 'catalogue/desks/conferenceFeeCpr.json'),
      JSON.stringify({ ...conferenceDesk, comps: { 'billingAddress/town': { caption: 'شهر' } } }),
    );
    writeFileSync(
      path.join(broken, 'forms/conferenceFee.json'),
      JSON.stringify({
        ...conferenceForm,
        amountField: 'price',
        schema: {
          ...conferenceForm.schema,
          properties: {
            ...conferenceForm.schema.properties,
            seat: { ...conferenceForm.schema.properties.seat, 'x-messages': { required: 'seat.nowhere' } },
          },
        },
      }),
    );
    writeFileSync(
      path.join(broken, 'catalogue/desks/orphan.json'),
      JSON.stringify({ ...conferenceDesk, identifier: 'orphan', to: '/desks/orphan', formType: 'nothingLikeIt' }),
    );
    const problems = await validateSchemaTree(broken);
    rmSync(broken, { recursive: true, force: true });
    expect(problems.map((p) => [path.basename(p.file), p.pointer])).toEqual(
      expect.arrayContaining([
        ['conferenceFeeCpr.json', '/comps/billingAddress~1town'],
        ['conferenceFee.json', '/amountField'],
        ['conferenceFee.json', '/schema/properties/seat/x-messages/required'],
        ['orphan.json', '/formType'],
      ]),
    );
  });

  it('is listed and priced', async () => {
    const catalogue = (await post(server, '/api/public/fetchCatalogue')).body.data as {
      desks: Array<{ identifier: string }>;
      forms: Array<{ formType: string }>;
    };
    expect(catalogue.desks.map((d) => d.identifier)).toContain('conferenceFeeCpr');
    expect(catalogue.forms.map((f) => f.formType)).toContain('conferenceFee');
    const quote = await post(
      server,
      '/api/me/desks/conferenceFeeCpr/priceInquiry',
      priceInputs(),
      bearer(customer.token),
    );
    expect(quote.status, quote.body.msg).toBe(200);
    expect((quote.body.data as { amount: number }).amount).toBe(120);
  });

  it('refuses what the form does not allow, in Persian', async () => {
    const refusals: Array<[string, Record<string, unknown>, string]> = [
      ['missing conditional field', { ...valid(), studentId: undefined }, 'شماره دانشجویی را وارد نمایید.'],
      ['empty list', { ...valid(), attendees: [] }, '«شرکت‌کنندگان» دست‌کم ۱ مورد لازم دارد.'],
      [
        'bad nested value',
        { ...valid(), attendees: [{ fullName: 'سارا احمدی', mobile: '12345' }] },
        'مقدار «شرکت‌کنندگان / ردیف ۱ / شماره همراه» معتبر نیست.',
      ],
      ['unknown key at the top', { ...valid(), discountCode: 'FREE' }, 'فیلد «discountCode» در این فرم نیست.'],
      [
        'unknown key in a group',
        { ...valid(), billingAddress: { city: 'تهران', country: 'IR' } },
        'فیلد «country» در «نشانی صورتحساب» نیست.',
      ],
      [
        'unknown key in a list row',
        { ...valid(), attendees: [{ fullName: 'سارا احمدی', mobile: '09121234567', vip: true }] },
        'فیلد «vip» در «شرکت‌کنندگان / ردیف ۱» نیست.',
      ],
      [
        'too many rows',
        { ...valid(), attendees: Array(4).fill(valid().attendees[0]) },
        '«شرکت‌کنندگان» حداکثر ۳ مورد می‌پذیرد.',
      ],
      [
        'dependentRequired',
        { ...valid(), billingAddress: { city: 'تهران', postalCode: '1234567890' } },
        'نشانی صورتحساب / خیابان را وارد نمایید.',
      ],
      ['dependentSchemas', { ...valid(), companyNationalId: undefined }, 'شناسه ملی شرکت را وارد نمایید.'],
      ['a choice not offered', { ...valid(), seat: 'balcony' }, 'برای «جایگاه» یکی از گزینه‌ها را انتخاب نمایید.'],
      ['a field of the other branch', { ...valid(), membershipNo: '12' }, 'فیلد «membershipNo» در این فرم نیست.'],
    ];
    for (const [what, body, message] of refusals) {
      for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
      const res = await submit(body);
      expect(res.status, what).toBe(400);
      expect(res.body.msg, what).toBe(message);
    }
  });

  it('refuses values nested deeper or larger than the contract allows', async () => {
    const deep = { ...valid(), keywords: [[[['x']]]] };
    const res = await submit(deep);
    expect(res.status).toBe(400);
    expect(res.body.msg).toMatch(/[\u0600-\u06FF]/);
  });

  it('accepts a valid nested request, keeps its form version and shows its values titled', async () => {
    const res = await submit(valid());
    expect(res.status, res.body.msg).toBe(200);
    const purchase = res.body.data as { id: number; fields: Record<string, unknown>; fieldsView: FieldView[] };
    expect(purchase.fields.attendees).toEqual(valid().attendees);
    const row = await server.app.database.db
      .selectFrom('purchases')
      .innerJoin('formVersions', 'formVersions.hash', 'purchases.formVersion')
      .select(['formVersions.form', 'formVersions.formType'])
      .where('purchases.id', '=', purchase.id)
      .executeTakeFirstOrThrow();
    expect(row.formType).toBe('conferenceFee');
    expect((row.form as { schema: { properties: Record<string, unknown> } }).schema.properties).toHaveProperty(
      'attendees',
    );

    const mine = (await post(server, '/api/me/searchPurchases', {}, bearer(customer.token))).body.data as {
      items: Array<{ id: number; fieldsView: FieldView[] }>;
    };
    const admin = await loginAdmin(server);
    const staff = (await post(server, '/api/sys/searchPurchases', { search: String(purchase.id) }, bearer(admin))).body
      .data as { items: Array<{ id: number; fieldsView: FieldView[] }> };
    for (const view of [
      purchase.fieldsView,
      mine.items.find((p) => p.id === purchase.id)!.fieldsView,
      staff.items[0]!.fieldsView,
    ]) {
      const byPath = Object.fromEntries(view.map((f) => [f.path, f]));
      expect(Object.keys(byPath)).not.toContain('currency');
      expect(byPath.registrationType).toMatchObject({ title: 'نوع ثبت‌نام', text: 'دانشجویی' });
      expect(byPath.sessions!.items!.map((i) => i.text)).toEqual(['کارگاه', 'شام']);
      expect(byPath.attendees!.items![1]).toEqual({
        path: 'attendees/1',
        title: 'شرکت‌کننده',
        fields: [
          { path: 'attendees/1/fullName', title: 'نام و نام خانوادگی', text: 'علی رضایی' },
          { path: 'attendees/1/mobile', title: 'شماره همراه', text: '09351234567' },
        ],
      });
      expect(byPath.billingAddress).toMatchObject({
        title: 'نشانی صورتحساب',
        fields: expect.arrayContaining([{ path: 'billingAddress/city', title: 'شهر صورتحساب', text: 'تهران' }]),
      });
      expect(byPath.studentId).toMatchObject({ title: 'شماره دانشجویی', text: '98123456' });
    }
  });
});
