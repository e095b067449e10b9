/**
 * What settling a payment asks of a request's payment link (decision 028), inside the caller's transaction, which
 * holds the request's row: whether the link still lets its payer pay, and marking it used once they have.
 */
import { sql } from 'kysely';
import type { Trx } from '../../db/database';

/** Inside the settlement's transaction: the payer claimed the request's link and it was not revoked since. */
export async function linkPayerMayPay(trx: Trx, purchaseId: number, payerUserId: number): Promise<boolean> {
  const link = await trx
    .selectFrom('paymentLinks')
    .select('id')
    .where('purchaseId', '=', purchaseId)
    .where('payerUserId', '=', payerUserId)
    .where('revokedAt', 'is', null)
    .executeTakeFirst();
  return link !== undefined;
}

/** The request was paid through its link by `payerUserId`: the link is used up. */
export async function markLinkPaid(trx: Trx, purchaseId: number, payerUserId: number): Promise<void> {
  await trx
    .updateTable('paymentLinks')
    .set({ paidAt: sql<Date>`now()` as unknown as Date })
    .where('purchaseId', '=', purchaseId)
    .where('payerUserId', '=', payerUserId)
    .where('revokedAt', 'is', null)
    .execute();
}
