/** Log-in (code, password, e-mail + captcha), the signed-in user, profile, uploads and terms. */
import { randomUUID } from 'node:crypto';
import { toEnglishDigits } from '../../../shared/digits';
import { canonicalMobile } from '../../../shared/mobile';
import { isValidNationalCode } from '../../../shared/validation';
import type { Handlers } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { HttpError, ok, tooManyRequests, tooManyRequestsFor } from '../../http/errors';
import { msg } from '../../http/messages';
import { hashPassword, verifyPassword } from '../../lib/crypto';
import type { LiveEvents } from '../../realtime/events';
import { notify } from '../notifications';
import type { FileLimits } from '../../../shared/file-fields';
import { megabytes, typesInWords } from '../../../shared/file-limits';
import {
  type FileKind,
  isPdf,
  looksExecutable,
  MAX_IMAGE_BYTES,
  PDF_PURPOSES,
  reencodeImage,
  REQUEST_FILE,
  sniffFileKind,
  sniffImageKind,
  type Storage,
} from '../storage';
import { taskTypeOf } from '../tasks';
import { updateAccount } from './accounts';
import { CAPTCHA_LIFETIME_SECONDS, captchaImage, consumeCaptcha, createCaptcha } from './captcha';
import type { LoginGuard } from './login-limits';
import { type MobileCodeDeps, sendMobileValidationCode, verifyMobileValidationCode } from './mobile-codes';
import { inquiryNationalCode, updateProfile } from './profile';
import {
  clientOf,
  issueToken,
  listSessions,
  revokeOtherTokens,
  revokeOwnToken,
  revokeToken,
  type SessionPolicy,
} from './tokens';
import { findOrCreateByMobile, loadUserDto, maskMobile, type ProductCategory } from './users-store';

type IdentityOperation =
  | 'sendMobileValidationCode'
  | 'loginByMobileValidationCode'
  | 'loginByPassword'
  | 'createCaptcha'
  | 'getCaptchaImage'
  | 'loginByEmail'
  | 'fetchUserData'
  | 'logout'
  | 'changeOwnPassword'
  | 'searchOwnSessions'
  | 'revokeOwnSession'
  | 'revokeOtherOwnSessions'
  | 'updateUserData'
  | 'inquiryNationalCode'
  | 'uploadFile'
  | 'signFileUrl'
  | 'approveEducationalPolicy'
  | 'approveInternationalExamsPolicy'
  | 'approveEmbassiesPolicy'
  | 'approveGoogleAdsPolicy'
  | 'approveOthersPolicy';

export interface IdentityDeps {
  db: DB;
  codes: MobileCodeDeps;
  storage: Storage;
  live: LiveEvents;
  sessions: SessionPolicy;
  /** Wrong-password limits of the password and e-mail log-ins (never of the code log-in). */
  loginGuard: LoginGuard;
  /** National-code lookups allowed per user and per address in each window (counted in codes.rateLimiter). */
  inquiryLimits: { perUser: number; perIp: number; windowSeconds: number };
  /**
   * The port the composition fills from the live catalogue: the declared limits (`x-file`) of a desk form's file
   * field, or null when the desk has no such field. An upload for a field is held to these, never to the client's.
   */
  fileFieldLimits: (desk: string, field: string) => FileLimits | null;
}

/**
 * Stores an upload for a desk form's file field within that field's declared limits, judged by the bytes: the
 * size, then the kind its content is (a PDF by its markers, an image by its header and a clean decode), never its
 * name or declared type. Images are re-encoded (metadata dropped); a PDF is kept as sent and only ever downloaded.
 */
async function saveForField(
  deps: { db: DB; storage: Storage },
  ownerUserId: number,
  limits: FileLimits,
  bytes: Buffer,
): Promise<string> {
  const types = typesInWords(limits.types);
  const tooLarge = () => new HttpError(413, msg('upload.fieldTooLarge', { megabytes: megabytes(limits.maxBytes) }));
  if (bytes.length > limits.maxBytes) throw tooLarge();
  if (looksExecutable(bytes)) throw new HttpError(415, msg('upload.executable', { types }));
  const kind: FileKind | null = sniffFileKind(bytes);
  if (!kind || !limits.types.includes(kind)) throw new HttpError(415, msg('upload.typeNotAllowed', { types }));
  if (kind === 'pdf') return deps.storage.save(deps.db, ownerUserId, REQUEST_FILE, 'pdf', bytes);
  const clean = await reencodeImage(bytes, kind).catch(() => null);
  if (!clean) throw new HttpError(415, msg('upload.typeNotAllowed', { types }));
  if (clean.length > limits.maxBytes) throw tooLarge();
  return deps.storage.save(deps.db, ownerUserId, REQUEST_FILE, kind, clean);
}

/** Attempts to change the own password per user and window: a stolen token cannot guess the current one. */
const PASSWORD_CHANGE_LIMIT = { attempts: 10, windowSeconds: 900 };

/** The canonical number, before any limit, lookup or insert; the contract's format check already refused junk. */
function requireMobile(raw: string): string {
  const mobileNo = canonicalMobile(raw);
  if (!mobileNo) throw HttpError.of(400, 'login.mobileNo.invalid');
  return mobileNo;
}

export function identityHandlers({
  db,
  codes,
  storage,
  live,
  sessions,
  loginGuard,
  inquiryLimits,
  fileFieldLimits,
}: IdentityDeps): Pick<Handlers, IdentityOperation> {
  const approvePolicy = (category: ProductCategory) => async (ctx: { principal: { userId: number } | null }) => {
    await db
      .insertInto('userPolicyApprovals')
      .values({ userId: ctx.principal!.userId, productCategory: category })
      .onConflict((oc) => oc.columns(['userId', 'productCategory']).doNothing())
      .execute();
    return ok(null, msg('policy.approved'));
  };

  return {
    sendMobileValidationCode: async ({ body, request }) =>
      ok(await sendMobileValidationCode(codes, requireMobile(body.mobileNo), request.ip), msg('login.code.sent')),

    loginByMobileValidationCode: async ({ body, request }) => {
      const mobileNo = requireMobile(body.mobileNo);
      await verifyMobileValidationCode(db, mobileNo, toEnglishDigits(body.validationCode));
      const user = await findOrCreateByMobile(db, mobileNo);
      return ok({ userToken: await issueToken(db, user.id, clientOf(request)) }, msg('login.success'));
    },

    loginByPassword: async ({ body, request }) => {
      // Ten bare digits are a national code when the check digit says so; anything else is a mobile spelling.
      const nationalCode = toEnglishDigits(body.username.trim());
      const mobileNo = isValidNationalCode(nationalCode) ? null : canonicalMobile(body.username);
      if (!mobileNo && !isValidNationalCode(nationalCode)) throw HttpError.of(400, 'login.username.invalid');
      const user = await db
        .selectFrom('users')
        .select(['id', 'passwordHash'])
        .where(mobileNo ? 'mobileNo' : 'nationalCode', '=', mobileNo ?? nationalCode)
        .executeTakeFirst();
      // Counted per account whichever name was used, and per address; a wait refuses even the right password.
      await loginGuard.attempt(
        user ? `user:${user.id}` : `name:${mobileNo ?? nationalCode}`,
        request.ip,
        async () => (await verifyPassword(body.password, user?.passwordHash ?? null)) && Boolean(user),
        'login.password.wrong',
      );
      return ok({ userToken: await issueToken(db, user!.id, clientOf(request)) }, msg('login.success'));
    },

    createCaptcha: async () => {
      const { captchaKey } = await createCaptcha(db);
      return ok({
        url: `/api/public/captcha/${captchaKey}`,
        captchaKey,
        expiresInSeconds: CAPTCHA_LIFETIME_SECONDS,
      });
    },

    getCaptchaImage: async ({ params, reply }) => {
      const png = await captchaImage(db, params.captchaKey ?? '');
      if (!png) throw HttpError.of(404, 'login.captcha.invalid');
      await reply.type('image/png').header('cache-control', 'no-store').send(png);
      return undefined as never;
    },

    loginByEmail: async ({ body, request }) => {
      await consumeCaptcha(db, body.captchaKey, toEnglishDigits(body.captcha));
      const email = body.email.trim().toLowerCase();
      const user = await db
        .selectFrom('users')
        .select(['id', 'passwordHash'])
        .where('email', '=', email)
        .executeTakeFirst();
      // The same per-account counter as the password log-in: two doors do not double the guesses.
      await loginGuard.attempt(
        user ? `user:${user.id}` : `email:${email}`,
        request.ip,
        async () => (await verifyPassword(body.password, user?.passwordHash ?? null)) && Boolean(user),
        'login.email.wrong',
      );
      return ok({ userToken: await issueToken(db, user!.id, clientOf(request)) }, msg('login.success'));
    },

    fetchUserData: async ({ principal }) => ok(await loadUserDto(db, principal!.userId)),

    logout: async ({ principal }) => {
      await revokeToken(db, principal!.tokenId);
      live.sessionEnded(principal!.tokenId);
      return ok(null, msg('logout.success'));
    },

    changeOwnPassword: async ({ body, principal }) => {
      const { userId, tokenId } = principal!;
      const hit = await codes.rateLimiter.hit(
        `password-change:user:${userId}`,
        PASSWORD_CHANGE_LIMIT.attempts,
        PASSWORD_CHANGE_LIMIT.windowSeconds,
      );
      if (!hit.allowed) throw tooManyRequests(hit.retryAfterSeconds);
      const user = await db
        .selectFrom('users')
        .select(['passwordHash', 'mobileNo'])
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      if (user.passwordHash) {
        // Proof of knowing the password, so a stolen token alone cannot take the account.
        if (!body.currentPassword) throw HttpError.of(400, 'changePassword.currentRequired');
        if (!(await verifyPassword(body.currentPassword, user.passwordHash))) {
          throw HttpError.of(422, 'changePassword.currentWrong');
        }
      } else {
        // No password yet: proof of holding the account's phone, with a code sent to its own number.
        if (!user.mobileNo) throw HttpError.of(422, 'changePassword.noMobile');
        if (!body.validationCode) throw HttpError.of(400, 'changePassword.codeRequired');
        await verifyMobileValidationCode(db, user.mobileNo, toEnglishDigits(body.validationCode));
      }
      const passwordHash = await hashPassword(body.password);
      // The change, the end of the other sessions and the security notice commit together.
      const ended = await db.transaction().execute(async (trx) => {
        await updateAccount(trx, userId, { passwordHash });
        await notify(trx, { userId, kind: 'passwordChanged', eventKey: `password:${randomUUID()}` });
        return revokeOtherTokens(trx, userId, tokenId);
      });
      for (const id of ended) live.sessionEnded(id);
      return ok(null, msg(ended.length ? 'changePassword.successOthersEnded' : 'changePassword.success'));
    },

    searchOwnSessions: async ({ principal }) =>
      ok({ items: await listSessions(db, sessions, principal!.userId, principal!.tokenId) }),

    revokeOwnSession: async ({ body, principal }) => {
      if (!(await revokeOwnToken(db, principal!.userId, body.id))) throw HttpError.of(404, 'session.notFound');
      live.sessionEnded(body.id);
      return ok(null, msg('session.ended'));
    },

    revokeOtherOwnSessions: async ({ principal }) => {
      const ended = await revokeOtherTokens(db, principal!.userId, principal!.tokenId);
      for (const id of ended) live.sessionEnded(id);
      return ok({ revoked: ended.length }, msg('session.othersEnded'));
    },

    updateUserData: async ({ body, principal }) => {
      const { user, createdTaskId } = await updateProfile(db, principal!, body);
      live.userProfileChanged(user);
      if (createdTaskId !== null) {
        const type = taskTypeOf('approveProfileAsL1Task');
        live.taskCreated({ taskId: createdTaskId, type: type.identifier, title: type.title, color: type.color });
      }
      return ok(user, msg('profile.saved'));
    },

    inquiryNationalCode: async ({ body, principal, request }) => {
      // Each answer may reveal a masked mobile number: limited per user and per address like the code requests.
      const limit = async () => {
        for (const [key, max] of [
          [`inquiry:user:${principal!.userId}`, inquiryLimits.perUser],
          [`inquiry:ip:${request.ip}`, inquiryLimits.perIp],
        ] as const) {
          const hit = await codes.rateLimiter.hit(key, max, inquiryLimits.windowSeconds);
          if (!hit.allowed) throw tooManyRequestsFor('profile.inquiry.tooMany', hit.retryAfterSeconds);
        }
      };
      const other = await inquiryNationalCode(db, principal!, body.nationalCode, limit);
      return ok({ otherUserData: other ? { mobileNo: maskMobile(other.mobileNo) } : null });
    },

    uploadFile: async ({ request, principal }) => {
      if (!request.isMultipart()) throw HttpError.of(415, 'http.unsupportedMediaType');
      let file: { bytes: Buffer; truncated: boolean } | null = null;
      let filePrefix = '';
      let desk = '';
      let field = '';
      let files = 0;
      try {
        for await (const part of request.parts({ limits: { fileSize: MAX_IMAGE_BYTES, files: 2, fields: 5 } })) {
          if (part.type === 'file') {
            files += 1;
            const bytes = await part.toBuffer().catch(() => null);
            if (part.fieldname !== 'attached_file' || files > 1) continue;
            file = { bytes: bytes ?? Buffer.alloc(0), truncated: bytes === null || part.file.truncated };
          } else if (part.fieldname === 'filePrefix') {
            filePrefix = String(part.value);
          } else if (part.fieldname === 'desk') {
            desk = String(part.value);
          } else if (part.fieldname === 'field') {
            field = String(part.value);
          }
        }
      } catch (error) {
        // The multipart plugin's own refusals carry their status (413 past a limit); the parser's (no boundary
        // in the body, a malformed part header, a form that ends early) carry none: the client's form is broken.
        const status = (error as { statusCode?: number }).statusCode;
        if (error instanceof HttpError || (status !== undefined && status >= 400 && status < 500)) throw error;
        throw HttpError.of(400, 'upload.malformed');
      }
      // For a desk form's file field: that field's declared limits, looked up here, whatever the client says.
      if (desk !== '' || field !== '') {
        const limits = fileFieldLimits(desk, field);
        if (!limits) throw HttpError.of(404, 'upload.notFileField');
        if (files !== 1 || !file) throw HttpError.of(400, 'upload.oneFile');
        if (file.truncated)
          throw new HttpError(413, msg('upload.fieldTooLarge', { megabytes: megabytes(limits.maxBytes) }));
        const path = await saveForField({ db, storage }, principal!.userId, limits, file.bytes);
        return { result: true, msg: msg('upload.fileSaved'), path, url: storage.signedUrl(path) };
      }
      if (files !== 1 || !file) throw HttpError.of(400, 'upload.oneFile');
      if (file.truncated) throw HttpError.of(413, 'upload.tooLarge');
      if (!/^[A-Za-z][A-Za-z0-9]{0,30}$/.test(filePrefix)) {
        throw new HttpError(400, msg('http.fieldInvalid', { field: 'filePrefix' }));
      }
      // A PDF only where its purpose takes one (a conversation's attachment); kept as sent, downloaded only.
      if (PDF_PURPOSES.has(filePrefix) && isPdf(file.bytes)) {
        const path = await storage.save(db, principal!.userId, filePrefix, 'pdf', file.bytes);
        return { result: true, msg: msg('upload.fileSaved'), path, url: storage.signedUrl(path) };
      }
      const kind = sniffImageKind(file.bytes);
      if (!kind) throw HttpError.of(415, PDF_PURPOSES.has(filePrefix) ? 'upload.notImageOrPdf' : 'upload.notImage');
      const clean = await reencodeImage(file.bytes, kind).catch(() => null);
      if (!clean) throw HttpError.of(415, 'upload.notImage');
      const path = await storage.save(db, principal!.userId, filePrefix, kind, clean);
      return { result: true, msg: msg('upload.saved'), path, url: storage.signedUrl(path) };
    },

    signFileUrl: async ({ body, principal }) => ok({ url: await storage.signFor(db, principal!, body.path) }),

    approveEducationalPolicy: approvePolicy('educational'),
    approveInternationalExamsPolicy: approvePolicy('internationalExams'),
    approveEmbassiesPolicy: approvePolicy('embassies'),
    approveGoogleAdsPolicy: approvePolicy('googleAds'),
    approveOthersPolicy: approvePolicy('others'),
  };
}
