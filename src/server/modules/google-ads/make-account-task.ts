/**
 * The makeGoogleAdsAccountTask: staff open it, make the account under one of our panels through the account
 * operations (operations.ts; today by hand in Google's console) and record it linked to the customer, or reject the
 * request with a reason the customer sees.
 */
import type { Principal } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { HttpError } from '../../http/errors';
import { audit } from '../../lib/audit';
import { claimTaskAudited, decideTask } from '../tasks';
import type { GoogleAdsOperations } from './operations';
import { type Db, type GoogleAdsAccountRequestDto, MAKE_ACCOUNT_TASK, type StaffGoogleAdsAccountDto } from './common';
import { emailsOf, requestOf } from './account-requests';
import { searchMccAccounts } from './mcc-panels';
import { staffAccountOf } from './accounts';

/** Opens (claims) a makeGoogleAdsAccountTask with the request, audited when the claim is new. */
export async function claimMakeAccountTask(db: DB, principal: Principal, taskId: number) {
  const task = await db
    .transaction()
    .execute((trx) => claimTaskAudited(trx, taskId, [MAKE_ACCOUNT_TASK], principal.userId));
  if (task.googleAdsAccountRequestId === null) throw HttpError.of(404, 'task.notFound');
  const request = await requestOf(db, task.googleAdsAccountRequestId);
  const mccAccounts = await searchMccAccounts(db, { status: 'active', perPage: 500 });
  return { task, request, mccAccounts: mccAccounts.items };
}

/** Locks the request a claimed make-account task decides and records the decision on the task (once). */
async function decideRequestTask(
  trx: Db,
  principal: Principal,
  taskId: number,
  decision: { state: 'done' | 'rejected'; reason?: string },
) {
  const task = await decideTask(trx, taskId, MAKE_ACCOUNT_TASK, principal.userId, decision);
  if (task.googleAdsAccountRequestId === null) throw HttpError.of(404, 'task.notFound');
  const request = await trx
    .selectFrom('googleAdsAccountRequests')
    .selectAll()
    .where('id', '=', task.googleAdsAccountRequestId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  if (request.state !== 'requested') throw HttpError.of(409, 'task.alreadyDecided');
  return request;
}

export interface MakeAccountInput {
  taskId: number;
  googleMccAccount: number;
  googleCustomerId: string;
  title?: string | undefined;
  notes?: string | undefined;
}

/**
 * Decides a claimed make-account task by making the account under an active panel through the account operations
 * and recording it, linked to the request's customer (once: the task and the request are decided together).
 */
export async function makeAccount(
  db: DB,
  operations: GoogleAdsOperations,
  principal: Principal,
  input: MakeAccountInput,
): Promise<{ account: StaffGoogleAdsAccountDto; userId: number; requestId: number }> {
  const { accountId, userId, requestId } = await db.transaction().execute(async (trx) => {
    const request = await decideRequestTask(trx, principal, input.taskId, { state: 'done' });
    const mcc = await trx
      .selectFrom('googleMccAccounts')
      .select(['id', 'googleCustomerId', 'status'])
      .where('id', '=', input.googleMccAccount)
      .executeTakeFirst();
    if (!mcc) throw HttpError.of(422, 'googleAds.mcc.notFound');
    if (mcc.status !== 'active') throw HttpError.of(422, 'googleAds.mcc.inactive');
    const currency = await trx
      .selectFrom('currencies')
      .select('code')
      .where('id', '=', request.accountCurrencyId)
      .executeTakeFirstOrThrow();
    const title = input.title?.trim() || request.customerBusinessTitle;
    const { googleCustomerId } = await operations.createAccount({
      mcc: { id: mcc.id, googleCustomerId: mcc.googleCustomerId },
      currencyCode: currency.code.trim(),
      title,
      standardUsers: emailsOf(request.requestedCustomerStandardUsers),
      readonlyUsers: emailsOf(request.requestedCustomerReadonlyUsers),
      recorded: { googleCustomerId: input.googleCustomerId },
    });
    const taken = await trx
      .selectFrom('googleAdsAccounts')
      .select('id')
      .where('googleCustomerId', '=', googleCustomerId)
      .executeTakeFirst();
    if (taken) throw HttpError.of(409, 'googleAds.customerId.taken');
    const account = await trx
      .insertInto('googleAdsAccounts')
      .values({
        googleCustomerId,
        googleMccAccountId: mcc.id,
        userId: request.userId,
        currencyId: request.accountCurrencyId,
        title,
        requestId: request.id,
        notes: input.notes?.trim() || null,
        createdBy: principal.userId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('googleAdsAccountRequests')
      .set({ state: 'created', decidedBy: principal.userId, decidedAt: new Date() })
      .where('id', '=', request.id)
      .execute();
    await audit(trx, {
      actorUserId: principal.userId,
      action: 'makeGoogleAdsAccount',
      entity: 'googleAdsAccountRequest',
      entityId: request.id,
      before: { state: request.state },
      after: {
        state: 'created',
        googleAdsAccountId: account.id,
        googleCustomerId,
        googleMccAccountId: mcc.id,
        operations: operations.kind,
      },
    });
    return { accountId: account.id, userId: request.userId, requestId: request.id };
  });
  return { account: await staffAccountOf(db, accountId), userId, requestId };
}

/** Decides a claimed make-account task by rejecting the request with the reason its customer sees. */
export async function rejectAccountRequest(
  db: DB,
  principal: Principal,
  input: { taskId: number; reason: string },
): Promise<GoogleAdsAccountRequestDto> {
  const reason = input.reason.trim();
  const id = await db.transaction().execute(async (trx) => {
    const request = await decideRequestTask(trx, principal, input.taskId, { state: 'rejected', reason });
    await trx
      .updateTable('googleAdsAccountRequests')
      .set({ state: 'rejected', decisionReason: reason, decidedBy: principal.userId, decidedAt: new Date() })
      .where('id', '=', request.id)
      .execute();
    await audit(trx, {
      actorUserId: principal.userId,
      action: 'rejectGoogleAdsAccountRequest',
      entity: 'googleAdsAccountRequest',
      entityId: request.id,
      before: { state: request.state },
      after: { state: 'rejected', reason },
    });
    return request.id;
  });
  return requestOf(db, id);
}
