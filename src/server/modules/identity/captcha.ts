/**
 * One-time image captchas for the e-mail log-in. The answer is stored hashed with an expiry; the image is a
 * PNG (drawn from jittered strokes, crossed by noise lines and speckled), so no markup spells the digits.
 * It slows bulk attempts; the per-account and per-address limits are the defence
 * (docs/decisions/005-captcha-and-login-limits.md). An answer is checked once: right or wrong, it is spent.
 */
import { randomInt } from 'node:crypto';
import { sql } from 'kysely';
import sharp from 'sharp';
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
const WIDTH = 170;
const HEIGHT = 56;
/** Drawn at twice the displayed size, for sharp phone screens. */
const SCALE = 2;

const noiseCurve = (stroke: string, width: number) =>
  `<path d="M${randomInt(0, WIDTH)} ${randomInt(0, HEIGHT)} Q${randomInt(0, WIDTH)} ${randomInt(0, HEIGHT)} ${randomInt(0, WIDTH)} ${randomInt(0, HEIGHT)}" stroke="${stroke}" stroke-width="${width}" fill="none"/>`;

/** The drawing, as SVG; it never leaves the server (renderCaptchaPng rasterises it). */
function drawCaptcha(answer: string): string {
  const parts: string[] = [];
  for (let i = 0; i < 6; i++) parts.push(noiseCurve('#9aa5b1', 1.5));
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
      `<path transform="translate(${x0} ${y0}) rotate(${rotate} 10 18) skewX(${randomInt(-10, 11)})" d="${d}" stroke="#1f2933" stroke-width="${(2.6 + randomInt(0, 10) / 10).toFixed(1)}" stroke-linecap="round" fill="none"/>`,
    );
  });
  // Lines in the digits' own colour across them, so a stroke alone does not tell a segment.
  for (let i = 0; i < 2; i++) parts.push(noiseCurve('#1f2933', 1.2));
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH * SCALE}" height="${HEIGHT * SCALE}" viewBox="0 0 ${WIDTH} ${HEIGHT}"><rect width="100%" height="100%" fill="#f5f7fa"/>${parts.join('')}</svg>`;
}

/** The captcha as a PNG: the drawing rasterised, with random speckles mixed into its pixels. */
export async function renderCaptchaPng(answer: string): Promise<Buffer> {
  const { data, info } = await sharp(Buffer.from(drawCaptcha(answer)))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  for (let i = 0; i < data.length; i += info.channels) {
    const r = randomInt(0, 100);
    if (r >= 12) continue;
    // One pixel in eight: darker or lighter by up to a third, in grey.
    const delta = (r % 2 ? 1 : -1) * randomInt(20, 90);
    for (let c = 0; c < info.channels; c++) data[i + c] = Math.max(0, Math.min(255, (data[i + c] ?? 0) + delta));
  }
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .png({ compressionLevel: 9 })
    .toBuffer();
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
      imagePng: await renderCaptchaPng(answer),
      expiresAt: sql<Date>`now() + make_interval(secs => ${CAPTCHA_LIFETIME_SECONDS})` as unknown as Date,
    })
    .execute();
  await db
    .deleteFrom('captchas')
    .where('expiresAt', '<', sql<Date>`now() - interval '1 day'`)
    .execute();
  return { captchaKey };
}

/** The PNG of a live captcha; null when unknown, used or expired. */
export async function captchaImage(db: DB, captchaKey: string): Promise<Buffer | null> {
  const row = await db
    .selectFrom('captchas')
    .select('imagePng')
    .where('id', '=', captchaKey)
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return row ? Buffer.from(row.imagePng) : null;
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
