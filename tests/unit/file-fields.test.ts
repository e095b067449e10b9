/**
 * File fields with declared limits (src/shared/file-fields.ts, decision 045): the `x-file` rule both sides validate
 * with (count and kinds of the stored paths), what the picker says and pre-checks, and the catalogue check that every
 * field drawn with an upload widget declares its limits, and only such a field.
 */
import { describe, expect, it } from 'vitest';
import messages from '../../schemas/messages/fa.json';
import { referenceProblems } from '../../src/shared/catalogue-check';
import { fileFieldHolds, type FileLimits } from '../../src/shared/file-fields';
import { describeLimits, precheckFile } from '../../src/shared/file-limits';
import { formErrorMessage } from '../../src/shared/form-schema';
import { createAjv } from '../../src/shared/validation/ajv';
import ielts from '../../schemas/forms/ieltsRegistrationCpr.json';

const fa = messages.messages as Record<string, string>;
const IELTS_LIMITS: FileLimits = { types: ['pdf', 'jpeg', 'png'], maxBytes: 5_000_000, maxFiles: 3 };

describe('the x-file rule', () => {
  it('holds at most maxFiles paths, each of a declared kind', () => {
    expect(fileFieldHolds('', IELTS_LIMITS)).toBe(true);
    expect(fileFieldHolds('requestFile/2026/a.pdf|requestFile/2026/b.JPG|c.png', IELTS_LIMITS)).toBe(true);
    expect(fileFieldHolds('a.pdf|b.pdf|c.pdf|d.pdf', IELTS_LIMITS)).toBe(false);
    expect(fileFieldHolds('a.webp', IELTS_LIMITS)).toBe(false);
    expect(fileFieldHolds('a.exe', IELTS_LIMITS)).toBe(false);
  });

  it('is a keyword of the shared Ajv, refused with a Persian message naming the field and its limits', () => {
    const schema = {
      type: 'object',
      properties: { files: { type: 'string', title: 'پیوست‌ها', 'x-file': IELTS_LIMITS } },
    };
    const validate = createAjv().compile(schema);
    expect(validate({ files: 'a.pdf|b.png' })).toBe(true);
    expect(validate({ files: 'a.pdf|b.png|c.jpg|d.pdf' })).toBe(false);
    const error = validate.errors![0]!;
    expect(error.keyword).toBe('x-file');
    expect(
      formErrorMessage(schema, { keyword: error.keyword, path: ['files'], params: error.params }, (k, p) =>
        fa[k]?.replace(/\{(\w+)\}/g, (_, n: string) => String(p?.[n] ?? '')),
      ),
    ).toBe('«پیوست‌ها» حداکثر ۳ فایل PDF،\u200f JPEG یا PNG می‌پذیرد.');
  });
});

describe('the picker', () => {
  it('says what the field takes in Persian', () => {
    expect(describeLimits(IELTS_LIMITS)).toBe('PDF،\u200f JPEG یا PNG، حداکثر ۵ مگابایت، تا ۳ فایل');
    expect(describeLimits({ types: ['pdf'], maxBytes: 2_500_000, maxFiles: 1 })).toBe(
      'PDF، حداکثر ۲٫۵ مگابایت، یک فایل',
    );
    expect(describeLimits({ types: ['jpeg', 'png', 'webp'], maxBytes: 5 * 1024 * 1024, maxFiles: 5 })).toBe(
      'JPEG،\u200f PNG یا WebP، حداکثر ۵ مگابایت، تا ۵ فایل',
    );
  });

  it('pre-checks a chosen file by its name and size, the server judging the bytes', () => {
    expect(precheckFile({ name: 'passport.PDF', size: 1000 }, IELTS_LIMITS, 0)).toBeNull();
    expect(precheckFile({ name: 'setup.exe', size: 1000 }, IELTS_LIMITS, 0)).toBe(
      'فقط فایل PDF،\u200f JPEG یا PNG پذیرفته می‌شود.',
    );
    expect(precheckFile({ name: 'big.pdf', size: 5_000_001 }, IELTS_LIMITS, 0)).toBe('حجم فایل بیش از ۵ مگابایت است.');
    expect(precheckFile({ name: 'a.pdf', size: 10 }, IELTS_LIMITS, 3)).toBe('این فیلد حداکثر ۳ فایل می‌پذیرد.');
  });
});

describe('the catalogue check', () => {
  const problemsOf = (form: unknown) =>
    referenceProblems([{ file: 'forms/ielts.json', data: form }], []).map((p) => [p.pointer, p.key]);
  const copy = () =>
    JSON.parse(JSON.stringify(ielts)) as { schema: { properties: Record<string, Record<string, unknown>> } };

  it('passes the IELTS form, whose attachments declare PDF and images', () => {
    expect(problemsOf(ielts)).toEqual([]);
    expect(ielts.schema.properties.customerDescriptiveImageAddresses['x-file']).toEqual(IELTS_LIMITS);
  });

  it('refuses a file field without x-file, and x-file on a field not drawn as a file', () => {
    const missing = copy();
    delete missing.schema.properties.customerDescriptiveImageAddresses!['x-file'];
    // (Its case of four attachments then fails too: nothing refuses them any more.)
    expect(problemsOf(missing)).toContainEqual([
      '/schema/properties/customerDescriptiveImageAddresses',
      'catalogue.problem.fileLimitsMissing',
    ]);
    const misplaced = copy();
    misplaced.schema.properties.subject!['x-file'] = IELTS_LIMITS;
    expect(problemsOf(misplaced)).toEqual([
      ['/schema/properties/subject/x-file', 'catalogue.problem.fileLimitsMisplaced'],
    ]);
    for (const key of ['catalogue.problem.fileLimitsMissing', 'catalogue.problem.fileLimitsMisplaced'])
      expect(fa[key], key).toMatch(/[\u0600-\u06ff]/);
  });
});
