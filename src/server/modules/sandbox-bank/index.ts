/**
 * The sandbox bank: a test payment gateway this server serves under /sandbox-bank, so that payments can be tried
 * end to end with nothing configured. It plays an outside bank and speaks ZarinPal's REST API v4 exactly (the
 * payments module reaches it through the same adapter as ZarinPal, over HTTP):
 *   POST /sandbox-bank/pg/v4/payment/request.json   open a payment            → {data: {code: 100, authority, …}}
 *   GET  /sandbox-bank/pg/StartPay/:authority        the payer's page (Persian, a card form, a countdown)
 *   POST /sandbox-bank/pg/StartPay/:authority        the form: pay or cancel  → 303 to callback_url?Authority&Status
 *   POST /sandbox-bank/pg/v4/payment/verify.json    the merchant verifies    → {data: {code: 100 | 101, ref_id, …}}
 *   GET  /sandbox-bank/pg/v4/report/settlements.json?date=YYYY-MM-DD  the day's settlement statement (statement.ts)
 * Like ZarinPal, a request's `metadata.card_pan` ("payment with a specified card") is the only card its page takes.
 * Two modes (SANDBOX_BANK_MODE, decision 024):
 *   holder (default)  two additions to ZarinPal's protocol: the request's metadata may carry the payer's
 *                     `national_code` (prefilled as the card holder's), and verify's data carries
 *                     `holder_national_code`, the holder the payer named on the page, so a payment with another
 *                     person's card can be tried;
 *   zarinpal          exactly ZarinPal: the page asks for the card only, and verify reports no holder, only the masked
 *                     card_pan and the card_hash of the card that paid.
 * It imports nothing from the other modules.
 */
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { toEnglishDigits } from '../../../shared/digits';
import { isValidNationalCode } from '../../../shared/validation';
import type { DB } from '../../db/database';
import {
  answerPayment,
  type BankPayment,
  findPayment,
  hashCard,
  isExpired,
  maskCard,
  openPayment,
  verifyPayment,
} from './bank';
import { noticePage, paymentPage } from './page';
import { registerSettlementReport } from './statement';
import { backTo, closedPage, loadFonts, newNonce, notFoundPage, sendHtml } from './replies';

export interface SandboxBankOptions {
  /** The merchant's name on the payment page (default «ارزپی»). */
  merchantName?: string;
  /** Accept only this merchant code; default: any code of ZarinPal's form. */
  merchantId?: string;
  /** How long the payer has to answer, in seconds (default 15 minutes). */
  lifetimeSeconds?: number;
  /** `holder` (default): asks for and reports the card holder; `zarinpal`: behaves exactly as ZarinPal. */
  mode?: 'holder' | 'zarinpal';
}

const MERCHANT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** ZarinPal's refusals: code and its (English) message. */
const REFUSALS = {
  [-9]: 'The input params invalid, validation error.',
  [-10]: 'Terminal is not valid, please check merchant_id or ip address.',
  [-50]: 'Session is not valid, amounts values is not the same.',
  [-51]: 'Session is not valid, session is not active paid try.',
  [-54]: 'Invalid authority.',
} as const;
type RefusalCode = keyof typeof REFUSALS;

type Body = Record<string, unknown>;
const isRecord = (value: unknown): value is Body =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A positive whole number of rial, sent as a number or (as ZarinPal's own examples do) a string of digits. */
function amountOf(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : null;
}

function httpUrl(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 2000) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}

/** Digits in any script, without the spaces, dashes and direction marks people type between them. */
const compactDigits = (value: string) => toEnglishDigits(value).replace(/[\s\-_.\u2010-\u2015\u200c-\u200f]/g, '');

/** Where the bank sends the payer back: the merchant's callback with ZarinPal's Authority and Status. */
export function registerSandboxBank(fastify: FastifyInstance, db: DB, options: SandboxBankOptions = {}): void {
  const merchantName = options.merchantName ?? 'ارزپی';
  const lifetimeSeconds = options.lifetimeSeconds ?? 15 * 60;
  const asksHolder = (options.mode ?? 'holder') === 'holder';

  void fastify.register(
    async (bank) => {
      const fonts = await loadFonts();

      // The payment page's form; only in this scope (the rest of the server takes JSON and multipart).
      bank.addContentTypeParser(
        'application/x-www-form-urlencoded',
        { parseAs: 'string', bodyLimit: 8 * 1024 },
        (_request, body, done) => {
          const fields: Record<string, string> = {};
          for (const [key, value] of new URLSearchParams(String(body))) fields[key] ??= value;
          done(null, fields);
        },
      );

      bank.setErrorHandler((error: FastifyError, request, reply) => {
        const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
        if (status === 500) request.log.error({ err: error }, 'sandbox bank failed');
        if (request.url.includes('/pg/v4/')) {
          return reply.status(status === 500 ? 500 : 400).send({
            data: [],
            errors: {
              code: status === 500 ? -1 : -9,
              message: status === 500 ? 'Internal error.' : REFUSALS[-9],
              validations: [],
            },
          });
        }
        const nonce = newNonce();
        return sendHtml(
          reply,
          status,
          nonce,
          noticePage({
            nonce,
            title: status === 500 ? 'خطای درگاه' : 'درخواست نامعتبر',
            text:
              status === 500
                ? 'درگاه آزمایشی نتوانست درخواست را انجام دهد. کمی بعد دوباره تلاش کنید.'
                : 'درگاه این درخواست را نپذیرفت. به سایت پذیرنده برگردید و دوباره تلاش کنید.',
          }),
          null,
        );
      });

      const refuse = (reply: FastifyReply, code: RefusalCode, validations: Array<Record<string, string>> = []) =>
        reply
          .status(code === -9 ? 422 : 400)
          .send({ data: [], errors: { code, message: REFUSALS[code], validations } });

      const merchantOf = (body: Body, validations: Array<Record<string, string>>) => {
        const merchantId = body.merchant_id;
        if (typeof merchantId !== 'string' || !MERCHANT_ID.test(merchantId)) {
          validations.push({ merchant_id: 'The merchant id must be 36 characters (a UUID).' });
          return null;
        }
        return merchantId;
      };

      bank.post('/pg/v4/payment/request.json', async (request, reply) => {
        const body = isRecord(request.body) ? request.body : {};
        const validations: Array<Record<string, string>> = [];
        const merchantId = merchantOf(body, validations);
        const amount = amountOf(body.amount);
        if (amount === null) validations.push({ amount: 'The amount must be a positive integer.' });
        if (body.currency !== undefined && body.currency !== 'IRR') {
          validations.push({ currency: 'Only IRR (rial) is supported.' });
        }
        const callbackUrl = httpUrl(body.callback_url);
        if (!callbackUrl) validations.push({ callback_url: 'The callback url must be an http(s) URL.' });
        const description = typeof body.description === 'string' ? body.description.trim() : '';
        if (!description || description.length > 500) {
          validations.push({ description: 'The description is required (at most 500 characters).' });
        }
        const metadata = isRecord(body.metadata) ? body.metadata : {};
        const mobile = typeof metadata.mobile === 'string' ? compactDigits(metadata.mobile) : null;
        if (mobile !== null && !/^\+?\d{4,15}$/.test(mobile)) validations.push({ mobile: 'Invalid mobile.' });
        const nationalCode = typeof metadata.national_code === 'string' ? compactDigits(metadata.national_code) : null;
        if (nationalCode !== null && !/^\d{10}$/.test(nationalCode)) {
          validations.push({ national_code: 'The national code must be 10 digits.' });
        }
        const cardPan = typeof metadata.card_pan === 'string' ? compactDigits(metadata.card_pan) : null;
        if (cardPan !== null && !/^\d{16}$/.test(cardPan)) {
          validations.push({ card_pan: 'The card pan must be 16 digits.' });
        }
        if (validations.length > 0 || merchantId === null || amount === null || callbackUrl === null) {
          return refuse(reply, -9, validations);
        }
        if (options.merchantId && options.merchantId.toLowerCase() !== merchantId.toLowerCase()) {
          return refuse(reply, -10);
        }
        const authority = await openPayment(
          db,
          {
            merchantId,
            amount,
            description,
            callbackUrl,
            payerMobile: mobile,
            payerNationalCode: nationalCode,
            requiredCardHash: cardPan === null ? null : hashCard(cardPan),
            requiredCardMask: cardPan === null ? null : maskCard(cardPan),
          },
          lifetimeSeconds,
        );
        return { data: { code: 100, message: 'Success', authority, fee_type: 'Merchant', fee: 0 }, errors: [] };
      });

      bank.post('/pg/v4/payment/verify.json', async (request, reply) => {
        const body = isRecord(request.body) ? request.body : {};
        const validations: Array<Record<string, string>> = [];
        const merchantId = merchantOf(body, validations);
        const amount = amountOf(body.amount);
        if (amount === null) validations.push({ amount: 'The amount must be a positive integer.' });
        const authority = typeof body.authority === 'string' ? body.authority : null;
        if (!authority) validations.push({ authority: 'The authority is required.' });
        if (merchantId === null || amount === null || authority === null) return refuse(reply, -9, validations);
        const outcome = await verifyPayment(db, { merchantId, authority, amount });
        if (outcome.code !== 100 && outcome.code !== 101) return refuse(reply, outcome.code);
        const { payment } = outcome;
        return {
          data: {
            code: outcome.code,
            message: outcome.code === 100 ? 'Paid' : 'Verified',
            card_hash: payment.cardHash,
            card_pan: payment.cardNo,
            ref_id: Number(payment.referenceId),
            fee_type: 'Merchant',
            fee: 0,
            // ZarinPal reports no holder; only the holder mode adds it.
            ...(asksHolder ? { holder_national_code: payment.holderNationalCode } : {}),
          },
          errors: [],
        };
      });

      const showPage = (
        reply: FastifyReply,
        payment: BankPayment,
        status: number,
        values: { cardNo: string; holderNationalCode: string },
        errors?: { cardNo?: string; holderNationalCode?: string },
      ) => {
        const nonce = newNonce();
        const html = paymentPage({
          nonce,
          merchantName,
          authority: payment.authority,
          amount: payment.amount,
          description: payment.description,
          secondsLeft: (payment.expiresAt.getTime() - Date.now()) / 1000,
          asksHolder,
          requiredCard: payment.requiredCardMask,
          values,
          ...(errors ? { errors } : {}),
        });
        // The form posts here, and the answer redirects to the merchant: both are allowed form targets.
        return sendHtml(reply, status, nonce, html, new URL(payment.callbackUrl).origin);
      };

      bank.get<{ Params: { authority: string } }>('/pg/StartPay/:authority', async (request, reply) => {
        const payment = await findPayment(db, request.params.authority);
        if (!payment) return notFoundPage(reply);
        if (payment.state !== 'new' || isExpired(payment)) return closedPage(reply, payment);
        return showPage(reply, payment, 200, { cardNo: '', holderNationalCode: payment.payerNationalCode ?? '' });
      });

      bank.post<{ Params: { authority: string } }>('/pg/StartPay/:authority', async (request, reply) => {
        const payment = await findPayment(db, request.params.authority);
        if (!payment) return notFoundPage(reply);
        // Too late to pay: the payer goes back to the merchant, which learns from verify that nothing was paid.
        if (isExpired(payment)) return reply.redirect(backTo(payment, 'NOK'), 303);
        if (payment.state !== 'new') return closedPage(reply, payment);

        const fields = isRecord(request.body) ? request.body : {};
        const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, 100) : '');
        const values = { cardNo: text(fields.cardNo), holderNationalCode: text(fields.holderNationalCode) };
        const answered = async (answer: Parameters<typeof answerPayment>[2], status: 'OK' | 'NOK') => {
          if (await answerPayment(db, payment.authority, answer)) return reply.redirect(backTo(payment, status), 303);
          // Answered (or expired) between our read and our write: say what became of it.
          const now = (await findPayment(db, payment.authority)) ?? payment;
          return isExpired(now) ? reply.redirect(backTo(now, 'NOK'), 303) : closedPage(reply, now);
        };

        if (fields.action === 'cancel') return answered({ action: 'cancel' }, 'NOK');
        if (fields.action !== 'pay')
          return showPage(reply, payment, 422, values, { cardNo: 'یکی از دکمه‌های «پرداخت» یا «انصراف» را بزنید.' });

        const errors: { cardNo?: string; holderNationalCode?: string } = {};
        const cardNo = compactDigits(values.cardNo);
        if (!cardNo) errors.cardNo = 'شمارهٔ کارت را وارد کنید.';
        else if (!/^\d{16}$/.test(cardNo)) errors.cardNo = 'شمارهٔ کارت باید ۱۶ رقم باشد.';
        else if (payment.requiredCardHash !== null && hashCard(cardNo) !== payment.requiredCardHash) {
          // ZarinPal's payment with a specified card: the page takes only the card the merchant named.
          errors.cardNo = `پذیرنده فقط پرداخت با کارت \u2066${payment.requiredCardMask ?? ''}\u2069 را می‌پذیرد؛ با کارت دیگری نمی‌توانید پرداخت کنید.`;
        }
        const holderNationalCode = asksHolder ? compactDigits(values.holderNationalCode) : null;
        // In zarinpal mode (null) the bank knows no holder to report.
        if (holderNationalCode === '') errors.holderNationalCode = 'کد ملی دارندهٔ کارت را وارد کنید.';
        else if (holderNationalCode !== null && !isValidNationalCode(holderNationalCode)) {
          errors.holderNationalCode = 'کد ملی دارندهٔ کارت درست نیست؛ ده رقم آن را بررسی کنید.';
        }
        if (errors.cardNo || errors.holderNationalCode) return showPage(reply, payment, 422, values, errors);
        return answered({ action: 'pay', cardNo, holderNationalCode }, 'OK');
      });

      registerSettlementReport(bank, db);

      bank.get<{ Params: { file: string } }>('/assets/:file', async (request, reply) => {
        const font = fonts.get(request.params.file);
        if (!font) return reply.status(404).type('text/plain; charset=utf-8').send('not found');
        return reply
          .type('font/woff2')
          .header('cache-control', 'public, max-age=86400')
          .header('x-content-type-options', 'nosniff')
          .send(font);
      });
    },
    { prefix: '/sandbox-bank' },
  );
}

// The front door also offers the settlement statement (docs/decisions/038-module-front-doors.md).
export {
  isPayoutReference,
  type Payout,
  payoutOf,
  payoutReference,
  settledByReference,
  settlementStatement,
} from './statement';
