/**
 * One-time image captchas for the e-mail log-in. The answer is stored hashed with an expiry; the image
 * draws its digits as jittered stroke paths (no <text>, so the SVG source does not spell the answer)
 * over noise lines. An answer is checked once: right or wrong, the captcha is spent.
 */
import { randomInt } from 'node:crypto';
import { sql } from 'kysely';
import type { DB } from '../../db/database';
import { HttpError } from '../../http/errors';
import { numericCode, randomToken, safeEqual, sha256 } from '../../lib/crypto';

export const CAPTCHA_LIFETIME_SECONDS = 120;
const DIGITS = 5;

// Seven-segment strokes per digit on a 20x36 cell: a top, b top-right, c bottom-right, d bottom, e bottom-left, f top-left, g middle.
const SEGMENTS: Record<string, [number, number, number, number]> = {
  a: [2, 2, 18, 2],
  b: [18, 2, 18, 18],
  c: [18, 18, 18, 34],
  d: [2, 34, 18, 34],
  e: [2, 18, 2, 34],
  f: [2, 2, 2, 18],
  g: [2, 18, 18, 18],
};
const DIGIT_SEGMENTS = ['abcdef', 'bc', 'abged', 'abgcd', 'fgbc', 'afgcd', 'afgedc', 'abc', 'abcdefg', 'abcdfg'];

const jitter = (n: number) => n + randomInt(-2, 3);

export function renderCaptchaSvg(answer: string): string {
  const width = 170;
  const height = 56;
  const parts: string[] = [];
  for (let i = 0; i < 6; i++) {
    parts.push(
      `<path d="M${randomInt(0, width)} ${randomInt(0, height)} Q${randomInt(0, width)} ${randomInt(0, height)} ${randomInt(0, width)} ${randomInt(0, height)}" stroke="#9aa5b1" stroke-width="1.5" fill="none"/>`,
    );
  }
  [...answer].forEach((digit, index) => {
    const x0 = 14 + index * 30 + randomInt(-3, 4);
    const y0 = 10 + randomInt(-3, 4);
    const rotate = randomInt(-12, 13);
    const d = [...(DIGIT_SEGMENTS[Number(digit)] ?? '')]
      .map((s) => {
        const [x1, y1, x2, y2] = SEGMENTS[s] as [number, number, number, number];
        return `M${jitter(x1)} ${jitter(y1)}L${jitter(x2)} ${jitter(y2)}`;
      })
      .join('');
    parts.push(
      `<path transform="translate(${x0} ${y0}) rotate(${rotate} 10 18)" d="${d}" stroke="#1f2933" stroke-width="3.2" stroke-linecap="round" fill="none"/>`,
    );
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect width="100%" height="100%" fill="#f5f7fa"/>${parts.join('')}</svg>`;
}

const hashAnswer = (key: string, answer: string) => sha256(`${key}:${answer}`);

export async function createCaptcha(db: DB): Promise<{ captchaKey: string }> {
  const captchaKey = randomToken(18);
  const answer = numericCode(DIGITS);
  await db
    .insertInto('captchas')
    .values({
      id: captchaKey,
      answerHash: hashAnswer(captchaKey, answer),
      imageSvg: renderCaptchaSvg(answer),
      expiresAt: sql<Date>`now() + make_interval(secs => ${CAPTCHA_LIFETIME_SECONDS})` as unknown as Date,
    })
    .execute();
  await db
    .deleteFrom('captchas')
    .where('expiresAt', '<', sql<Date>`now() - interval '1 day'`)
    .execute();
  return { captchaKey };
}

/** The image of a live captcha; null when unknown, used or expired. */
export async function captchaImage(db: DB, captchaKey: string): Promise<string | null> {
  const row = await db
    .selectFrom('captchas')
    .select('imageSvg')
    .where('id', '=', captchaKey)
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return row?.imageSvg ?? null;
}

export async function consumeCaptcha(db: DB, captchaKey: string, answer: string): Promise<void> {
  const spent = await db
    .updateTable('captchas')
    .set({ usedAt: new Date() })
    .where('id', '=', captchaKey)
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', sql<Date>`now()`)
    .returning('answerHash')
    .executeTakeFirst();
  if (!spent || !safeEqual(spent.answerHash, hashAnswer(captchaKey, answer.trim()))) {
    throw HttpError.of(422, 'login.captcha.invalid');
  }
}
