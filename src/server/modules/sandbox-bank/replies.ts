/**
 * How the sandbox bank answers a browser: its pages as HTML with a per-answer nonce and a strict policy, the
 * fonts they use, the way back to the merchant, and the pages for a closed or unknown payment.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { FastifyReply } from 'fastify';
import { type BankPayment, isExpired } from './bank';
import { noticePage } from './page';

const FONTS = {
  'vazirmatn-arabic-400.woff2': 'vazirmatn-arabic-400-normal.woff2',
  'vazirmatn-arabic-700.woff2': 'vazirmatn-arabic-700-normal.woff2',
  'vazirmatn-latin-400.woff2': 'vazirmatn-latin-400-normal.woff2',
  'vazirmatn-latin-700.woff2': 'vazirmatn-latin-700-normal.woff2',
} as const;

/** The installed Vazirmatn files; none when the package is missing (the page falls back to system fonts). */
export async function loadFonts(): Promise<Map<string, Buffer>> {
  const require = createRequire(import.meta.url);
  const fonts = new Map<string, Buffer>();
  for (const [served, file] of Object.entries(FONTS)) {
    try {
      fonts.set(served, await readFile(require.resolve(`@fontsource/vazirmatn/files/${file}`)));
    } catch {
      // served without it
    }
  }
  return fonts;
}

export function backTo(payment: BankPayment, status: 'OK' | 'NOK'): string {
  const url = new URL(payment.callbackUrl);
  url.searchParams.set('Authority', payment.authority);
  url.searchParams.set('Status', status);
  return url.toString();
}

export function sendHtml(reply: FastifyReply, status: number, nonce: string, html: string, formTarget: string | null) {
  const formAction = formTarget ? `'self' ${formTarget}` : "'none'";
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .header(
      'content-security-policy',
      `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; font-src 'self'; ` +
        `img-src 'self' data:; form-action ${formAction}; base-uri 'none'; frame-ancestors 'none'`,
    )
    .header('cache-control', 'no-store')
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .send(html);
}

export const newNonce = () => randomBytes(16).toString('base64');

/** The page for a payment that takes no answer any more: expired, or answered already. */
export function closedPage(reply: FastifyReply, payment: BankPayment) {
  const nonce = newNonce();
  if (isExpired(payment)) {
    return sendHtml(
      reply,
      410,
      nonce,
      noticePage({
        nonce,
        title: 'مهلت پرداخت به پایان رسید',
        text: 'زمان پرداخت این درخواست تمام شده و مبلغی از کارت شما برداشت نشد. به سایت پذیرنده برگردید و دوباره تلاش کنید.',
        back: backTo(payment, 'NOK'),
      }),
      null,
    );
  }
  const paid = payment.state === 'paid' || payment.state === 'verified';
  return sendHtml(
    reply,
    409,
    nonce,
    noticePage({
      nonce,
      title: paid ? 'این پرداخت پیش‌تر انجام شده است' : 'این پرداخت لغو شده است',
      text: paid
        ? 'مبلغ این درخواست یک بار پرداخت شده است و دوباره برداشت نمی‌شود.'
        : 'این درخواست پرداخت لغو شده و مبلغی از کارت شما برداشت نشد.',
      back: backTo(payment, paid ? 'OK' : 'NOK'),
    }),
    null,
  );
}

export function notFoundPage(reply: FastifyReply) {
  const nonce = newNonce();
  return sendHtml(
    reply,
    404,
    nonce,
    noticePage({
      nonce,
      title: 'درخواست پرداخت یافت نشد',
      text: 'نشانی این صفحه درست نیست یا درخواست پرداخت آن وجود ندارد. به سایت پذیرنده برگردید و دوباره تلاش کنید.',
    }),
    null,
  );
}
