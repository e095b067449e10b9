/**
 * Proof for the embassy on a real server and database (PGlite, or PostgreSQL with TEST_DATABASE_URL): a SEVIS
 * request is fulfilled with its I-901 receipt number in the desk's format (a malformed one refused in Persian) and
 * the merchant's confirmation as a PDF, checked by its bytes, its SHA-256 kept; the file goes only to the customer
 * and staff (404 to another customer), downloaded in a sandbox; the proof letter carries the catalogue's English
 * titles; a reader's reference check answers matches or not — never the reference — under the verify rate limit.
 * Ledger invariants after every test.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { png, uploadForm } from '../support/images';
import { type Customer, type MoneyHelpers, withMoneyServer } from '../support/money';
import { bearer, type RunningServer } from '../support/server';
import { dataOf, refusal, typedApi } from '../support/typed-api';

let server: RunningServer;
let money: MoneyHelpers;
let staff: { token: string; userId: number };

/** Lookups per address in this server's window: small, so the limit is reached quickly. */
const LIMIT = 6;

withMoneyServer(
  { web: false, env: { TRUST_PROXY: '127.0.0.1', RECEIPT_VERIFY_LIMIT_PER_IP: String(LIMIT) } },
  async (t) => {
    ({ server, money } = t);
    staff = await money.staffWithActions(['manageCurrencyPayments', 'viewTasks']);
  },
);

const SEVIS = 'N0012345678';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');

let addresses = 0;
const newAddress = () => `10.48.${Math.floor(addresses / 250)}.${(addresses++ % 250) + 1}`;

async function upload(token: string, bytes: Buffer, name: string, type: string) {
  const res = await fetch(`${server.url}/api/me/uploadFile`, {
    method: 'POST',
    headers: bearer(token),
    body: uploadForm(bytes, name, 'currencyPaymentReceipt', type),
  });
  // Multipart goes through fetch, as the web sends it; its envelope read as the contract's uploadFile answer.
  const body: { path?: string; msg?: string } = await res.json();
  return { status: res.status, body };
}

/** A paid SEVIS request whose customer gave their name in Latin letters. */
async function sevisRequest(who: Customer) {
  return money.paidRequest(who, 350, { desk: 'sevisGeneralCpr', fields: { payerLatinName: 'Sara Karimi' } });
}

/** Staff open the request's task and record it done with `reference` and the PDF; the raw answer. */
async function fulfil(purchase: { id: number; expectedPrice: number }, reference: string, receiptFile?: string) {
  const api = typedApi(server, staff.token);
  const task = await server.app.database.db
    .selectFrom('tasks')
    .select('id')
    .where('purchaseId', '=', purchase.id)
    .executeTakeFirstOrThrow();
  const data = await dataOf(api.POST('/api/sys/fetchFulfilmentTaskData', { body: { taskId: task.id } }));
  return {
    data,
    done: api.POST('/api/sys/uafCprDone', {
      body: {
        purchase: purchase.id,
        realPrice: purchase.expectedPrice,
        currencyPaymentReference: reference,
        ...(receiptFile ? { receiptFile } : {}),
      },
    }),
  };
}

describe('proof for the embassy', () => {
  it('takes the SEVIS number in its format, keeps the PDF’s hash and prints the letter only for its customer', async () => {
    const who = await money.customer();
    const purchase = await sevisRequest(who);
    const first = await fulfil(purchase, 'N12345');
    expect(first.data.foreignReference).toEqual({
      kind: 'sevisReceipt',
      title: 'شماره رسید SEVIS I-901',
      titleEn: 'SEVIS I-901 receipt number',
      format: 'sevisId',
    });
    expect(await refusal(first.done)).toEqual({
      status: 422,
      msg: 'شماره رسید SEVIS باید حرف N و پس از آن ده رقم باشد.',
    });

    const stored = await upload(staff.token, PDF, 'fmjfee-receipt.pdf', 'application/pdf');
    expect(stored.status, stored.body.msg).toBe(200);
    expect(stored.body.path).toMatch(/^currencyPaymentReceipt\/\d{4}\/[\w-]+\.pdf$/);
    // Persian digits, lower case and spaces as staff type them; stored in its canonical form.
    const second = await fulfil(purchase, 'n ۰۰۱۲ ۳۴۵ ۶۷۸', stored.body.path);
    await dataOf(second.done);

    const customer = typedApi(server, who.token);
    const detail = await dataOf(customer.POST('/api/me/fetchPurchase', { body: { purchase: purchase.id } }));
    const sha256 = createHash('sha256').update(PDF).digest('hex');
    expect(detail.currencyPayment).toMatchObject({ reference: SEVIS, receiptSha256: sha256 });

    // The download runs nothing: an attachment, never sniffed, under a CSP with no source and a sandbox.
    const file = await fetch(`${server.url}${detail.currencyPayment!.receiptUrl!}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(file.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(Buffer.from(await file.arrayBuffer()).equals(PDF)).toBe(true);

    const letter = await dataOf(customer.POST('/api/me/fetchProofLetter', { body: { purchase: purchase.id } }));
    expect(letter).toMatchObject({
      purchaseId: purchase.id,
      state: 'done',
      service: { fa: 'پرداخت هزینه سویس', en: 'SEVIS I-901 fee payment' },
      foreignAmount: 350,
      currencyCode: 'USD',
      reference: {
        kind: 'sevisReceipt',
        title: { fa: 'شماره رسید SEVIS I-901', en: 'SEVIS I-901 receipt number' },
        value: SEVIS,
      },
      fields: [
        {
          name: 'payerLatinName',
          title: {
            fa: 'نام و نام خانوادگی به حروف لاتین (مطابق گذرنامه)',
            en: 'Name in Latin letters (as in the passport)',
          },
          value: 'Sara Karimi',
        },
      ],
      payerName: 'سارا کریمی',
      receiptSha256: sha256,
      verificationCode: detail.currencyPayment!.verificationCode,
    });

    // Another customer: no letter, no request, no address of the file; as for what does not exist.
    const stranger = typedApi(server, (await money.customer()).token);
    expect(await refusal(stranger.POST('/api/me/fetchProofLetter', { body: { purchase: purchase.id } }))).toMatchObject(
      { status: 404 },
    );
    expect(await refusal(stranger.POST('/api/me/fetchPurchase', { body: { purchase: purchase.id } }))).toMatchObject({
      status: 404,
    });
    expect(await refusal(stranger.POST('/api/me/fileUrl', { body: { path: stored.body.path! } }))).toMatchObject({
      status: 404,
    });
    // Their own request not carried out has no letter yet.
    const open = await money.paidRequest(who, 20);
    expect(await refusal(customer.POST('/api/me/fetchProofLetter', { body: { purchase: open.id } }))).toEqual({
      status: 409,
      msg: 'نامهٔ تأیید پرداخت پس از انجام درخواست (پرداخت ارزی) صادر می‌شود.',
    });
  }, 60_000);

  it('refuses a confirmation whose bytes are neither a PDF nor an image, whatever its name says', async () => {
    const notPdf = await upload(
      staff.token,
      Buffer.from('<html><script>alert(1)</script></html>'),
      'x.pdf',
      'application/pdf',
    );
    expect(notPdf).toEqual({
      status: 415,
      body: expect.objectContaining({ msg: 'فقط تصویر JPEG، PNG یا WebP یا فایل PDF قابل بارگذاری است.' }),
    });
    // A PDF header without its end is not a PDF.
    const cut = await upload(staff.token, PDF.subarray(0, 40), 'cut.pdf', 'application/pdf');
    expect(cut.status).toBe(415);
    // An image still is one.
    expect((await upload(staff.token, await png(), 'receipt.png', 'image/png')).status).toBe(200);
  });

  it('answers a reference check with matches or not, never the reference, under the verify rate limit', async () => {
    const who = await money.customer();
    const purchase = await sevisRequest(who);
    await dataOf((await fulfil(purchase, SEVIS)).done);
    const detail = await dataOf(
      typedApi(server, who.token).POST('/api/me/fetchPurchase', { body: { purchase: purchase.id } }),
    );
    const code = detail.currencyPayment!.verificationCode;
    const reader = typedApi(server);
    const address = newAddress();
    const check = (reference: string, at = address) =>
      reader.POST('/api/public/checkReceiptReference', {
        body: { code, reference },
        headers: { 'x-forwarded-for': at },
      });

    const right = await check('n 001-234 ۵۶۷۸');
    expect(right.data?.data).toEqual({ matches: true, state: 'done' });
    const wrong = await check('N0012345679');
    expect(wrong.data?.data).toEqual({ matches: false, state: 'done' });
    // Never the reference itself, in any answer.
    for (const answer of [right, wrong]) expect(JSON.stringify(answer.data)).not.toContain('12345678');
    const verified = await dataOf(
      reader.POST('/api/public/verifyReceipt', { body: { code }, headers: { 'x-forwarded-for': address } }),
    );
    expect(JSON.stringify(verified)).not.toContain('12345678');
    // An unknown code is the receipt's 404.
    expect(
      await refusal(
        reader.POST('/api/public/checkReceiptReference', {
          body: { code: 'ZZZZ-ZZZZ-ZZZZ-ZZZZ', reference: SEVIS },
          headers: { 'x-forwarded-for': address },
        }),
      ),
    ).toEqual({ status: 404, msg: 'رسیدی با این کد یافت نشد' });

    // Code lookups and reference checks share one counter per address: the limit's next check is 429.
    for (let i = 4; i < LIMIT; i += 1) expect((await check(`N00000000${i}0`)).response.status).toBe(200);
    const limited = await check(SEVIS);
    expect(limited.response.status).toBe(429);
    expect(limited.response.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(JSON.stringify(limited.error)).toContain('تعداد بررسی رسید');
    // Another address is not held up.
    expect((await check(SEVIS, newAddress())).data?.data.matches).toBe(true);
  }, 60_000);
});
