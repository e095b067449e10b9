/**
 * The use case that completes a paid Google Ads recharge (googleAdsAccountCrDone). It owns the transaction and
 * composes fulfilment's steps (lock, reservation, split, settlement, state, task) with google-ads' own charge
 * (recordCharge), then announces after commit. Fulfilment does not know google-ads: the dependency points up.
 */
import type { components } from '../../../generated/api';
import type { Principal } from '../../contract/handlers';
import {
  announcePurchasesChanged,
  costsOf,
  type FulfilmentDeps,
  fulfilmentSplit,
  lockForDecision,
  postSettlement,
  purchaseOf,
  reservationOf,
} from '../fulfilment';
import { runRequestEvent } from '../requests';
import type { GoogleAdsOperations } from './operations';
import { recordCharge } from './charges';

type Purchase = components['schemas']['Purchase'];

/**
 * A paid Google Ads recharge was charged to its account: the charge is made through the account operations and
 * recorded with its reference, and the whole reservation is spent — transaction_D the charge's cost (the
 * reservation less fee, tax and operation cost), transaction_F those costs recognised — so it ends at zero.
 */
export async function googleAdsChargeDone(
  deps: FulfilmentDeps & { googleAds: GoogleAdsOperations },

  principal: Principal,
  input: { purchase: number; chargeReference: string },
): Promise<{ purchase: Purchase; userId: number; googleAdsAccountId: number }> {
  const { userId, googleAdsAccountId } = await deps.db.transaction().execute(async (trx) => {
    const purchase = await lockForDecision(trx, principal, input.purchase, 'googleAdsCharge');
    const reserved = await reservationOf(trx, purchase);
    const costs = costsOf(purchase);
    const { expendedAmount } = fulfilmentSplit(reserved, costs, reserved);
    const accountId = Number((purchase.fields as Record<string, unknown>).googleAdsAccount);
    const charge = await recordCharge(trx, deps.googleAds, {
      purchaseId: purchase.id,
      userId: purchase.userId,
      accountId,
      amountMinor: purchase.amountMinor,
      chargeReference: input.chargeReference,
      staffUserId: principal.userId,
    });
    await runRequestEvent(trx, purchase, 'googleAdsChargeDone', {
      actorUserId: principal.userId,
      post: () => postSettlement(trx, purchase, reserved, { expendedAmount, refundedAmount: 0 }),
      catalogue: deps.catalogue,
      step: { kind: 'done', priceAmount: reserved, returnedAmount: 0, thirdParty: null, googleAds: true },
      audit: {
        before: { reserved },
        after: {
          googleAdsChargeId: charge.chargeId,
          googleAdsAccountId: charge.accountId,
          chargeReference: charge.chargeReference,
          expendedAmount,
          operations: deps.googleAds.kind,
        },
      },
    });
    return { userId: purchase.userId, googleAdsAccountId: charge.accountId };
  });
  await announcePurchasesChanged(deps.db, deps.live, userId, [input.purchase]);
  return { purchase: await purchaseOf(deps, input.purchase), userId, googleAdsAccountId };
}
