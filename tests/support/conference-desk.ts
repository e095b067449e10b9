/**
 * A form type and desk a catalogue editor might write for conference fees (issue 17), using every field kind the
 * form engine takes: a labelled choice as radio and as select, a multi-select, a field for one choice only
 * (`if`/`then`/`else`), `dependentRequired` and `dependentSchemas`, a list of objects with min/max items, a list of
 * scalars, a nested group, e-mail, uri and a date in the chosen calendar, a file through the upload endpoint, the
 * shared Persian formats in list rows, and `unevaluatedProperties: false` at every level. Desk `comps` reach
 * nested fields by path. `withConferenceDesk` copies the catalogue into a temporary folder with both files.
 */
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const conferenceForm = {
  $schema: '../meta/form.schema.json',
  formType: 'conferenceFee',
  pricing: 'foreignAmount',
  priceInputs: ['currency', 'amount', 'requestedPaymentMethodGroup'],
  amountField: 'amount',
  schema: {
    type: 'object',
    unevaluatedProperties: false,
    required: ['currency', 'amount', 'requestedPaymentMethodGroup', 'registrationType', 'attendees', 'billingAddress'],
    properties: {
      currency: { type: 'integer', title: 'ارز', 'x-messages': { required: 'currency.required' } },
      amount: {
        type: 'number',
        title: 'مبلغ ارزی',
        exclusiveMinimum: 0,
        'x-messages': { required: 'amount.required', exclusiveMinimum: 'amount.positive' },
      },
      requestedPaymentMethodGroup: { type: 'integer', title: 'روش پرداخت' },
      registrationType: {
        type: 'string',
        title: 'نوع ثبت‌نام',
        oneOf: [
          { const: 'regular', title: 'عادی' },
          { const: 'student', title: 'دانشجویی' },
        ],
      },
      seat: {
        type: 'string',
        title: 'جایگاه',
        oneOf: [
          { const: 'front', title: 'ردیف جلو' },
          { const: 'middle', title: 'میانه سالن' },
          { const: 'back', title: 'انتهای سالن' },
        ],
      },
      sessions: {
        type: 'array',
        title: 'نشست‌ها',
        uniqueItems: true,
        items: {
          type: 'string',
          oneOf: [
            { const: 'workshop', title: 'کارگاه' },
            { const: 'keynote', title: 'سخنرانی اصلی' },
            { const: 'dinner', title: 'شام' },
          ],
        },
      },
      attendees: {
        type: 'array',
        title: 'شرکت‌کنندگان',
        minItems: 1,
        maxItems: 3,
        items: {
          type: 'object',
          title: 'شرکت‌کننده',
          unevaluatedProperties: false,
          required: ['fullName', 'mobile'],
          properties: {
            fullName: { type: 'string', title: 'نام و نام خانوادگی', format: 'persianText', maxLength: 60 },
            mobile: { type: 'string', title: 'شماره همراه', format: 'mobile' },
          },
        },
      },
      keywords: {
        type: 'array',
        title: 'کلیدواژه‌ها',
        maxItems: 3,
        items: { type: 'string', title: 'کلیدواژه', minLength: 1, maxLength: 30 },
      },
      billingAddress: {
        type: 'object',
        title: 'نشانی صورتحساب',
        unevaluatedProperties: false,
        required: ['city'],
        properties: {
          city: { type: 'string', title: 'شهر', minLength: 2, maxLength: 40 },
          postalCode: { type: 'string', title: 'کد پستی', pattern: '^[0-9]{10}$' },
          street: { type: 'string', title: 'خیابان', maxLength: 100 },
        },
        dependentRequired: { postalCode: ['street'] },
      },
      contactEmail: { type: 'string', title: 'ایمیل تماس', format: 'email' },
      conferenceUrl: {
        type: 'string',
        title: 'نشانی وب‌سایت همایش',
        format: 'uri',
        description: 'نشانی صفحهٔ رسمی همایش را بنویسید.',
      },
      conferenceDate: { type: 'string', title: 'تاریخ همایش', format: 'date' },
      companyName: {
        type: 'string',
        title: 'نام شرکت برای فاکتور',
        maxLength: 60,
        // Markdown, as the UI schema asks: drawn without raw HTML and without a javascript: link.
        description: 'نام **ثبت‌شدهٔ** شرکت؛ [راهنما](javascript:alert(1)) <i>کج</i>',
      },
      invitationLetter: {
        type: 'string',
        title: 'نامه دعوت',
        maxLength: 2000,
        'x-file': { types: ['pdf', 'jpeg', 'png'], maxBytes: 5_000_000, maxFiles: 1 },
      },
    },
    if: { properties: { registrationType: { const: 'student' } }, required: ['registrationType'] },
    then: {
      required: ['studentId'],
      properties: { studentId: { type: 'string', title: 'شماره دانشجویی', pattern: '^[0-9]{5,12}$' } },
    },
    else: { properties: { membershipNo: { type: 'string', title: 'شماره عضویت انجمن', maxLength: 20 } } },
    dependentSchemas: {
      companyName: {
        required: ['companyNationalId'],
        properties: { companyNationalId: { type: 'string', title: 'شناسه ملی شرکت', pattern: '^[0-9]{11}$' } },
      },
    },
  },
  uiSchema: {
    'ui:order': [
      'currency',
      'amount',
      'requestedPaymentMethodGroup',
      'registrationType',
      'studentId',
      'membershipNo',
      'seat',
      'sessions',
      'attendees',
      'keywords',
      'billingAddress',
      'contactEmail',
      'conferenceUrl',
      'conferenceDate',
      'companyName',
      'companyNationalId',
      'invitationLetter',
    ],
    currency: { 'ui:widget': 'currencySelect', 'ui:options': { filter: 'useForUafCpr' } },
    amount: { 'ui:widget': 'amount' },
    requestedPaymentMethodGroup: { 'ui:widget': 'paymentMethodGroupSelect' },
    registrationType: { 'ui:widget': 'radio' },
    sessions: { 'ui:widget': 'checkboxes' },
    attendees: { 'ui:options': { orderable: true, copyable: true } },
    companyName: { 'ui:enableMarkdownInDescription': true },
    contactEmail: { 'ui:options': { dir: 'ltr' } },
    invitationLetter: { 'ui:widget': 'fileUpload' },
  },
};

export const conferenceDesk = {
  $schema: '../../meta/desk.schema.json',
  identifier: 'conferenceFeeCpr',
  productCategory: 'educational',
  formType: 'conferenceFee',
  businessType: 'open',
  title: 'هزینه ثبت‌نام همایش',
  subTitle: 'Conference',
  description: 'پرداخت هزینه ثبت‌نام همایش‌ها و کنفرانس‌های خارجی',
  img: '/img/categories/educational.svg',
  to: '/desks/conferenceFeeCpr',
  isCashService: false,
  comps: {
    'billingAddress/city': { caption: 'شهر صورتحساب', hint: 'شهری که فاکتور به نام آن صادر می‌شود' },
    'attendees/mobile': { hint: 'شماره همراه ایرانی، مانند ۰۹۱۲۱۲۳۴۵۶۷' },
  },
};

/** A temporary copy of schemas/ with the conference form type and desk added; returns its folder. */
export function withConferenceDesk(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'arzpay-conference-'));
  cpSync(path.resolve(import.meta.dirname, '../../schemas'), dir, { recursive: true });
  writeFileSync(path.join(dir, 'forms/conferenceFee.json'), JSON.stringify(conferenceForm, null, 2));
  writeFileSync(path.join(dir, 'catalogue/desks/conferenceFeeCpr.json'), JSON.stringify(conferenceDesk, null, 2));
  return dir;
}
