/**
 * Uploads: a per-user quota for any 24 hours (files and bytes, 429 with a Persian wait; parallel uploads cannot
 * pass it together), and the clean-up that removes files nothing names once past the grace period while a card
 * image or a request's image stays.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegWithExif, uploadForm } from '../support/images';
import { bearer, loginByCode, post, type RunningServer, startServer, verifiedCustomer } from '../support/server';

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({
    web: false,
    env: { UPLOAD_LIMIT_FILES_PER_DAY: '3', UPLOAD_LIMIT_MB_PER_DAY: '2' },
  });
});
afterAll(async () => server?.stop());

async function upload(token: string, bytes: Buffer, prefix = 'requestImage', type = 'image/jpeg') {
  const res = await fetch(`${server.url}/api/me/uploadFile`, {
    method: 'POST',
    headers: bearer(token),
    body: uploadForm(bytes, type === 'image/png' ? 'a.png' : 'a.jpg', prefix, type),
  });
  const body = (await res.json()) as { result: boolean; msg: string; path?: string };
  return { status: res.status, body, retryAfter: res.headers.get('retry-after') };
}

const db = () => server.app.database.db;
const userId = async (token: string) =>
  ((await post(server, '/api/me/fetchUserData', undefined, bearer(token))).body.data as { id: number }).id;
const stored = (relative: string) => existsSync(path.join(server.dataDir, 'storage', relative));
const makeOlder = (ownerUserId: number, hours: number) =>
  db()
    .updateTable('uploads')
    .set({ createdAt: sql<Date>`created_at - make_interval(hours => ${hours})` as unknown as Date })
    .where('ownerUserId', '=', ownerUserId)
    .execute();

/** Random pixels do not compress: a PNG of about 1.4 MB. */
const noisyPng = () => {
  const width = 800;
  const height = 600;
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = Math.floor(Math.random() * 256);
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
};

describe('files attached to nothing', () => {
  it('removes an orphan past the grace period and keeps a card image, a request image and a young orphan', async () => {
    const token = await verifiedCustomer(server, '09191230001', '0016789024');
    const owner = await userId(token);
    const card = (
      await db()
        .selectFrom('users')
        .select('nationalCardImageAddress')
        .where('id', '=', owner)
        .executeTakeFirstOrThrow()
    ).nationalCardImageAddress!;
    const orphan = (await upload(token, await jpegWithExif())).body.path!;
    const attached = (await upload(token, await jpegWithExif())).body.path!;

    // A request naming the second image.
    const currencies = (await post(server, '/api/public/searchCurrencies')).body.data as {
      items: Array<{ id: number; code: string }>;
    };
    const groups = (await post(server, '/api/public/searchPaymentMethodGroups')).body.data as {
      items: Array<{ id: number; isCash: boolean }>;
    };
    const priced = {
      currency: currencies.items.find((c) => c.code === 'USD')!.id,
      amount: 15,
      requestedPaymentMethodGroup: groups.items.find((g) => !g.isCash)!.id,
    };
    const quote = await post(server, '/api/me/desks/uafCpr/priceInquiry', priced, bearer(token));
    const request = await post(
      server,
      '/api/me/desks/uafCpr/requests',
      {
        ...priced,
        targetPageAddress: 'https://pay.example.org',
        targetPageUsername: 'student',
        targetPagePassword: 'pw',
        customerDescriptiveImageAddresses: attached,
        quoteId: (quote.body.data as { quoteId: string }).quoteId,
      },
      { ...bearer(token), 'idempotency-key': 'uploads-request-1' },
    );
    expect(request.status).toBe(200);

    // Another customer's orphan, still within the grace period.
    const other = await loginByCode(server, '09191230002');
    const young = (await upload(other, await jpegWithExif())).body.path!;

    await makeOlder(owner, 48);
    const removed = await server.app.storage.removeOrphans(db(), server.app.config.uploadLimits.orphanGraceSeconds);
    expect(removed).toEqual([orphan]);
    expect(stored(orphan)).toBe(false);
    for (const kept of [card, attached, young]) expect(stored(kept), kept).toBe(true);

    const rows = await db().selectFrom('uploads').select(['path', 'attachedAt']).execute();
    expect(rows.find((r) => r.path === orphan)).toBeUndefined();
    expect(rows.find((r) => r.path === card)?.attachedAt).not.toBeNull();
    expect(rows.find((r) => r.path === attached)?.attachedAt).not.toBeNull();
    expect(rows.find((r) => r.path === young)?.attachedAt).toBeNull();
    const sign = await post(server, '/api/me/signFileUrl', { path: orphan }, bearer(token));
    expect(sign.status).toBe(404);

    // Found attached once, never looked at again; nothing more to remove.
    expect(await server.app.storage.removeOrphans(db(), server.app.config.uploadLimits.orphanGraceSeconds)).toEqual([]);
  });
});

describe('upload quota', () => {
  it('refuses a fourth file in 24 hours with a Persian wait, per user, until the oldest is a day old', async () => {
    const token = await loginByCode(server, '09191230003');
    for (let i = 0; i < 3; i++) expect((await upload(token, await jpegWithExif())).status).toBe(200);
    const refused = await upload(token, await jpegWithExif());
    expect(refused.status).toBe(429);
    expect(refused.body.msg).toMatch(/^سقف بارگذاری روزانه \(۳ تصویر\) پر شده است\. لطفا .*(ساعت|دقیقه).* دیگر/);
    expect(Number(refused.retryAfter)).toBeGreaterThan(23 * 3600);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(24 * 3600);

    // Someone else is not held back.
    expect((await upload(await loginByCode(server, '09191230004'), await jpegWithExif())).status).toBe(200);
    // A day later the window has moved on.
    await makeOlder(await userId(token), 25);
    expect((await upload(token, await jpegWithExif())).status).toBe(200);
  });

  it('refuses bytes beyond the daily size', async () => {
    const token = await loginByCode(server, '09191230005');
    const big = await noisyPng();
    expect(big.length).toBeGreaterThan(1024 * 1024);
    expect((await upload(token, big, 'requestImage', 'image/png')).status).toBe(200);
    const refused = await upload(token, big, 'requestImage', 'image/png');
    expect(refused.status).toBe(429);
    expect(refused.body.msg).toMatch(/^سقف حجم بارگذاری روزانه \(۲ مگابایت\) پر شده است/);
    // A small file still fits.
    expect((await upload(token, await jpegWithExif())).status).toBe(200);
  });

  it('lets exactly the quota through when uploads arrive at once', async () => {
    const token = await loginByCode(server, '09191230006');
    const image = await jpegWithExif();
    const results = await Promise.all(Array.from({ length: 6 }, () => upload(token, image)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    expect(results.filter((r) => r.status === 429)).toHaveLength(3);
    const owner = await userId(token);
    const rows = await db().selectFrom('uploads').select('path').where('ownerUserId', '=', owner).execute();
    expect(rows).toHaveLength(3);
  });
});
