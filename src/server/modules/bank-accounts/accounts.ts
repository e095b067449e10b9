/**
 * Customers' bank accounts: the only writer of `user_bank_accounts`. An account is registered by IBAN
 * (src/shared/iban.ts) and opens an ownership review task; only an approved account receives withdrawals
 * (withdrawals.ts).
 */
import type { Principal } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { HttpError } from '../../http/errors';
import { audit } from '../../lib/audit';
import { type ListEnvelope } from '../../lib/paging';
import { formatIban, parseIban } from '../../../shared/iban';
import { notify } from '../notifications';
import { claimTask, decideTask, openBankAccountTask } from '../tasks';

export interface BankAccountDto {
  id: number;
  userId: number;
  iban: string;
  bankCode: string;
  bankName: string;
  ownerName: string;
  /** null: waiting for staff; 1 approved; 0 rejected. */
  ownershipApproved: 0 | 1 | null;
  decisionReason: string | null;
  createdAt: string;
  decidedAt: string | null;
}

export const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function accountSelect(db: DB) {
  return db
    .selectFrom('userBankAccounts')
    .select([
      'id',
      'userId',
      'iban',
      'bankCode',
      'bankName',
      'ownerName',
      'ownershipApproved',
      'decisionReason',
      'createdAt',
      'decidedAt',
    ]);
}

type AccountRow = Awaited<ReturnType<ReturnType<typeof accountSelect>['executeTakeFirstOrThrow']>>;

/** An account row as the customer's and staff's lists show it (staff's add the customer and the task). */
export const toAccountDto = (r: AccountRow): BankAccountDto => ({
  id: r.id,
  userId: r.userId,
  iban: r.iban,
  bankCode: r.bankCode,
  bankName: r.bankName,
  ownerName: r.ownerName,
  ownershipApproved: r.ownershipApproved === null ? null : r.ownershipApproved === 1 ? 1 : 0,
  decisionReason: r.decisionReason,
  createdAt: new Date(r.createdAt).toISOString(),
  decidedAt: iso(r.decidedAt),
});

export interface TaskOpened {
  taskId: number;
}

/**
 * Registers `iban` as one of the customer's accounts and opens its ownership review. Saving an account the
 * customer has already is answered with it as it stands; one whose ownership was rejected is reviewed again.
 */
export async function saveBankAccount(
  db: DB,
  userId: number,
  input: { iban: string; ownerName?: string | undefined },
): Promise<{ account: BankAccountDto; task: TaskOpened | null }> {
  const parsed = parseIban(input.iban);
  if (!parsed.ok) throw new HttpError(422, parsed.message, { field: 'iban' });
  return db.transaction().execute(async (trx) => {
    const user = await trx
      .selectFrom('users')
      .select(['firstName', 'lastName', 'mobileNo', 'email'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    const stated = input.ownerName?.trim();
    const ownerName = stated || [user.firstName, user.lastName].filter(Boolean).join(' ').trim();
    if (!ownerName) throw HttpError.of(422, 'bankAccount.ownerNameRequired');
    const inserted = await trx
      .insertInto('userBankAccounts')
      .values({ userId, iban: parsed.iban, bankCode: parsed.bankCode, bankName: parsed.bankName, ownerName })
      .onConflict((oc) => oc.columns(['userId', 'iban']).doNothing())
      .returning('id')
      .executeTakeFirst();
    let id = inserted?.id;
    let review = inserted !== undefined;
    if (id === undefined) {
      const existing = await trx
        .selectFrom('userBankAccounts')
        .select(['id', 'ownershipApproved'])
        .where('userId', '=', userId)
        .where('iban', '=', parsed.iban)
        .forUpdate()
        .executeTakeFirstOrThrow();
      id = existing.id;
      if (existing.ownershipApproved === 0) {
        // Rejected before: the customer asks again, perhaps with the holder's name corrected.
        await trx
          .updateTable('userBankAccounts')
          .set({ ownershipApproved: null, ownerName, decidedBy: null, decidedAt: null, decisionReason: null })
          .where('id', '=', id)
          .execute();
        review = true;
      }
    }
    let task: TaskOpened | null = null;
    if (review) {
      const taskId = await openBankAccountTask(trx, userId, id, { iban: parsed.iban });
      if (taskId !== null) task = { taskId };
      await audit(trx, {
        actorUserId: userId,
        action: 'saveUserBankAccount',
        entity: 'userBankAccount',
        entityId: id,
        after: { iban: parsed.iban, bankCode: parsed.bankCode, ownerName },
      });
    }
    const account = toAccountDto(await accountSelect(trx).where('id', '=', id).executeTakeFirstOrThrow());
    return { account, task };
  });
}

export async function searchBankAccounts(db: DB, userId: number): Promise<ListEnvelope<BankAccountDto>> {
  const rows = await accountSelect(db).where('userId', '=', userId).orderBy('id', 'desc').execute();
  return { items: rows.map(toAccountDto), total: rows.length };
}

/** Claims the review task and reads what staff compare: the account and the customer it belongs to. */
export async function claimOwnershipTask(db: DB, principal: Principal, taskId: number) {
  return db.transaction().execute(async (trx) => {
    const { task, claimedNow, before } = await claimTask(trx, taskId, ['approveUbaOwnerTask'], principal.userId);
    if (claimedNow) {
      await audit(trx, {
        actorUserId: principal.userId,
        action: 'claimTask',
        entity: 'task',
        entityId: task.id,
        before,
        after: { state: 'claimed', claimedBy: principal.userId },
      });
    }
    const account = toAccountDto(
      await accountSelect(trx).where('id', '=', task.userBankAccountId!).executeTakeFirstOrThrow(),
    );
    return { task, account };
  });
}

/** Approves (1) or rejects (0, with a reason) the ownership of the account the claimed task is about. */
export async function decideOwnership(
  db: DB,
  principal: Principal,
  taskId: number,
  decision: { approved: true } | { approved: false; reason: string },
): Promise<BankAccountDto> {
  return db.transaction().execute(async (trx) => {
    const reason = decision.approved ? undefined : decision.reason.trim();
    const task = await decideTask(trx, taskId, 'approveUbaOwnerTask', principal.userId, {
      state: decision.approved ? 'approved' : 'rejected',
      ...(reason === undefined ? {} : { reason }),
    });
    const before = await trx
      .selectFrom('userBankAccounts')
      .select(['ownershipApproved', 'decisionReason'])
      .where('id', '=', task.userBankAccountId!)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (before.ownershipApproved !== null) throw HttpError.of(409, 'task.alreadyDecided');
    const after = { ownershipApproved: decision.approved ? 1 : 0, decisionReason: reason ?? null };
    await trx
      .updateTable('userBankAccounts')
      .set({ ...after, decidedBy: principal.userId, decidedAt: new Date() })
      .where('id', '=', task.userBankAccountId!)
      .execute();
    const account = toAccountDto(
      await accountSelect(trx).where('id', '=', task.userBankAccountId!).executeTakeFirstOrThrow(),
    );
    await notify(trx, {
      userId: task.subjectUserId!,
      ...(reason === undefined
        ? { kind: 'bankAccountApproved' as const, params: { iban: formatIban(account.iban) } }
        : { kind: 'bankAccountRejected' as const, params: { iban: formatIban(account.iban), reason } }),
      eventKey: `bankAccountTask:${task.id}`,
    });
    await audit(trx, {
      actorUserId: principal.userId,
      action: decision.approved ? 'approveUserBankAccountOwnership' : 'rejectUserBankAccountOwnership',
      entity: 'userBankAccount',
      entityId: task.userBankAccountId,
      before,
      after,
    });
    return account;
  });
}
