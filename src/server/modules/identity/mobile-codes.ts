/**
 * One-time SMS log-in codes: stored hashed, expiring (system parameter), burned after five wrong tries.
 * Asking again while a code is active sends nothing and reports the time left.
 */
import { sql } from 'kysely';
import type { DB } from '../../db/database';
import { HttpError, tooManyRequests } from '../../http/errors';
import { msg } from '../../http/messages';
import { numericCode, safeEqual, sha256 } from '../../lib/crypto';
import type { RateLimiter } from '../../lib/rate-limit';
import { toPersianDigits } from '../../../shared/digits';
import { readSetting } from '../settings';
import type { SmsSender } from './sms';

export const MAX_WRONG_CODES = 5;
const CODE_DIGITS = 5;

/** Codes are stored hashed with their (canonical) number. */
export const hashCode = (mobileNo: string, code: string) => sha256(`${mobileNo}:${code}`);

export interface MobileCodeDeps {
  db: DB;
  sms: SmsSender;
  rateLimiter: RateLimiter;
  limits: { perMobile: number; perIp: number; windowSeconds: number };
}

function activeCodeQuery(db: DB, mobileNo: string) {
  return db
    .selectFrom('mobileValidationCodes')
    .selectAll()
    .where('mobileNo', '=', mobileNo)
    .where('usedAt', 'is', null)
    .where('burnedAt', 'is', null)
    .where('expiresAt', '>', sql<Date>`now()`)
    .orderBy('id', 'desc')
    .limit(1);
}

export async function sendMobileValidationCode(
  deps: MobileCodeDeps,
  mobileNo: string,
  ip: string,
): Promise<{ expirationDuration: number; activeCodeExists: boolean }> {
  const { db, limits } = deps;
  for (const [key, limit] of [
    [`sms:mobile:${mobileNo}`, limits.perMobile],
    [`sms:ip:${ip}`, limits.perIp],
  ] as const) {
    const hit = await deps.rateLimiter.hit(key, limit, limits.windowSeconds);
    if (!hit.allowed) throw tooManyRequests(hit.retryAfterSeconds);
  }
  const active = await activeCodeQuery(db, mobileNo).executeTakeFirst();
  if (active) {
    const left = Math.ceil((new Date(active.expiresAt).getTime() - Date.now()) / 1000);
    return { expirationDuration: Math.max(1, left), activeCodeExists: true };
  }
  const lifetime = await readSetting(db, 'mobileValidationCodeLifetimeSeconds');
  const code = numericCode(CODE_DIGITS);
  const inserted = await db
    .insertInto('mobileValidationCodes')
    .values({
      mobileNo,
      codeHash: hashCode(mobileNo, code),
      expiresAt: sql<Date>`now() + make_interval(secs => ${lifetime})` as unknown as Date,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  try {
    await deps.sms.sendLoginCode({ mobileNo, code, text: msg('sms.loginCode', { code: toPersianDigits(code) }) });
  } catch {
    // An SMS that never left must not block the customer from asking again.
    await db.updateTable('mobileValidationCodes').set({ burnedAt: new Date() }).where('id', '=', inserted.id).execute();
    throw new HttpError(502, msg('sms.failed'));
  }
  return { expirationDuration: lifetime, activeCodeExists: false };
}

/** Consumes the code when right; counts a wrong try and burns the code on the fifth. */
export async function verifyMobileValidationCode(db: DB, mobileNo: string, code: string): Promise<void> {
  const outcome = await db.transaction().execute(async (trx) => {
    const active = await trx
      .selectFrom('mobileValidationCodes')
      .selectAll()
      .where('mobileNo', '=', mobileNo)
      .where('usedAt', 'is', null)
      .where('burnedAt', 'is', null)
      .where('expiresAt', '>', sql<Date>`now()`)
      .orderBy('id', 'desc')
      .limit(1)
      .forUpdate()
      .executeTakeFirst();
    if (!active) return 'expired' as const;
    if (safeEqual(active.codeHash, hashCode(mobileNo, code.trim()))) {
      await trx.updateTable('mobileValidationCodes').set({ usedAt: new Date() }).where('id', '=', active.id).execute();
      return 'ok' as const;
    }
    const failedAttempts = active.failedAttempts + 1;
    const burned = failedAttempts >= MAX_WRONG_CODES;
    await trx
      .updateTable('mobileValidationCodes')
      .set({ failedAttempts, burnedAt: burned ? new Date() : null })
      .where('id', '=', active.id)
      .execute();
    return burned ? ('burned' as const) : ('wrong' as const);
  });
  if (outcome === 'expired') throw HttpError.of(422, 'login.code.expired');
  if (outcome === 'burned') throw HttpError.of(422, 'login.code.burned');
  if (outcome === 'wrong') throw HttpError.of(422, 'login.code.wrong');
}
