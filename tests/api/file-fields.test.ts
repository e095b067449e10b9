/**
 * File fields with declared limits (decision 045) on a real server and database (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL): an upload names its desk and field and is held to that field's `x-file`, judged by the bytes.
 * A real PDF is taken for the IELTS attachments and served to its owner and to staff as a download that runs
 * nothing, and is 404 to another customer; a `.pdf` that is really a program is refused with a Persian reason and
 * nothing is stored; a file past the field's size is 413; a kind the field does not take is 415; a field that takes
 * no file is 404; and at submit, more files than the field takes, or a path that is not the customer's, are refused.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import messages from '../../schemas/messages/fa.json';
import type { DB } from '../../src/server/db/database';
import { jpegWithExif, png } from '../support/images';
import { type Customer, type MoneyHelpers, withMoneyServer } from '../support/money';
import { bearer, type RunningServer } from '../support/server';
import { dataOf, refusal, type TypedApi, typedApi } from '../support/typed-api';
import sharp from 'sharp';

const fa = messages.messages;

let server: RunningServer;
let db: DB;
let money: MoneyHelpers;
let staff: TypedApi;
withMoneyServer({ web: false }, async (t) => {
  ({ server, db, money } = t);
  staff = typedApi(server, (await money.staffWithActions(['viewRequests'])).token);
});

const IELTS = 'ieltsRegistrationAndCpr';
const FIELD = 'customerDescriptiveImageAddresses';
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
  'latin1',
);
/** A Windows program (MZ … PE) and a Linux one (ELF), each named as a PDF by whoever sends it. */
const EXE = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(200, 0x41)]);
const ELF = Buffer.concat([Buffer.from('\x7fELF\x02\x01\x01\x00', 'latin1'), Buffer.alloc(200, 0x42)]);

interface Answer {
  status: number;
  msg: string;
  path?: string;
  url?: string;
}

async function upload(
  who: Customer,
  bytes: Buffer,
  filename: string,
  type: string,
  { desk = IELTS, field = FIELD }: { desk?: string; field?: string } = {},
): Promise<Answer> {
  const form = new FormData();
  form.set('desk', desk);
  form.set('field', field);
  form.set('attached_file', new Blob([new Uint8Array(bytes)], { type }), filename);
  const res = await fetch(`${server.url}/api/me/uploadFile`, {
    method: 'POST',
    headers: bearer(who.token),
    body: form,
  });
  const body: unknown = await res.json();
  const { msg = '', path: stored, url } = body as { msg?: string; path?: string; url?: string };
  return { status: res.status, msg, path: stored, url };
}

/** The customer's uploads for desk forms' file fields (their national card image aside). */
const uploadsOf = (who: Customer) =>
  db
    .selectFrom('uploads')
    .select(['path', 'mime'])
    .where('ownerUserId', '=', who.userId)
    .where('purpose', '=', 'requestFile')
    .execute();
const filesOnDisk = (purpose: string) => {
  const dir = path.join(server.dataDir, 'storage', purpose);
  return existsSync(dir) ? readdirSync(dir, { recursive: true }).filter((f) => String(f).includes('.')) : [];
};

async function ieltsRequest(who: Customer, attachments: string | undefined) {
  const api = typedApi(server, who.token);
  const priceInputs = { currency: money.usd.id, amount: 310, requestedPaymentMethodGroup: await cardGroup() };
  const quote = await dataOf(
    api.POST('/api/me/desks/{desk}/priceInquiry', { params: { path: { desk: IELTS } }, body: priceInputs }),
  );
  return api.POST('/api/me/desks/{desk}/requests', {
    params: { path: { desk: IELTS }, header: { 'Idempotency-Key': money.newKey() } },
    body: {
      ...priceInputs,
      testModule: 'Academic',
      testCity: 'تهران',
      preferredTestDate: '2027-01-15',
      passportNumber: 'k ۱۲۳۴ ۵۶۷۸',
      passportExpiry: '2030-05-01',
      quoteId: quote.quoteId,
      ...(attachments === undefined ? {} : { [FIELD]: attachments }),
    },
  });
}

let group: number | undefined;
async function cardGroup(): Promise<number> {
  group ??= (await dataOf(typedApi(server).POST('/api/public/searchPaymentMethodGroups', { body: {} }))).items.find(
    (g) => !g.isCash,
  )!.id;
  return group;
}

describe('a file field takes what it declares, judged by the bytes', () => {
  it('takes a real PDF and serves it as a download to its owner and staff, and as nothing to anyone else', async () => {
    const owner = await money.customer();
    const pdf = await upload(owner, PDF, 'passport.pdf', 'application/pdf');
    expect(pdf.status, pdf.msg).toBe(200);
    expect(pdf.msg).toBe(fa['upload.fileSaved']);
    expect(pdf.path).toMatch(/^requestFile\/\d{4}\/[\w-]+\.pdf$/);
    const image = await upload(owner, await png(), 'scan.png', 'image/png');
    expect(image.status, image.msg).toBe(200);

    // Attached to a request; the passport number typed with Persian digits and a space is kept canonical.
    const purchase = await dataOf(ieltsRequest(owner, `${pdf.path}|${image.path}`));
    expect(purchase.fields).toMatchObject({ [FIELD]: `${pdf.path}|${image.path}`, passportNumber: 'K12345678' });

    for (const who of [typedApi(server, owner.token), staff]) {
      const { url } = await dataOf(who.POST('/api/me/fileUrl', { body: { path: pdf.path! } }));
      const file = await fetch(server.url + url);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('application/pdf');
      expect(file.headers.get('content-disposition')).toMatch(/^attachment/);
      expect(file.headers.get('x-content-type-options')).toBe('nosniff');
      expect(file.headers.get('content-security-policy')).toContain('sandbox');
      expect(Buffer.from(await file.arrayBuffer()).equals(PDF)).toBe(true);
    }
    const stranger = typedApi(server, (await money.customer()).token);
    expect(await refusal(stranger.POST('/api/me/fileUrl', { body: { path: pdf.path! } }))).toMatchObject({
      status: 404,
    });
  });

  it('refuses a program named .pdf with a Persian reason, and stores nothing', async () => {
    const who = await money.customer();
    const before = filesOnDisk('requestFile').length;
    for (const program of [EXE, ELF]) {
      const refused = await upload(who, program, 'invoice.pdf', 'application/pdf');
      expect(refused.status).toBe(415);
      expect(refused.msg).toBe(fa['upload.executable'].replace('{types}', 'PDF،\u200f JPEG یا PNG'));
    }
    expect(await uploadsOf(who)).toEqual([]);
    expect(filesOnDisk('requestFile')).toHaveLength(before);
  });

  it("refuses a file past the field's size with 413, and a kind the field does not take with 415", async () => {
    const who = await money.customer();
    // Within the upload call's own 5 MiB, past the IELTS field's 5,000,000 bytes.
    const big = Buffer.concat([PDF.subarray(0, 9), Buffer.alloc(5_100_000, 0x20), Buffer.from('\n%%EOF\n')]);
    const tooBig = await upload(who, big, 'big.pdf', 'application/pdf');
    expect(tooBig.status).toBe(413);
    expect(tooBig.msg).toBe(fa['upload.fieldTooLarge'].replace('{megabytes}', '۵'));

    // WebP is an image, but not one the IELTS field takes; a PDF is not one the TOEFL form's images field takes.
    const webp = await sharp(await jpegWithExif())
      .webp()
      .toBuffer();
    const notTaken = await upload(who, webp, 'photo.webp', 'image/webp');
    expect(notTaken.status).toBe(415);
    expect(notTaken.msg).toBe(fa['upload.typeNotAllowed'].replace('{types}', 'PDF،\u200f JPEG یا PNG'));
    const pdfForImages = await upload(who, PDF, 'invoice.pdf', 'application/pdf', { desk: 'toeflGeneralCpr' });
    expect(pdfForImages.status).toBe(415);
    expect(pdfForImages.msg).toBe(fa['upload.typeNotAllowed'].replace('{types}', 'JPEG،\u200f PNG یا WebP'));
    // A field that takes no file, and a desk that does not exist, name no limits.
    for (const target of [
      { desk: IELTS, field: 'passportNumber' },
      { desk: 'noSuchDesk', field: FIELD },
    ]) {
      const none = await upload(who, PDF, 'a.pdf', 'application/pdf', target);
      expect(none.status).toBe(404);
      expect(none.msg).toBe(fa['upload.notFileField']);
    }
    expect(await uploadsOf(who)).toEqual([]);
  });

  it("refuses at submit more files than the field takes, and a path that is not the customer's", async () => {
    const who = await money.customer();
    const paths: string[] = [];
    for (let i = 0; i < 4; i++) paths.push((await upload(who, PDF, `doc${i}.pdf`, 'application/pdf')).path!);
    const tooMany = await refusal(ieltsRequest(who, paths.join('|')));
    expect(tooMany.status).toBe(400);
    expect(tooMany.msg).toBe(
      fa['form.files']
        .replace('{field}', 'پیوست‌ها (گذرنامه، کارنامهٔ آزمون پیشین)')
        .replace('{count}', '۳')
        .replace('{types}', 'PDF،\u200f JPEG یا PNG'),
    );

    const other = await money.customer();
    const theirs = (await upload(other, PDF, 'theirs.pdf', 'application/pdf')).path!;
    const stolen = await refusal(ieltsRequest(who, `${paths[0]}|${theirs}`));
    expect(stolen.status).toBe(400);
    expect(stolen.msg).toBe(
      fa['upload.attachedNotAllowed'].replace('{field}', 'پیوست‌ها (گذرنامه، کارنامهٔ آزمون پیشین)'),
    );
    // Three of their own is what the field takes.
    expect((await dataOf(ieltsRequest(who, paths.slice(0, 3).join('|')))).fields).toMatchObject({
      [FIELD]: paths.slice(0, 3).join('|'),
    });
  });
});
