/**
 * Proof for the embassy, its pure parts: the SEVIS I-901 receipt number format (one rule for the staff dialog, the
 * server and the forms' shared ajv format; Persian digits typed accepted), the reference comparison of the verify
 * page (normalised like tracking codes), the amounts in words of the proof letter, and the catalogue check refusing
 * a desk whose printed field has no English title.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateSchemaTree } from '../../codegen/validate-schemas';
import {
  foreignAmountInEnglishWords,
  foreignAmountInPersianWords,
  numberToEnglishWords,
} from '../../src/shared/format/english-words';
import { createAjv } from '../../src/shared/validation/ajv';
import {
  canonicalForeignReference,
  isForeignReference,
  sameForeignReference,
} from '../../src/shared/validation/foreign-reference';

describe('the sevisId format', () => {
  it('is N and ten digits, typed in any digits, case or spacing', () => {
    expect(isForeignReference('sevisId', 'N0012345678')).toBe(true);
    expect(isForeignReference('sevisId', 'n0012345678')).toBe(true);
    expect(isForeignReference('sevisId', 'N۰۰۱۲۳۴۵۶۷۸')).toBe(true);
    expect(isForeignReference('sevisId', ' N 001-234-5678 ')).toBe(true);
    expect(canonicalForeignReference('sevisId', 'n ۰۰۱ ۲۳۴ ۵۶۷۸')).toBe('N0012345678');
  });

  it('refuses another letter, too few or too many digits, and letters among them', () => {
    for (const typed of ['', 'N', 'N001234567', 'N00123456789', 'M0012345678', '0012345678', 'N00123A5678', 'SEVIS'])
      expect(isForeignReference('sevisId', typed), typed).toBe(false);
    expect(canonicalForeignReference('sevisId', 'N12')).toBeNull();
  });

  it('keeps free text for a desk without a format, trimmed', () => {
    expect(canonicalForeignReference(undefined, '  ETS-7781 ')).toBe('ETS-7781');
  });

  it('is the same rule as an ajv format', () => {
    const validate = createAjv().compile({ type: 'string', format: 'sevisId' });
    expect(validate('N۰۰۱۲۳۴۵۶۷۸')).toBe(true);
    expect(validate('N123')).toBe(false);
  });
});

describe('a reader’s reference against the stored one', () => {
  it('matches across case, spaces, dashes and Persian digits, and nothing else', () => {
    expect(sameForeignReference('n 001-234 ۵۶۷۸', 'N0012345678')).toBe(true);
    expect(sameForeignReference('N0012345679', 'N0012345678')).toBe(false);
    expect(sameForeignReference(' - ', '')).toBe(false);
  });
});

describe('amounts in words for the proof letter', () => {
  it('says whole numbers in English', () => {
    expect(numberToEnglishWords(0)).toBe('zero');
    expect(numberToEnglishWords(21)).toBe('twenty-one');
    expect(numberToEnglishWords(350)).toBe('three hundred fifty');
    expect(numberToEnglishWords(1_250_000)).toBe('one million two hundred fifty thousand');
    expect(numberToEnglishWords(1_000_013)).toBe('one million thirteen');
  });

  it('says a foreign amount with its cents in both languages', () => {
    expect(foreignAmountInEnglishWords(350, 'USD')).toBe('three hundred fifty USD');
    expect(foreignAmountInEnglishWords(350.25, 'USD')).toBe('three hundred fifty and 25/100 USD');
    expect(foreignAmountInPersianWords(350, 'دلار')).toBe('سیصد و پنجاه دلار');
    expect(foreignAmountInPersianWords(350.25, 'دلار')).toBe('سیصد و پنجاه و ۲۵ صدم دلار');
  });
});

const schemasDir = path.resolve(import.meta.dirname, '../../schemas');
const readJson = (file: string) => JSON.parse(readFileSync(path.join(schemasDir, file), 'utf8'));

describe('the catalogue check of what the proof letter prints', () => {
  it('refuses a printed field, a reference or a desk without an English title', async () => {
    const copy = mkdtempSync(path.join(os.tmpdir(), 'proof-schemas-'));
    try {
      cpSync(schemasDir, copy, { recursive: true });
      const desk = readJson('catalogue/desks/sevisGeneralCpr.json');
      desk.proofFields = ['payerLatinName', 'subject'];
      delete desk.foreignReference['x-title-en'];
      delete desk['x-title-en'];
      writeFileSync(path.join(copy, 'catalogue/desks/sevisGeneralCpr.json'), JSON.stringify(desk));
      const problems = await validateSchemaTree(copy);
      expect(problems.map((p) => [path.relative(copy, p.file), p.pointer])).toEqual([
        ['catalogue/desks/sevisGeneralCpr.json', '/x-title-en'],
        ['catalogue/desks/sevisGeneralCpr.json', '/foreignReference'],
        // subject has a Persian title only.
        ['catalogue/desks/sevisGeneralCpr.json', '/proofFields/1'],
      ]);
      expect(problems.every((p) => /without an English title/.test(p.message))).toBe(true);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('passes on the real tree, where the SEVIS desk declares its reference and prints the Latin name', async () => {
    expect(await validateSchemaTree(schemasDir)).toEqual([]);
    const desk = readJson('catalogue/desks/sevisGeneralCpr.json');
    expect(desk.foreignReference).toMatchObject({ format: 'sevisId', 'x-title-en': 'SEVIS I-901 receipt number' });
    expect(desk.proofFields).toEqual(['payerLatinName']);
  });
});
