/**
 * Wallet corrections by two people: the only writer of `wallet_corrections`. One staff member proposes a correction
 * of a customer's wallet (up or down, an amount, a reason, an optional evidence file); a second one, never the
 * proposer, approves it (posting `Tx.correctWalletUp` or `Tx.correctWalletDown` with the correction's trace code
 * and idempotency key, telling the customer why) or rejects it with a note. A correction down never takes the
 * wallet below zero: refused when proposed against the balance then, and by the ledger when approved.
 */
import { sql } from 'kysely';
import type { Principal } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { HttpError } from '../../http/errors';
import { msg } from '../../http/messages';
import { audit } from '../../lib/audit';
import { numericCode } from '../../lib/crypto';
import { type ListEnvelope, type PageQuery, pageOf } from '../../lib/paging';
import { displayName } from '../../lib/person-names';
import { whereContains } from '../../lib/sql';
import { ledgerKey, lockedWalletBalance, postTransaction, Tx } from '../ledger';
import { notify } from '../notifications';
import type { Storage } from '../storage';
import { iso } from './accounts';

/** The upload purpose (uploadFile's filePrefix) of a correction's evidence. */
export const WALLET_CORRECTION_EVIDENCE = 'walletCorrection';

export type CorrectionState = 'proposed' | 'approved' | 'rejected';
export type CorrectionDirection = 'up' | 'down';

export interface WalletCorrectionDto {
  id: number;
  userId: number;
  customerName: string;
  customerMobileNo: string | null;
  direction: CorrectionDirection;
  amount: number;
  reason: string;
  evidenceFile: string | null;
  state: CorrectionState;
  proposedBy: number;
  proposedByName: string;
  proposedAt: string;
  decidedBy: number | null;
  decidedByName: string | null;
  decidedAt: string | null;
  decisionNote: string | null;
  traceCode: string;
}

const select = (db: DB) =>
  db
    .selectFrom('walletCorrections as c')
    .innerJoin('users as u', 'u.id', 'c.userId')
    .innerJoin('users as p', 'p.id', 'c.proposedBy')
    .leftJoin('users as d', 'd.id', 'c.decidedBy');

type CorrectionQuery = ReturnType<typeof select>;

const columns = (q: CorrectionQuery) =>
  q.select([
    'c.id',
    'c.userId',
    'u.firstName',
    'u.lastName',
    'u.mobileNo',
    'u.email',
    'c.direction',
    'c.amount',
    'c.reason',
    'c.evidenceFile',
    'c.state',
    'c.proposedBy',
    'p.firstName as proposerFirstName',
    'p.lastName as proposerLastName',
    'p.mobileNo as proposerMobileNo',
    'p.email as proposerEmail',
    'c.proposedAt',
    'c.decidedBy',
    'd.firstName as deciderFirstName',
    'd.lastName as deciderLastName',
    'd.mobileNo as deciderMobileNo',
    'd.email as deciderEmail',
    'c.decidedAt',
    'c.decisionNote',
    'c.traceCode',
  ]);

type Row = Awaited<ReturnType<ReturnType<typeof columns>['executeTakeFirstOrThrow']>>;

const toDto = (r: Row): WalletCorrectionDto => ({
  id: r.id,
  userId: r.userId,
  customerName: displayName(r),
  customerMobileNo: r.mobileNo,
  direction: r.direction as CorrectionDirection,
  amount: r.amount,
  reason: r.reason,
  evidenceFile: r.evidenceFile,
  state: r.state as CorrectionState,
  proposedBy: r.proposedBy,
  proposedByName: displayName({
    firstName: r.proposerFirstName,
    lastName: r.proposerLastName,
    mobileNo: r.proposerMobileNo,
    email: r.proposerEmail,
  }),
  proposedAt: new Date(r.proposedAt).toISOString(),
  decidedBy: r.decidedBy,
  decidedByName:
    r.decidedBy === null
      ? null
      : displayName({
          firstName: r.deciderFirstName,
          lastName: r.deciderLastName,
          mobileNo: r.deciderMobileNo,
          email: r.deciderEmail,
        }),
  decidedAt: iso(r.decidedAt),
  decisionNote: r.decisionNote,
  traceCode: r.traceCode,
});

export async function correctionOf(db: DB, id: number): Promise<WalletCorrectionDto> {
  return toDto(await columns(select(db)).where('c.id', '=', id).executeTakeFirstOrThrow());
}

export interface CorrectionProposal {
  user: number;
  direction: CorrectionDirection;
  amount: number;
  reason: string;
  evidenceFile?: string | null | undefined;
}

/** Records a proposal (audited); nothing moves until a second staff member approves it. */
export async function proposeWalletCorrection(
  db: DB,
  storage: Storage,
  principal: Principal,
  input: CorrectionProposal,
): Promise<WalletCorrectionDto> {
  const reason = input.reason.trim();
  if (reason.length < 3) throw HttpError.of(422, 'walletCorrection.reason.required');
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0)
    throw HttpError.of(422, 'walletCorrection.invalidAmount');
  const id = await db.transaction().execute(async (trx) => {
    const customer = await trx
      .selectFrom('users')
      .select('id')
      .where('id', '=', input.user)
      .where('isStaff', '=', false)
      .executeTakeFirst();
    if (!customer) throw HttpError.of(404, 'walletCorrection.customerNotFound');
    if (input.direction === 'down' && input.amount > (await lockedWalletBalance(trx, customer.id))) {
      throw HttpError.of(422, 'walletCorrection.belowZero');
    }
    const evidence = input.evidenceFile?.trim() || null;
    if (evidence !== null) {
      const attached = await storage.attach(trx, evidence, principal.userId, WALLET_CORRECTION_EVIDENCE);
      if (!attached) throw HttpError.of(422, 'walletCorrection.evidenceNotFound');
    }
    const row = await trx
      .insertInto('walletCorrections')
      .values({
        userId: customer.id,
        direction: input.direction,
        amount: input.amount,
        reason,
        evidenceFile: evidence,
        proposedBy: principal.userId,
        traceCode: numericCode(12),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await audit(trx, {
      actorUserId: principal.userId,
      action: 'proposeWalletCorrection',
      entity: 'walletCorrection',
      entityId: row.id,
      after: { user: customer.id, direction: input.direction, amount: input.amount, reason, state: 'proposed' },
    });
    return row.id;
  });
  return correctionOf(db, id);
}

/**
 * A second staff member approves (the money moves once, under its own idempotency key) or rejects a proposal. The
 * proposer deciding their own is a 403; a decided one a 409.
 */
export async function decideWalletCorrection(
  db: DB,
  principal: Principal,
  correctionId: number,
  decision: { approve: boolean; note: string },
): Promise<{ correction: WalletCorrectionDto; uid: string }> {
  const note = decision.note.trim();
  if (note.length === 0) throw HttpError.of(422, 'walletCorrection.note.required');
  const userId = await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('walletCorrections')
      .selectAll()
      .where('id', '=', correctionId)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw HttpError.of(404, 'walletCorrection.notFound');
    if (row.proposedBy === principal.userId) throw HttpError.of(403, 'walletCorrection.ownProposal');
    if (row.state !== 'proposed') throw HttpError.of(409, 'walletCorrection.alreadyDecided');
    const state: CorrectionState = decision.approve ? 'approved' : 'rejected';
    if (decision.approve) {
      const up = row.direction === 'up';
      if (!up && row.amount > (await lockedWalletBalance(trx, row.userId))) {
        throw HttpError.of(422, 'walletCorrection.belowZero');
      }
      await postTransaction(trx, {
        type: up ? Tx.correctWalletUp : Tx.correctWalletDown,
        userId: row.userId,
        amounts: { adjustmentAmount: row.amount },
        traceCode: row.traceCode,
        idempotencyKey: ledgerKey.walletCorrection(row.id),
        details: {
          generalTitle: msg(up ? 'walletCorrection.ledgerTitleUp' : 'walletCorrection.ledgerTitleDown', {
            reason: row.reason,
          }),
        },
      });
      await notify(trx, {
        userId: row.userId,
        kind: 'walletCorrected',
        params: { amount: row.amount, direction: up ? 'افزایش' : 'کاهش', reason: row.reason },
        eventKey: `walletCorrection:${row.id}`,
      });
    }
    await trx
      .updateTable('walletCorrections')
      .set({ state, decidedBy: principal.userId, decidedAt: new Date(), decisionNote: note })
      .where('id', '=', row.id)
      .execute();
    await audit(trx, {
      actorUserId: principal.userId,
      action: decision.approve ? 'approveWalletCorrection' : 'rejectWalletCorrection',
      entity: 'walletCorrection',
      entityId: row.id,
      before: { state: row.state },
      after: { state, note },
    });
    return row.userId;
  });
  const user = await db.selectFrom('users').select('uid').where('id', '=', userId).executeTakeFirstOrThrow();
  return { correction: await correctionOf(db, correctionId), uid: user.uid };
}

export interface CorrectionSearch extends PageQuery {
  state?: CorrectionState | undefined;
  search?: string | undefined;
}

/** Corrections newest first, by state and search text (customer's name or mobile, reason, trace code). */
export async function searchWalletCorrections(
  db: DB,
  query: CorrectionSearch,
): Promise<ListEnvelope<WalletCorrectionDto>> {
  let q = select(db);
  if (query.state) q = q.where('c.state', '=', query.state);
  q = whereContains(
    q,
    [
      'u.mobileNo',
      sql<string>`coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')`,
      'c.reason',
      'c.traceCode',
    ],
    query.search?.trim(),
  );
  const page = await pageOf(q, query, (x) => columns(x).orderBy('c.id', 'desc'));
  return { items: page.items.map(toDto), total: page.total };
}
