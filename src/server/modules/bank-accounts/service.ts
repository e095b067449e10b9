/**
 * Customers' bank accounts and withdrawals: the only writer of `user_bank_accounts` and `withdrawals`.
 *
 * A bank account is registered by IBAN (src/shared/iban.ts) and opens an ownership review task; only an approved
 * account receives withdrawals. A withdrawal moves its amount out of the wallet at once (transaction_I, wallet →
 * withdrawalsOut) in the transaction that records it, under the wallet's row lock, so parallel withdrawals and
 * payments never spend the same rial twice. Staff then record the bank transfer's reference (done: nothing more
 * moves) or refuse it (transaction_K puts the amount back in the wallet). docs/decisions/011-withdrawals.md.
 */
import { sql } from 'kysely';
import type { Principal } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { HttpError } from '../../http/errors';
import { msg } from '../../http/messages';
import { audit } from '../../lib/audit';
import { numericCode } from '../../lib/crypto';
import { type ListEnvelope, type PageQuery, pageOf } from '../../lib/paging';
import { whereContains } from '../../lib/sql';
import { formatIban, parseIban } from '../../../shared/iban';
import { displayName } from '../../lib/person-names';
import { lockedWalletBalance, postTransaction } from '../ledger/service';
import { claimTask, decideTask, openBankAccountTask } from '../tasks/service';

const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{8,100}$/;

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

export type WithdrawalState = 'requested' | 'done' | 'refused';

export interface WithdrawalDto {
  id: number;
  userId: number;
  customerName: string;
  bankAccount: number;
  iban: string;
  bankName: string;
  ownerName: string;
  amount: number;
  state: WithdrawalState;
  bankReference: string | null;
  decisionReason: string | null;
  traceCode: string;
  createdAt: string;
  decidedAt: string | null;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function accountSelect(db: DB) {
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

const toAccountDto = (r: AccountRow): BankAccountDto => ({
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

function withdrawalSelect(db: DB) {
  return db
    .selectFrom('withdrawals as w')
    .innerJoin('userBankAccounts as a', 'a.id', 'w.userBankAccountId')
    .innerJoin('users as u', 'u.id', 'w.userId');
}

type WithdrawalQuery = ReturnType<typeof withdrawalSelect>;

const withdrawalColumns = (q: WithdrawalQuery) =>
  q.select([
    'w.id',
    'w.userId',
    'u.firstName',
    'u.lastName',
    'u.mobileNo',
    'u.email',
    'w.userBankAccountId',
    'a.iban',
    'a.bankName',
    'a.ownerName',
    'w.amount',
    'w.state',
    'w.bankReference',
    'w.decisionReason',
    'w.traceCode',
    'w.createdAt',
    'w.decidedAt',
  ]);

type WithdrawalRow = Awaited<ReturnType<ReturnType<typeof withdrawalColumns>['executeTakeFirstOrThrow']>>;

const toWithdrawalDto = (r: WithdrawalRow): WithdrawalDto => ({
  id: r.id,
  userId: r.userId,
  customerName: displayName(r),
  bankAccount: r.userBankAccountId,
  iban: r.iban,
  bankName: r.bankName,
  ownerName: r.ownerName,
  amount: r.amount,
  state: r.state as WithdrawalState,
  bankReference: r.bankReference,
  decisionReason: r.decisionReason,
  traceCode: r.traceCode,
  createdAt: new Date(r.createdAt).toISOString(),
  decidedAt: iso(r.decidedAt),
});

async function withdrawalOf(db: DB, id: number): Promise<WithdrawalDto> {
  return toWithdrawalDto(
    await withdrawalColumns(withdrawalSelect(db)).where('w.id', '=', id).executeTakeFirstOrThrow(),
  );
}

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
    await audit(trx, {
      actorUserId: principal.userId,
      action: decision.approved ? 'approveUserBankAccountOwnership' : 'rejectUserBankAccountOwnership',
      entity: 'userBankAccount',
      entityId: task.userBankAccountId,
      before,
      after,
    });
    return toAccountDto(await accountSelect(trx).where('id', '=', task.userBankAccountId!).executeTakeFirstOrThrow());
  });
}

/**
 * Asks to withdraw `amount` rial from the wallet to the customer's approved account. The amount leaves the wallet
 * in this same transaction (transaction_I) under the wallet's lock. A replay of `idempotencyKey` answers with the
 * first withdrawal; the key reused for another account or amount is a 422.
 */
export async function requestWithdrawal(
  db: DB,
  userId: number,
  input: { bankAccount: number; amount: number },
  idempotencyKey: string | undefined,
): Promise<{ withdrawal: WithdrawalDto; replayed: boolean }> {
  if (!idempotencyKey || !IDEMPOTENCY_KEY.test(idempotencyKey)) throw HttpError.of(400, 'idempotency.required');
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0) throw HttpError.of(422, 'withdrawal.invalidAmount');
  const result = await db.transaction().execute(async (trx) => {
    // Twins with one key wait here for each other: the second finds the first's row below.
    const wallet = await lockedWalletBalance(trx, userId);
    const earlier = await trx
      .selectFrom('withdrawals')
      .select(['id', 'userBankAccountId', 'amount'])
      .where('userId', '=', userId)
      .where('idempotencyKey', '=', idempotencyKey)
      .executeTakeFirst();
    if (earlier) {
      if (earlier.userBankAccountId !== input.bankAccount || earlier.amount !== input.amount) {
        throw HttpError.of(422, 'idempotency.mismatch');
      }
      return { id: earlier.id, replayed: true };
    }
    const account = await trx
      .selectFrom('userBankAccounts')
      .select(['id', 'iban', 'ownershipApproved'])
      .where('id', '=', input.bankAccount)
      .where('userId', '=', userId)
      .executeTakeFirst();
    if (!account) throw HttpError.of(404, 'bankAccount.notFound');
    if (account.ownershipApproved !== 1) throw HttpError.of(422, 'withdrawal.accountNotApproved');
    if (input.amount > wallet) throw HttpError.of(422, 'withdrawal.insufficientWallet');
    const traceCode = numericCode(12);
    const row = await trx
      .insertInto('withdrawals')
      .values({ userId, userBankAccountId: account.id, amount: input.amount, idempotencyKey, traceCode })
      .returning('id')
      .executeTakeFirstOrThrow();
    await postTransaction(trx, {
      type: 'transaction_I',
      userId,
      amounts: { walletWithdrawAmount: input.amount },
      traceCode,
      idempotencyKey: `withdrawal:${row.id}`,
      details: {
        customerAccountNo: account.iban,
        generalTitle: msg('withdrawal.ledgerTitle', { iban: formatIban(account.iban) }),
      },
    });
    await audit(trx, {
      actorUserId: userId,
      action: 'requestWithdrawal',
      entity: 'withdrawal',
      entityId: row.id,
      after: { bankAccount: account.id, amount: input.amount, state: 'requested' },
    });
    return { id: row.id, replayed: false };
  });
  return { withdrawal: await withdrawalOf(db, result.id), replayed: result.replayed };
}

export interface WithdrawalSearch extends PageQuery {
  state?: WithdrawalState | undefined;
  search?: string | undefined;
}

/** Withdrawals newest first: the customer's own (`userId`), or everyone's for staff (`userId` null). */
export async function searchWithdrawals(
  db: DB,
  userId: number | null,
  query: WithdrawalSearch,
): Promise<ListEnvelope<WithdrawalDto>> {
  let q = withdrawalSelect(db);
  if (userId !== null) q = q.where('w.userId', '=', userId);
  if (query.state) q = q.where('w.state', '=', query.state);
  q = whereContains(
    q,
    [
      'a.iban',
      'a.ownerName',
      'u.mobileNo',
      sql<string>`coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')`,
      'w.traceCode',
      'w.bankReference',
    ],
    query.search?.trim(),
  );
  const page = await pageOf(q, query, (x) => withdrawalColumns(x).orderBy('w.id', 'desc'));
  return { items: page.items.map(toWithdrawalDto), total: page.total };
}

/**
 * Staff close a withdrawal once: done with the bank transfer's reference (the money left already), or refused
 * with a reason (the amount returns to the wallet through transaction_K). A second decision is a 409.
 */
export async function decideWithdrawal(
  db: DB,
  principal: Principal,
  withdrawalId: number,
  decision: { state: 'done'; reference: string } | { state: 'refused'; reason: string },
): Promise<{ withdrawal: WithdrawalDto; userId: number; uid: string }> {
  const userId = await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('withdrawals as w')
      .innerJoin('userBankAccounts as a', 'a.id', 'w.userBankAccountId')
      .select(['w.id', 'w.userId', 'w.amount', 'w.state', 'w.traceCode', 'a.iban'])
      .where('w.id', '=', withdrawalId)
      .forUpdate('w')
      .executeTakeFirst();
    if (!row) throw HttpError.of(404, 'withdrawal.notFound');
    if (row.state !== 'requested') throw HttpError.of(409, 'withdrawal.alreadyDecided');
    const after =
      decision.state === 'done'
        ? { state: 'done' as const, bankReference: decision.reference.trim() }
        : { state: 'refused' as const, decisionReason: decision.reason.trim() };
    await trx
      .updateTable('withdrawals')
      .set({ ...after, decidedBy: principal.userId, decidedAt: new Date() })
      .where('id', '=', row.id)
      .execute();
    if (decision.state === 'refused') {
      await postTransaction(trx, {
        type: 'transaction_K',
        userId: row.userId,
        amounts: { adjustmentAmount: row.amount },
        traceCode: row.traceCode,
        idempotencyKey: `withdrawal:${row.id}:refused`,
        details: {
          customerAccountNo: row.iban,
          generalTitle: msg('withdrawal.refundTitle', { reason: decision.reason.trim() }),
        },
      });
    }
    await audit(trx, {
      actorUserId: principal.userId,
      action: decision.state === 'done' ? 'withdrawalDone' : 'withdrawalRefused',
      entity: 'withdrawal',
      entityId: row.id,
      before: { state: row.state },
      after,
    });
    return row.userId;
  });
  const user = await db.selectFrom('users').select('uid').where('id', '=', userId).executeTakeFirstOrThrow();
  return { withdrawal: await withdrawalOf(db, withdrawalId), userId, uid: user.uid };
}
