/**
 * Private files under DATA_DIR/storage. A file is served at /storage/{path} only with a signed,
 * expiring URL; the signing endpoint decides who may have one (the owner, or staff allowed to review it).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Principal } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { HttpError, notFound } from '../../http/errors';
import { msg } from '../../http/messages';
import { hmac, randomToken, safeEqual } from '../../lib/crypto';
import { EXTENSION, type ImageKind, MIME } from './images';

export const SIGNED_URL_LIFETIME_SECONDS = 600;
/** Staff actions that may see other people's uploads, by upload purpose. */
const REVIEWER_ACTIONS: Record<string, string> = { nationalCard: 'approveProfileL1' };

const SAFE_PATH = /^[A-Za-z][A-Za-z0-9]{0,30}\/\d{4}\/[A-Za-z0-9_-]{16,64}\.(jpg|png|webp)$/;

export class Storage {
  constructor(
    private readonly root: string,
    private readonly secret: string,
  ) {}

  async save(db: DB, ownerUserId: number, purpose: string, kind: ImageKind, bytes: Buffer): Promise<string> {
    const relative = `${purpose}/${new Date().getUTCFullYear()}/${randomToken(18)}.${EXTENSION[kind]}`;
    const file = path.join(this.root, relative);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, bytes, { flag: 'wx' });
    await db
      .insertInto('uploads')
      .values({ ownerUserId, path: relative, purpose, mime: MIME[kind], sizeBytes: bytes.length })
      .execute();
    return relative;
  }

  signedUrl(relative: string, now = Date.now()): string {
    const expires = Math.floor(now / 1000) + SIGNED_URL_LIFETIME_SECONDS;
    const signature = hmac(this.secret, `${relative}:${expires}`);
    return `/storage/${relative}?expires=${expires}&signature=${signature}`;
  }

  /** A signed URL when `principal` may see the file: its owner, or staff holding the reviewing action. */
  async signFor(db: DB, principal: Principal, relative: string): Promise<string> {
    const upload = await db
      .selectFrom('uploads')
      .select(['ownerUserId', 'purpose'])
      .where('path', '=', relative)
      .executeTakeFirst();
    if (!upload) throw notFound();
    const reviewer = REVIEWER_ACTIONS[upload.purpose];
    const allowed =
      upload.ownerUserId === principal.userId ||
      (principal.isStaff && reviewer !== undefined && principal.actions.has(reviewer));
    if (!allowed) throw HttpError.of(403, 'storage.forbidden');
    return this.signedUrl(relative);
  }

  register(app: FastifyInstance): void {
    app.get('/storage/*', async (request, reply) => {
      const relative = (request.params as { '*': string })['*'];
      const { expires, signature } = request.query as { expires?: string; signature?: string };
      if (!SAFE_PATH.test(relative)) throw notFound();
      if (!expires || !signature || !/^\d+$/.test(expires)) throw HttpError.of(403, 'storage.forbidden');
      if (!safeEqual(signature, hmac(this.secret, `${relative}:${expires}`))) {
        throw HttpError.of(403, 'storage.forbidden');
      }
      if (Number(expires) * 1000 < Date.now()) throw new HttpError(403, msg('storage.expired'));
      const ext = relative.split('.').pop() as string;
      const kind = (Object.entries(EXTENSION).find(([, e]) => e === ext)?.[0] ?? 'jpeg') as ImageKind;
      const bytes = await readFile(path.join(this.root, relative)).catch(() => null);
      if (!bytes) throw notFound();
      return reply
        .type(MIME[kind])
        .header('cache-control', 'private, max-age=600')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'")
        .send(bytes);
    });
  }
}
