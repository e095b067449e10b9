/**
 * Google Ads: customers ask for accounts and list theirs; staff keep the manager panels and the accounts, decide
 * the make-account task, and complete (or fail) a paid recharge's googleAdsAccountCrCpTask.
 */
import type { Handlers } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { ok } from '../../http/errors';
import { msg } from '../../http/messages';
import type { LiveEvents } from '../../realtime/events';
import { loadUserDto } from '../identity';
import { failed, type FulfilmentDeps, taskData } from '../fulfilment';
import { announceTaskClaimed, GOOGLE_ADS_CHARGE_TASK_TYPES, taskTypeOf, toTaskDtos } from '../tasks';
import { googleAdsChargeDone } from './charge-done';
import type { GoogleAdsOperations } from './operations';
import { createAccountRequest, searchAccountRequests } from './account-requests';
import { saveAccount, searchMyAccounts, searchStaffAccounts, staffAccountOf } from './accounts';
import { MAKE_ACCOUNT_TASK } from './common';
import { claimMakeAccountTask, makeAccount, rejectAccountRequest } from './make-account-task';
import { saveMccAccount, searchMccAccounts } from './mcc-panels';

export function googleAdsHandlers(
  db: DB,
  live: LiveEvents,
  operations: GoogleAdsOperations,
  fulfilment: FulfilmentDeps,
): Pick<
  Handlers,
  | 'createGoogleAdsAccount'
  | 'searchGoogleAdsAccounts'
  | 'searchGoogleAdsAccountRequests'
  | 'searchGoogleMccAccounts'
  | 'saveGoogleMccAccount'
  | 'searchStaffGoogleAdsAccounts'
  | 'saveGoogleAdsAccount'
  | 'fetchMakeGoogleAdsAccountTaskData'
  | 'makeGoogleAdsAccount'
  | 'rejectGoogleAdsAccountRequest'
  | 'fetchGoogleAdsChargeTaskData'
  | 'googleAdsAccountCrDone'
  | 'googleAdsAccountCrFailed'
> {
  /** The customer's pages and the staff lists refetch. */
  const accountChanged = async (
    userId: number,
    change: { googleAdsAccountId?: number; googleAdsAccountRequestId?: number },
  ) => {
    const user = await db.selectFrom('users').select('uid').where('id', '=', userId).executeTakeFirst();
    live.googleAdsAccountChanged(user?.uid ?? null, change);
  };

  return {
    createGoogleAdsAccount: async ({ body, principal }) => {
      const { request, taskId } = await createAccountRequest(db, principal!.userId, body);
      if (taskId !== null) {
        const type = taskTypeOf(MAKE_ACCOUNT_TASK);
        live.taskCreated({ taskId, type: type.identifier, title: type.title, color: type.color });
      }
      await accountChanged(principal!.userId, { googleAdsAccountRequestId: request.id });
      return ok(request, msg('googleAds.requested'));
    },

    searchGoogleAdsAccounts: async ({ body, principal }) =>
      ok(await searchMyAccounts(db, principal!.userId, body ?? {})),

    searchGoogleAdsAccountRequests: async ({ body, principal }) =>
      ok(await searchAccountRequests(db, principal!.userId, body ?? {})),

    searchGoogleMccAccounts: async ({ body }) => ok(await searchMccAccounts(db, body ?? {})),

    saveGoogleMccAccount: async ({ body, principal }) => {
      const mcc = await saveMccAccount(db, principal!, body);
      live.googleMccAccountChanged(mcc.id);
      return ok(mcc, msg('googleAds.mcc.saved'));
    },

    searchStaffGoogleAdsAccounts: async ({ body }) => ok(await searchStaffAccounts(db, body ?? {})),

    saveGoogleAdsAccount: async ({ body, principal }) => {
      const { account, userId } = await saveAccount(db, principal!, body);
      await accountChanged(userId, { googleAdsAccountId: account.id });
      return ok(account, msg('googleAds.account.saved'));
    },

    fetchMakeGoogleAdsAccountTaskData: async ({ body, principal }) => {
      const p = principal!;
      const { task, request, mccAccounts } = await claimMakeAccountTask(db, p, body.taskId);
      announceTaskClaimed(live, task, p.userId);
      return ok({
        task: (await toTaskDtos(db, [task]))[0]!,
        request,
        user: await loadUserDto(db, request.userId),
        mccAccounts,
        operations: operations.kind,
      });
    },

    makeGoogleAdsAccount: async ({ body, principal }) => {
      const { account, userId, requestId } = await makeAccount(db, operations, principal!, body);
      await accountChanged(userId, { googleAdsAccountId: account.id, googleAdsAccountRequestId: requestId });
      live.googleMccAccountChanged(account.googleMccAccountId);
      return ok(account, msg('googleAds.account.created'));
    },

    rejectGoogleAdsAccountRequest: async ({ body, principal }) => {
      const request = await rejectAccountRequest(db, principal!, body);
      await accountChanged(request.userId, { googleAdsAccountRequestId: request.id });
      return ok(request, msg('googleAds.request.rejected'));
    },

    fetchGoogleAdsChargeTaskData: async ({ body, principal }) => {
      const request = await taskData(fulfilment, principal!, body.taskId, GOOGLE_ADS_CHARGE_TASK_TYPES);
      const fields = request.purchase.fields as Record<string, unknown> | undefined;
      const accountId = Number(fields?.googleAdsAccount);
      return ok({ request, googleAdsAccount: await staffAccountOf(db, accountId), operations: operations.kind });
    },

    googleAdsAccountCrDone: async ({ body, principal }) => {
      const { purchase, userId, googleAdsAccountId } = await googleAdsChargeDone(
        { ...fulfilment, googleAds: operations },
        principal!,
        body,
      );
      await accountChanged(userId, { googleAdsAccountId });
      return ok(purchase, msg('googleAds.charge.done'));
    },

    googleAdsAccountCrFailed: async ({ body, principal }) =>
      ok(
        await failed(fulfilment, principal!, body.purchase, body.reason, 'googleAdsCharge'),
        msg('googleAds.charge.failed'),
      ),
  };
}
