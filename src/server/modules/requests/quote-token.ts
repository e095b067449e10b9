/**
 * A quote is a signed, expiring token carrying its priced terms (decision 016), so a price inquiry writes
 * nothing: the row in `quotes` is written when a request spends the quote. The token is the quote's id (at most
 * 100 characters, the contract's bound): base64url of a compact binary payload followed by an HMAC-SHA256 over
 * the payload, the customer and the desk, truncated to 128 bits. A changed byte, another customer's or another
 * desk's token verify as nothing.
 */
import { createHmac, randomFillSync, timingSafeEqual } from 'node:crypto';
import type { FieldCipher } from '../../lib/field-cipher';

const VERSION = 1;
const NONCE_BYTES = 8;
const MAC_BYTES = 16;

/** What a quote promises: enough to rebuild its price breakdown and its `quotes` row exactly. */
export interface QuoteTerms {
  currencyId: number;
  paymentMethodGroupId: number;
  amountMinor: number;
  rate: number;
  fee: number;
  tax: number;
  operationCost: number;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

/** The full breakdown a quote's terms fix (gross, total costs and expected price follow from them). */
export function breakdownOf(t: QuoteTerms) {
  const grossPrice = Math.round((t.amountMinor * t.rate) / 100);
  const totalCosts = t.fee + t.tax + t.operationCost;
  return {
    amountMinor: t.amountMinor,
    rate: t.rate,
    grossPrice,
    fee: t.fee,
    tax: t.tax,
    operationCost: t.operationCost,
    totalCosts,
    expectedPrice: grossPrice + totalCosts,
  };
}

const FIELDS = [
  'expiresAt',
  'currencyId',
  'paymentMethodGroupId',
  'amountMinor',
  'rate',
  'fee',
  'tax',
  'operationCost',
];

/** Unsigned LEB128 of a non-negative safe integer (at most 8 bytes for 2^53). */
function writeVarint(out: number[], value: number): void {
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

function readVarint(buf: Buffer, at: { i: number }): number | null {
  let value = 0;
  let scale = 1;
  for (let n = 0; n < 8; n++) {
    if (at.i >= buf.length) return null;
    const byte = buf[at.i++]!;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return Number.isSafeInteger(value) ? value : null;
    scale *= 0x80;
  }
  return null;
}

/**
 * Nonces cut from a pool filled 512 at a time: one call to the system's random source per quote cost more than the
 * rest of signing it. Every byte is used once.
 */
const noncePool = Buffer.alloc(NONCE_BYTES * 512);
let nonceAt = noncePool.length;
function nonce(): Buffer {
  if (nonceAt === noncePool.length) {
    randomFillSync(noncePool);
    nonceAt = 0;
  }
  nonceAt += NONCE_BYTES;
  return noncePool.subarray(nonceAt - NONCE_BYTES, nonceAt);
}

export class QuoteSigner {
  constructor(private readonly secret: string) {}

  /** The signer every process shares: its key derives from the field key, never stored (decision 031). */
  static of(cipher: FieldCipher): QuoteSigner {
    return new QuoteSigner(cipher.signingSecret('quoteSigning'));
  }

  private mac(payload: Buffer, userId: number, desk: string): Buffer {
    return createHmac('sha256', this.secret)
      .update(payload)
      .update(`\0${userId}\0${desk}`)
      .digest()
      .subarray(0, MAC_BYTES);
  }

  sign(terms: QuoteTerms, userId: number, desk: string): string {
    const bytes: number[] = [VERSION, ...nonce()];
    for (const field of FIELDS) {
      const value = terms[field as keyof QuoteTerms];
      if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`quote ${field} out of range`);
      writeVarint(bytes, value);
    }
    const payload = Buffer.from(bytes);
    return Buffer.concat([payload, this.mac(payload, userId, desk)]).toString('base64url');
  }

  /** The terms `token` carries when this server signed it for this customer and desk; null otherwise. */
  verify(token: string, userId: number, desk: string): QuoteTerms | null {
    if (token.length > 100 || !/^[A-Za-z0-9_-]+$/.test(token)) return null;
    const raw = Buffer.from(token, 'base64url');
    // One spelling per quote: base64url ignores stray trailing bits, and the token is the row's primary key.
    if (raw.toString('base64url') !== token) return null;
    if (raw.length <= 1 + NONCE_BYTES + MAC_BYTES || raw[0] !== VERSION) return null;
    const payload = raw.subarray(0, raw.length - MAC_BYTES);
    if (!timingSafeEqual(raw.subarray(raw.length - MAC_BYTES), this.mac(payload, userId, desk))) return null;
    const at = { i: 1 + NONCE_BYTES };
    const terms: Record<string, number> = {};
    for (const field of FIELDS) {
      const value = readVarint(payload, at);
      if (value === null) return null;
      terms[field] = value;
    }
    return at.i === payload.length ? (terms as unknown as QuoteTerms) : null;
  }
}
