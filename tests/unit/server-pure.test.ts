/** Pure helpers of the server that deserve their own checks. */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { checksumOf } from '../../src/server/db/migrate';
import { persianWait } from '../../src/server/http/errors';
import { backoffWaitMs } from '../../src/server/lib/rate-limit';
import { menuFor } from '../../src/server/modules/access/menu';
import { renderCaptchaPng } from '../../src/server/modules/identity/captcha';
import { ageInYears } from '../../src/server/modules/identity/profile';
import { maskMobile } from '../../src/server/modules/identity/users-store';
import { sniffImageKind } from '../../src/server/modules/storage/images';

describe('checksumOf', () => {
  it('is the SHA-256 of a migration text, the same with CRLF line ends, and changes with any other edit', () => {
    const text = 'create table a (x int);\ncreate index i on a (x);\n';
    expect(checksumOf(text)).toBe('d6ee1d667c4922c5dab10538c00219e7b2fb2c90dbeea155bb9924d24e284d8b');
    expect(checksumOf(text.replaceAll('\n', '\r\n'))).toBe(checksumOf(text));
    expect(checksumOf(text.replace('int', 'bigint'))).not.toBe(checksumOf(text));
    expect(checksumOf(`${text}\n`)).not.toBe(checksumOf(text));
  });
});

describe('ageInYears', () => {
  it('counts a birthday only once it has come', () => {
    const today = new Date('2026-11-22T00:00:00Z');
    expect(ageInYears('2008-11-22', today)).toBe(18);
    expect(ageInYears('2008-11-23', today)).toBe(17);
    expect(ageInYears('2008-12-01', today)).toBe(17);
  });
});

describe('maskMobile', () => {
  it('keeps the first and last four digits', () => {
    expect(maskMobile('09121234567')).toBe('0912***4567');
    expect(maskMobile(null)).toBe('***');
  });
});

describe('menuFor', () => {
  it('maps actions to staff screens and payment permissions', () => {
    expect(menuFor(['viewTasks', 'manageCollections'])).toEqual({
      menu: ['tasks', 'collections', 'manualOrderCompletion'],
      paymentPermissions: ['payOffline'],
    });
    expect(menuFor([])).toEqual({ menu: [], paymentPermissions: [] });
  });
});

describe('captcha image', () => {
  it('is a PNG (no markup that spells the digits), drawn at twice its displayed 170x56', async () => {
    const png = await renderCaptchaPng('12345');
    expect(sniffImageKind(png)).toBe('png');
    expect(png.toString('latin1')).not.toMatch(/<svg|<path|12345/);
    const meta = await sharp(png).metadata();
    expect([meta.width, meta.height]).toEqual([340, 112]);
    // Two drawings of the same answer differ (jitter and speckles), so no image can be looked up.
    expect((await renderCaptchaPng('12345')).equals(png)).toBe(false);
  });
});

describe('sniffImageKind', () => {
  it('reads the type from magic bytes', () => {
    expect(sniffImageKind(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(sniffImageKind(Buffer.from('89504e470d0a1a0a0000', 'hex'))).toBe('png');
    expect(sniffImageKind(Buffer.from('RIFF\0\0\0\0WEBPVP8 ', 'latin1'))).toBe('webp');
    expect(sniffImageKind(Buffer.from('GIF89a'))).toBeNull();
    expect(sniffImageKind(Buffer.from('<svg></svg>'))).toBeNull();
  });
});

describe('persianWait', () => {
  it('says a wait in Persian units and digits, rounding up to whole seconds', () => {
    expect(persianWait(0.2)).toBe('۱ ثانیه');
    expect(persianWait(30)).toBe('۳۰ ثانیه');
    expect(persianWait(60)).toBe('۱ دقیقه');
    expect(persianWait(150.5)).toBe('۲ دقیقه و ۳۱ ثانیه');
    expect(persianWait(3720)).toBe('۱ ساعت و ۲ دقیقه');
  });
});

describe('backoffWaitMs', () => {
  it('is free for the free failures, then doubles from the base up to the cap', () => {
    const policy = { freeFailures: 5, baseSeconds: 30, maxSeconds: 900, forgetSeconds: 86_400 };
    expect([5, 6, 7, 8, 10, 11, 1000].map((n) => backoffWaitMs(n, policy) / 1000)).toEqual([
      0, 30, 60, 120, 480, 900, 900,
    ]);
  });
});
