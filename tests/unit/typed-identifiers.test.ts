/**
 * The typed identifier formats a desk form declares (src/shared/validation/foreign-reference.ts): passport number,
 * Latin name and ETS order number beside the SEVIS ID. One rule for the form's validator (the shared ajv format), the
 * server's canonical form and the Persian message: Persian digits, spaces and lower case are accepted where they
 * mean the same identifier; what is wrong is refused.
 */
import { describe, expect, it } from 'vitest';
import messages from '../../schemas/messages/fa.json';
import { formErrorMessage } from '../../src/shared/form-schema';
import { createAjv } from '../../src/shared/validation/ajv';
import {
  canonicalForeignReference,
  canonicalIdentifierFields,
  foreignReferenceMessage,
  isForeignReference,
} from '../../src/shared/validation/foreign-reference';

const fa = messages.messages as Record<string, string>;

describe('passportNumber', () => {
  it('takes a letter and eight digits, typed with Persian digits, spaces or in lower case', () => {
    for (const typed of ['K12345678', 'k12345678', 'K۱۲۳۴۵۶۷۸', ' k ۱۲۳۴ ۵۶۷۸ ', 'K-1234-5678'])
      expect(canonicalForeignReference('passportNumber', typed), typed).toBe('K12345678');
  });
  it('refuses the wrong shape', () => {
    for (const typed of ['', '12345678', 'K1234567', 'K123456789', 'KK1234567', 'ک12345678', 'K1234567O'])
      expect(isForeignReference('passportNumber', typed), typed).toBe(false);
  });
});

describe('latinName', () => {
  it('takes Latin letters with spaces, dots, apostrophes and hyphens, tidied', () => {
    expect(canonicalForeignReference('latinName', '  Sara   Karimi-Nejad ')).toBe('Sara Karimi-Nejad');
    for (const typed of ["Mohammad O'Neil", 'SARA KARIMI', 'J. R. Smith', 'sara karimi'])
      expect(isForeignReference('latinName', typed), typed).toBe(true);
  });
  it('refuses Persian letters, digits and symbols', () => {
    for (const typed of ['سارا کریمی', 'Sara2', 'Sara ۲', 'Sara@Karimi', '-Sara', '', '   '])
      expect(isForeignReference('latinName', typed), typed).toBe(false);
  });
});

describe('etsOrderNumber', () => {
  it('takes eight to sixteen digits, Persian digits and spaces included', () => {
    expect(canonicalForeignReference('etsOrderNumber', '۱۲۳۴ ۵۶۷۸ ۹۰')).toBe('1234567890');
    expect(isForeignReference('etsOrderNumber', '12345678')).toBe(true);
    expect(isForeignReference('etsOrderNumber', '1234567890123456')).toBe(true);
  });
  it('refuses letters and the wrong length', () => {
    for (const typed of ['1234567', '12345678901234567', 'ORD12345678', ''])
      expect(isForeignReference('etsOrderNumber', typed), typed).toBe(false);
  });
});

describe('the formats in a form', () => {
  const schema = {
    type: 'object',
    properties: {
      passportNumber: { type: 'string', title: 'شماره گذرنامه', format: 'passportNumber' },
      payerLatinName: { type: 'string', title: 'نام لاتین', format: 'latinName' },
      etsOrder: { type: 'string', title: 'شماره سفارش', format: 'etsOrderNumber' },
      note: { type: 'string', title: 'یادداشت' },
    },
  };

  it('validates with the shared rule, and each format has its own Persian message', () => {
    const validate = createAjv({ allErrors: true }).compile(schema);
    expect(validate({ passportNumber: 'k ۱۲۳۴۵۶۷۸', payerLatinName: 'Sara Karimi', etsOrder: '۱۲۳۴۵۶۷۸۹۰' })).toBe(
      true,
    );
    expect(validate({ passportNumber: 'K12', payerLatinName: 'سارا', etsOrder: 'x' })).toBe(false);
    const said = (validate.errors ?? []).map((e) =>
      formErrorMessage(schema, { keyword: e.keyword, path: [e.instancePath.slice(1)], params: e.params }, (k) => fa[k]),
    );
    expect(said).toEqual([
      fa[foreignReferenceMessage('passportNumber')],
      fa[foreignReferenceMessage('latinName')],
      fa[foreignReferenceMessage('etsOrderNumber')],
    ]);
    for (const format of ['passportNumber', 'latinName', 'etsOrderNumber', 'sevisId'] as const)
      expect(fa[foreignReferenceMessage(format)], format).toMatch(/[\u0600-\u06ff]/);
  });

  it('keeps the fields the server stores canonical, and leaves a malformed one for the validator', () => {
    expect(
      canonicalIdentifierFields(schema.properties, {
        passportNumber: 'k ۱۲۳۴ ۵۶۷۸',
        payerLatinName: ' Sara  Karimi ',
        etsOrder: 'bad',
        note: ' as typed ',
      }),
    ).toEqual({ passportNumber: 'K12345678', payerLatinName: 'Sara Karimi', etsOrder: 'bad', note: ' as typed ' });
  });
});
