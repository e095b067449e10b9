/**
 * Withdrawals: the only writer of `withdrawals`. A withdrawal moves its amount out of the wallet at once
 * (`Tx.withdrawToBank`, wallet → withdrawalsOut) in the transaction that records it, under the wallet's row lock,
 * so parallel withdrawals and payments never spend the same rial twice. Staff then record the bank transfer's
 * reference (done: nothing more moves) or refuse it (`Tx.returnRefusedWithdrawal`, stored as transaction_K, puts
 * the amount back in the wallet). docs/decisions/011-withdrawals.md.
 */
import { iso } from './accounts';
import { sql } from 'kysely';
import type { Principal } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { HttpError } from '../../http/errors';
import { msg } from '../../http/messages';
import { audit } from '../../lib/audit';
import { numericCode } from '../../lib/crypto';
import { type ListEnvelope, type PageQuery, pageOf } from '../../lib/paging';
import { whereContains } from '../../lib/sql';
import { formatIban } from '../../../shared/iban';
import { displayName } from '../../lib/person-names';
import { ledgerKey, lockedWalletBalance, postTransaction, Tx } from '../ledger';
import { notify } from '../notifications';
import { replayOf, requireIdempotencyKey } from '../../http/idempotency';

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

/**
 * Asks to withdraw `amount` rial from the wallet to the customer's approved account. The amount leaves the wallet
 * in this same transaction (Tx.withdrawToBank) under the wallet's lock. A replay of `idempotencyKey` answers with the
 * first withdrawal; the key reused for another account or amount is a 422.
 */
export async function requestWithdrawal(
  db: DB,
  userId: number,
  input: { bankAccount: number; amount: number },
  clientKey: string | undefined,
): Promise<{ withdrawal: WithdrawalDto; replayed: boolean }> {
  const idempotencyKey = requireIdempotencyKey(clientKey);
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
    // The withdrawal row is the key's claim and its answer at once: never in flight once seen.
    const replayed = replayOf(
      earlier && {
        sameRequest: earlier.userBankAccountId === input.bankAccount && earlier.amount === input.amount,
        answer: earlier.id,
      },
    );
    if (replayed !== null) return { id: replayed, replayed: true };
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
      type: Tx.withdrawToBank,
      userId,
      amounts: { walletWithdrawAmount: input.amount },
      traceCode,
      idempotencyKey: ledgerKey.withdrawal(row.id),
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
 * with a reason (the amount returns to the wallet through Tx.returnRefusedWithdrawal). A second decision is a 409.
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
        type: Tx.returnRefusedWithdrawal,
        userId: row.userId,
        amounts: { adjustmentAmount: row.amount },
        traceCode: row.traceCode,
        idempotencyKey: ledgerKey.refusedWithdrawal(row.id),
        details: {
          customerAccountNo: row.iban,
          generalTitle: msg('withdrawal.refundTitle', { reason: decision.reason.trim() }),
        },
      });
    }
    await notify(trx, {
      userId: row.userId,
      ...(decision.state === 'done'
        ? { kind: 'withdrawalDone' as const, params: { amount: row.amount } }
        : { kind: 'withdrawalRefused' as const, params: { amount: row.amount, reason: decision.reason.trim() } }),
      eventKey: `withdrawal:${row.id}`,
    });
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
