/**
 * Private files under DATA_DIR/storage. A file is served at /storage/{path} only with a signed,
 * expiring URL; the signing endpoint decides who may have one (the owner, or staff allowed to review it).
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { toPersianDigits } from '../../../shared/digits';
import type { Principal } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { HttpError, notFound, persianWait } from '../../http/errors';
import { type MessageKey, msg } from '../../http/messages';
import { hmac, randomToken, safeEqual } from '../../lib/crypto';
import { EXTENSION, type FileKind, MIME } from './images';

export const SIGNED_URL_LIFETIME_SECONDS = 600;
/** Staff actions that may see other people's uploads, by upload purpose. */
const REVIEWER_ACTIONS: Record<string, string> = {
  nationalCard: 'approveProfileL1',
  currencyPaymentReceipt: 'manageCurrencyPayments',
  walletCorrection: 'decideWalletCorrections',
  purchaseMessage: 'viewRequests',
  requestFile: 'viewRequests',
};

/** The purpose of a file uploaded for a desk form's file field (uploadFile with desk and field), which staff viewing requests may see. */
export const REQUEST_FILE = 'requestFile';

/** An upload as the database keeps it: what a form's file field is checked against at submit. */
export interface StoredUpload {
  path: string;
  purpose: string;
  mime: string;
  sizeBytes: number;
}

/** The purpose (file prefix) of a currency payment's receipt image, which staff holding its action may see. */
export const CURRENCY_PAYMENT_RECEIPT = 'currencyPaymentReceipt';

const SAFE_PATH = /^[A-Za-z][A-Za-z0-9]{0,30}\/\d{4}\/[A-Za-z0-9_-]{16,64}\.(jpg|png|webp|pdf)$/;
/** Advisory lock class of per-owner uploads (with the owner's id as the second key). */
const UPLOAD_LOCK_KEY = 724_002;
/** Uploads the clean-up looks at per query. */
const ORPHAN_BATCH = 200;

function quotaError(key: MessageKey, params: Record<string, string>, waitSeconds: number): HttpError {
  const wait = Math.max(1, Math.ceil(waitSeconds));
  return new HttpError(429, msg(key, { ...params, wait: persianWait(wait) }), null, { 'retry-after': String(wait) });
}

export interface UploadLimits {
  filesPerDay: number;
  bytesPerDay: number;
}

export class Storage {
  constructor(
    private readonly root: string,
    private readonly secret: string,
    private readonly limits: UploadLimits,
  ) {}

  /**
   * Stores an upload within the owner's quota for any 24 hours (429 with the wait beyond it). One upload per
   * owner at a time (an advisory lock), so parallel uploads cannot pass the quota together.
   */
  async save(db: DB, ownerUserId: number, purpose: string, kind: FileKind, bytes: Buffer): Promise<string> {
    const relative = `${purpose}/${new Date().getUTCFullYear()}/${randomToken(18)}.${EXTENSION[kind]}`;
    const file = path.join(this.root, relative);
    await mkdir(path.dirname(file), { recursive: true });
    await db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(${UPLOAD_LOCK_KEY}::int, ${ownerUserId}::int)`.execute(trx);
      const used = await trx
        .selectFrom('uploads')
        .select([
          sql<number>`count(*)::int`.as('files'),
          sql<number>`coalesce(sum(size_bytes), 0)::bigint`.as('bytes'),
          sql<number>`coalesce(extract(epoch from min(created_at) + interval '1 day' - now()), 0)`.as('wait'),
        ])
        .where('ownerUserId', '=', ownerUserId)
        .where('createdAt', '>', sql<Date>`now() - interval '1 day'`)
        .executeTakeFirstOrThrow();
      if (used.files + 1 > this.limits.filesPerDay) {
        throw quotaError('upload.quotaFiles', { count: toPersianDigits(this.limits.filesPerDay) }, used.wait);
      }
      if (used.bytes + bytes.length > this.limits.bytesPerDay) {
        const megabytes = toPersianDigits(Math.floor(this.limits.bytesPerDay / (1024 * 1024)));
        throw quotaError('upload.quotaBytes', { megabytes }, used.wait);
      }
      await writeFile(file, bytes, { flag: 'wx' });
      try {
        await trx
          .insertInto('uploads')
          .values({ ownerUserId, path: relative, purpose, mime: MIME[kind], sizeBytes: bytes.length })
          .execute();
      } catch (error) {
        await rm(file, { force: true });
        throw error;
      }
    });
    return relative;
  }

  /**
   * Removes uploads that nothing names once they are older than `graceSeconds`: not the owner's card image,
   * not in the fields of one of the owner's requests, not in an audit record of the owner's profile (a replaced
   * card image stays as evidence). One found named is marked attached and never looked at again. Returns the
   * paths removed.
   */
  async removeOrphans(db: DB, graceSeconds: number): Promise<string[]> {
    const removed: string[] = [];
    for (;;) {
      const { rows } = await sql<{ id: number; path: string; attached: boolean }>`
        select u.id, u.path, (
          exists (select 1 from users where users.id = u.owner_user_id and users.national_card_image_address = u.path)
          or exists (
            select 1 from purchases p
            where p.user_id = u.owner_user_id and p.created_at >= u.created_at and strpos(p.fields::text, u.path) > 0
          )
          or exists (
            select 1 from audit_log a
            where a.entity = 'user' and a.entity_id = u.owner_user_id::text and a.created_at >= u.created_at
              and strpos(coalesce(a.before::text, '') || coalesce(a.after::text, ''), u.path) > 0
          )
        ) as attached
        from uploads u
        where u.attached_at is null and u.created_at < now() - make_interval(secs => ${graceSeconds})
        order by u.created_at
        limit ${ORPHAN_BATCH}`.execute(db);
      const attached = rows.filter((r) => r.attached).map((r) => r.id);
      const orphans = rows.filter((r) => !r.attached).map((r) => r.id);
      if (attached.length > 0) {
        await db.updateTable('uploads').set({ attachedAt: new Date() }).where('id', 'in', attached).execute();
      }
      if (orphans.length > 0) {
        const gone = await db
          .deleteFrom('uploads')
          .where('id', 'in', orphans)
          .where('attachedAt', 'is', null)
          .returning('path')
          .execute();
        for (const { path: relative } of gone) {
          if (SAFE_PATH.test(relative)) await rm(path.join(this.root, relative), { force: true });
          removed.push(relative);
        }
      }
      if (rows.length < ORPHAN_BATCH) return removed;
    }
  }

  /**
   * Marks `owner`'s upload at `relative` as attached to a record of another module (a currency payment's receipt),
   * so the clean-up keeps it. False when the owner has no such upload for `purpose`.
   */
  async attach(db: DB, relative: string, ownerUserId: number, purpose: string): Promise<boolean> {
    const row = await db
      .updateTable('uploads')
      .set({ attachedAt: new Date() })
      .where('path', '=', relative)
      .where('ownerUserId', '=', ownerUserId)
      .where('purpose', '=', purpose)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The owner's uploads among `paths` (a path of someone else's, or of nothing, is simply not in the answer). */
  async uploadsOf(db: DB, ownerUserId: number, paths: readonly string[]): Promise<StoredUpload[]> {
    if (paths.length === 0) return [];
    const rows = await db
      .selectFrom('uploads')
      .select(['path', 'purpose', 'mime', 'sizeBytes'])
      .where('ownerUserId', '=', ownerUserId)
      .where('path', 'in', [...paths])
      .execute();
    return rows.map((r) => ({ ...r, sizeBytes: Number(r.sizeBytes) }));
  }

  /** SHA-256 (lower-case hex) of a stored file's bytes, or null when it is not there. */
  async sha256Of(relative: string): Promise<string | null> {
    if (!SAFE_PATH.test(relative)) return null;
    const bytes = await readFile(path.join(this.root, relative)).catch(() => null);
    return bytes ? createHash('sha256').update(bytes).digest('hex') : null;
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
    // Someone who may not see it is told what a path that names no file gets: whether it exists is not theirs.
    if (!allowed) throw notFound();
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
      const kind = (Object.entries(EXTENSION).find(([, e]) => e === ext)?.[0] ?? 'jpeg') as FileKind;
      const bytes = await readFile(path.join(this.root, relative)).catch(() => null);
      if (!bytes) throw notFound();
      return (
        reply
          .type(MIME[kind])
          .header('cache-control', 'private, max-age=600')
          .header('x-content-type-options', 'nosniff')
          // Nothing in a file runs: no source for anything, and a sandbox without scripts should a browser render it.
          .header('content-security-policy', "default-src 'none'; sandbox")
          // A PDF is downloaded, never opened in the app's origin.
          .header('content-disposition', kind === 'pdf' ? 'attachment; filename="attachment.pdf"' : 'inline')
          .send(bytes)
      );
    });
  }
}
