/**
 * Settling a gateway payment (the payer's return, api/public/payments/callback): verified with the gateway server to
 * server, and recorded at most once whatever is replayed or forged: to the wallet (and the request), or back to a
 * card that was not the customer's (decision 024).
 */
import {
  type PaymentDeps,
  type PaymentOutcome,
  type TaskOpened,
  RECEIVED,
  announceMoney,
  announceTask,
} from './context';
import { receive } from './receiving';
import { toEnglishDigits } from '../../../shared/digits';
import { lockPurchase } from '../requests';
import type { VerifyResult } from './payment-gateway';
import { namedCard } from '../cards';
import { sameMaskedCard } from '../../../shared/cards/card-number';

/** Thrown inside the settlement's transaction when another settlement of the same payment won. */
class AlreadySettled extends Error {}

/**
 * The gateway sent the payer back. The query names the payment only: it is verified with the gateway, and money
 * moves at most once per payment whatever is replayed or forged. Returns the request to land on and the outcome.
 */
export async function settleCallback(
  deps: PaymentDeps,
  callbackToken: string,
  query: { Authority?: string | undefined; Status?: string | undefined },
): Promise<{ purchaseId: number | null; outcome: PaymentOutcome | null; viaLink: boolean }> {
  const proforma = await deps.db
    .selectFrom('onlineProformas')
    .selectAll()
    .where('callbackToken', '=', callbackToken)
    .executeTakeFirst();
  if (!proforma) return { purchaseId: null, outcome: null, viaLink: false };
  const viaLink = proforma.paymentLinkId !== null;
  const landing = (outcome: PaymentOutcome) => ({ purchaseId: proforma.purchaseId, outcome, viaLink });
  if ((RECEIVED as readonly string[]).includes(proforma.state)) return landing(outcomeOfReceived(proforma));
  if (proforma.state === 'new' || proforma.authority === null) return landing('failed');
  // Another payment's authority, or none: this callback proves nothing; the payment keeps its true state.
  if (query.Authority !== proforma.authority) return landing(outcomeOfOpen(proforma.state));

  let verified: VerifyResult;
  try {
    verified = await deps.gateway.verify({ authority: proforma.authority, amount: proforma.amount });
  } catch (error) {
    deps.log.warn({ err: error, proforma: proforma.id }, 'payment gateway did not answer a verification');
    return landing('pending');
  }
  if (!verified.paid || verified.amount !== proforma.amount) {
    if (verified.paid) {
      deps.log.error(
        { proforma: proforma.id, asked: proforma.amount, reported: verified.amount },
        'payment gateway reported another amount; nothing settled',
      );
    }
    const state = query.Status === 'OK' || verified.paid ? 'failed' : 'cancelled';
    await deps.db
      .updateTable('onlineProformas')
      .set({ state })
      .where('id', '=', proforma.id)
      .where('state', 'not in', RECEIVED)
      .execute();
    return landing(state);
  }
  return { ...(await settle(deps, proforma.id, verified)), viaLink };
}

/** Records the money a verified payment brought, once: to the wallet (and the request), or back to a foreign card. */
export async function settle(
  deps: PaymentDeps,
  proformaId: number,
  verified: Extract<VerifyResult, { paid: true }>,
): Promise<{ purchaseId: number | null; outcome: PaymentOutcome }> {
  let result: { purchaseId: number | null; outcome: PaymentOutcome; userId: number; task: TaskOpened | null };
  try {
    result = await deps.db.transaction().execute(async (trx) => {
      // Whoever updates the row first settles it; a parallel replay waits for that commit, then finds it settled.
      const proforma = await trx
        .updateTable('onlineProformas')
        .set({ state: 'settled' })
        .where('id', '=', proformaId)
        .where('state', 'not in', RECEIVED)
        .returningAll()
        .executeTakeFirst();
      if (!proforma) throw new AlreadySettled();
      const purchase = proforma.purchaseId === null ? undefined : await lockPurchase(trx, proforma.purchaseId);
      const user = await trx
        .selectFrom('users')
        .select(['nationalCode'])
        .where('id', '=', proforma.userId)
        .executeTakeFirstOrThrow();
      const holderMismatch =
        verified.holderNationalCode !== null &&
        toEnglishDigits(verified.holderNationalCode.trim()) !== (user.nationalCode ?? '');
      // The card the payment named (decision 024): verify's card must be it, or the money goes back to the card.
      const named = proforma.userCardId === null ? null : await namedCard(trx, deps.cipher, proforma.userCardId);
      const namedCardMismatch = named !== null && !paidWithNamedCard(named, verified);
      const cardMismatch = holderMismatch || namedCardMismatch;
      if (namedCardMismatch) {
        deps.log.warn(
          { proforma: proforma.id, named: named.maskedPan, reported: verified.cardNo },
          'payment made with a card other than the one named; refunded to that card',
        );
      }
      const { outcome, task } = await receive(trx, deps, {
        userId: proforma.userId,
        purchase,
        amount: proforma.amount,
        onlineProformaId: proforma.id,
        cardMismatch,
        collection: {
          source: 'online',
          gateway: proforma.gateway,
          referenceId: verified.referenceId,
          cardNo: verified.cardNo,
        },
      });
      await trx
        .updateTable('onlineProformas')
        .set({
          state: cardMismatch ? 'cardMismatch' : 'settled',
          settledAt: new Date(),
          verified: JSON.stringify({
            referenceId: verified.referenceId,
            cardNo: verified.cardNo,
            cardHash: verified.cardHash,
            holderNationalCode: verified.holderNationalCode,
            namedCard: named?.maskedPan ?? null,
            outcome,
          }),
        })
        .where('id', '=', proforma.id)
        .execute();
      return { purchaseId: proforma.purchaseId, outcome, userId: proforma.userId, task };
    });
  } catch (error) {
    if (!(error instanceof AlreadySettled)) throw error;
    const settled = await deps.db
      .selectFrom('onlineProformas')
      .selectAll()
      .where('id', '=', proformaId)
      .executeTakeFirstOrThrow();
    return { purchaseId: settled.purchaseId, outcome: outcomeOfReceived(settled) };
  }
  announceTask(deps, result.task);
  await announceMoney(deps, result.userId, result.purchaseId);
  return { purchaseId: result.purchaseId, outcome: result.outcome };
}

/**
 * Whether the gateway verified a payment from the card the payment named: its card_hash must be the card's (the
 * SHA-256 of the full number), and its masked card, when reported, must show the same first six and last four
 * digits. A gateway that reports no hash proves nothing, and an unproven card counts as another person's: the money
 * goes back to the card that paid, never to the request.
 */
export function paidWithNamedCard(
  named: { cardHash: string; maskedPan: string },
  verified: { cardHash: string | null; cardNo: string | null },
): boolean {
  if (verified.cardHash === null || verified.cardHash.toUpperCase() !== named.cardHash.toUpperCase()) return false;
  return verified.cardNo === null || sameMaskedCard(verified.cardNo, named.maskedPan);
}

function outcomeOfReceived(proforma: { state: string; verified: unknown }): PaymentOutcome {
  if (proforma.state === 'cardMismatch') return 'cardMismatch';
  const outcome = (proforma.verified as { outcome?: PaymentOutcome } | null)?.outcome;
  return outcome ?? 'success';
}

function outcomeOfOpen(state: string): PaymentOutcome {
  if (state === 'cancelled') return 'cancelled';
  if (state === 'failed') return 'failed';
  return 'pending';
}
