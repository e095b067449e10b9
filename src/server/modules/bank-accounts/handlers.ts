/** Customers' bank accounts and withdrawals, and the staff side: ownership review and closing withdrawals. */
import type { Handlers } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { ok } from '../../http/errors';
import { msg } from '../../http/messages';
import type { LiveEvents } from '../../realtime/events';
import { userBalance } from '../ledger';
import { loadUserDto } from '../identity';
import { announceTaskClaimed, taskTypeOf, toTaskDtos } from '../tasks';
import { claimOwnershipTask, decideOwnership, saveBankAccount, searchBankAccounts } from './accounts';
import { decideWithdrawal, requestWithdrawal, searchWithdrawals } from './withdrawals';
import { searchStaffBankAccounts } from './review-list';
import type { Storage } from '../storage';
import { decideWalletCorrection, proposeWalletCorrection, searchWalletCorrections } from './wallet-corrections';

export function bankAccountHandlers(
  db: DB,
  live: LiveEvents,
  storage: Storage,
): Pick<
  Handlers,
  | 'saveUserBankAccount'
  | 'searchUserBankAccounts'
  | 'requestWithdrawal'
  | 'searchMyWithdrawals'
  | 'fetchApproveUbaOwnerTaskData'
  | 'approveUserBankAccountOwnership'
  | 'rejectUserBankAccountOwnership'
  | 'searchStaffBankAccounts'
  | 'searchWithdrawals'
  | 'withdrawalDone'
  | 'withdrawalRefused'
  | 'proposeWalletCorrection'
  | 'decideWalletCorrection'
  | 'searchWalletCorrections'
> {
  const walletChanged = async (userId: number, uid: string) => {
    const { balance } = await userBalance(db, userId);
    live.walletChanged(uid, { balance });
  };

  return {
    saveUserBankAccount: async ({ body, principal }) => {
      const { account, task } = await saveBankAccount(db, principal!.userId, body);
      if (task) {
        const type = taskTypeOf('approveUbaOwnerTask');
        live.taskCreated({ taskId: task.taskId, type: type.identifier, title: type.title, color: type.color });
      }
      return ok(account, msg(account.ownershipApproved === 1 ? 'bankAccount.exists' : 'bankAccount.saved'));
    },

    searchUserBankAccounts: async ({ principal }) => ok(await searchBankAccounts(db, principal!.userId)),

    requestWithdrawal: async ({ body, principal, request }) => {
      const key = request.headers['idempotency-key'];
      const p = principal!;
      const { withdrawal, replayed } = await requestWithdrawal(
        db,
        p.userId,
        body,
        typeof key === 'string' ? key : undefined,
      );
      if (!replayed) await walletChanged(p.userId, p.uid);
      return ok(withdrawal, msg('withdrawal.requested'));
    },

    searchMyWithdrawals: async ({ body, principal }) =>
      ok(await searchWithdrawals(db, principal!.userId, { page: body?.page, perPage: body?.perPage })),

    fetchApproveUbaOwnerTaskData: async ({ body, principal }) => {
      const p = principal!;
      const { task, account } = await claimOwnershipTask(db, p, body.taskId);
      announceTaskClaimed(live, task, p.userId);
      const user = await loadUserDto(db, task.subjectUserId!);
      return ok({
        task: (await toTaskDtos(db, [task]))[0]!,
        bankAccount: account,
        user,
      });
    },

    approveUserBankAccountOwnership: async ({ body, principal }) => {
      const account = await decideOwnership(db, principal!, body.taskId, { approved: true });
      await announceAccount(account.userId);
      return ok(account, msg('bankAccount.approved'));
    },

    rejectUserBankAccountOwnership: async ({ body, principal }) => {
      const account = await decideOwnership(db, principal!, body.taskId, { approved: false, reason: body.reason });
      await announceAccount(account.userId);
      return ok(account, msg('bankAccount.rejected'));
    },

    searchStaffBankAccounts: async ({ body }) => ok(await searchStaffBankAccounts(db, body ?? {})),

    searchWithdrawals: async ({ body }) => ok(await searchWithdrawals(db, null, body ?? {})),

    withdrawalDone: async ({ body, principal }) => {
      const { withdrawal, userId, uid } = await decideWithdrawal(db, principal!, body.withdrawal, {
        state: 'done',
        reference: body.reference,
      });
      await walletChanged(userId, uid);
      return ok(withdrawal, msg('withdrawal.done'));
    },

    withdrawalRefused: async ({ body, principal }) => {
      const { withdrawal, userId, uid } = await decideWithdrawal(db, principal!, body.withdrawal, {
        state: 'refused',
        reason: body.reason,
      });
      await walletChanged(userId, uid);
      return ok(withdrawal, msg('withdrawal.refused'));
    },

    proposeWalletCorrection: async ({ body, principal }) =>
      ok(await proposeWalletCorrection(db, storage, principal!, body), msg('walletCorrection.proposed')),

    decideWalletCorrection: async ({ body, principal }) => {
      const { correction, uid } = await decideWalletCorrection(db, principal!, body.correction, body);
      if (correction.state === 'approved') await walletChanged(correction.userId, uid);
      return ok(
        correction,
        msg(correction.state === 'approved' ? 'walletCorrection.approved' : 'walletCorrection.rejected'),
      );
    },

    searchWalletCorrections: async ({ body }) => ok(await searchWalletCorrections(db, body ?? {})),
  };

  /** The customer's page lists their accounts; a decision on one reaches it as a wallet change. */
  async function announceAccount(userId: number) {
    const user = await db.selectFrom('users').select('uid').where('id', '=', userId).executeTakeFirstOrThrow();
    await walletChanged(userId, user.uid);
  }
}
