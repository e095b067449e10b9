/**
 * A payer who opens a payment link before staff approved their identity cannot pay yet (decision 028). They are
 * remembered per link; when staff approve them, identity's `ProfileApproved` port (filled here at composition) tells
 * them once, per link still open, that the request is now theirs to pay: its title, whose it is and how much. That
 * message replaces the plain «پروفایل شما تأیید شد».
 */
import { sql } from 'kysely';
import type { DB, Trx } from '../../db/database';
import { firstNameAndInitial } from '../../../shared/masked-name';
import type { ProfileApproved } from '../identity';
import { notify } from '../notifications';

/** Profile level a payer needs: the level paying for oneself needs (a verified identity). */
export const PAYER_LEVEL = 1;

/** `viewer` opened the open link `linkId`; remembered only while their identity is not approved. */
export async function rememberWaitingPayer(db: DB, linkId: number, viewer: number): Promise<void> {
  const user = await db.selectFrom('users').select('approvedLevel').where('id', '=', viewer).executeTakeFirst();
  if (!user || user.approvedLevel >= PAYER_LEVEL) return;
  await db
    .insertInto('paymentLinkWaitingPayers')
    .values({ linkId, userId: viewer })
    .onConflict((oc) => oc.columns(['linkId', 'userId']).doNothing())
    .execute();
}

/** Identity's ProfileApproved port: tells the approved user about each link they were waiting on that is still open. */
export const tellWaitingPayers =
  (deskTitle: (desk: string) => string): ProfileApproved =>
  async (trx: Trx, userId: number) => {
    const open = await trx
      .selectFrom('paymentLinkWaitingPayers as w')
      .innerJoin('paymentLinks as l', 'l.id', 'w.linkId')
      .innerJoin('purchases as p', 'p.id', 'l.purchaseId')
      .innerJoin('users as u', 'u.id', 'p.userId')
      .select(['l.id as linkId', 'p.desk', 'p.expectedPrice', 'u.firstName', 'u.lastName'])
      .where('w.userId', '=', userId)
      .where('w.toldAt', 'is', null)
      .where('l.revokedAt', 'is', null)
      .where('l.expiresAt', '>', sql<Date>`now()`)
      .where('p.state', '=', 'waitingForPayment')
      .orderBy('l.id')
      .execute();
    for (const link of open) {
      await notify(trx, {
        userId,
        kind: 'payLinkPayable',
        params: {
          title: deskTitle(link.desk),
          requesterName: firstNameAndInitial(link.firstName, link.lastName),
          amount: link.expectedPrice,
        },
        eventKey: `paymentLink:${link.linkId}`,
      });
    }
    if (open.length > 0) {
      await trx
        .updateTable('paymentLinkWaitingPayers')
        .set({ toldAt: sql<Date>`now()` as unknown as Date })
        .where('userId', '=', userId)
        .where(
          'linkId',
          'in',
          open.map((l) => l.linkId),
        )
        .execute();
    }
    return { told: open.length };
  };
