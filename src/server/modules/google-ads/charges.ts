/**
 * Charging a customer's account: chargeableAccount (the port requests asks at every quote and submission) and
 * recordCharge (called by the recharge's use case, charge-done.ts, inside its transaction).
 */
import { HttpError } from '../../http/errors';
import type { GoogleAdsOperations } from './operations';
import type { Db } from './common';

/**
 * The account a customer's recharge names, if it may be charged: 404 when there is no such account, 403 when it is
 * another customer's, 422 when it is suspended. Called by the desk's pricing at every quote and submission.
 */
export async function chargeableAccount(
  db: Db,
  userId: number,
  accountId: number,
): Promise<{ id: number; currencyId: number; googleCustomerId: string }> {
  const account = await db
    .selectFrom('googleAdsAccounts')
    .select(['id', 'userId', 'currencyId', 'status', 'googleCustomerId'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  if (!account) throw HttpError.of(404, 'googleAds.account.notFound');
  if (account.userId !== userId) throw HttpError.of(403, 'googleAds.account.notYours');
  if (account.status !== 'active') throw HttpError.of(422, 'googleAds.account.suspended');
  return { id: account.id, currencyId: account.currencyId, googleCustomerId: account.googleCustomerId };
}

/**
 * Charges the account a paid recharge names through the account operations and records the charge, inside the
 * fulfilment's transaction (which holds the request's lock). Refuses a suspended account (422) or one that is no
 * longer the request's customer's (403).
 */
export async function recordCharge(
  trx: Db,
  operations: GoogleAdsOperations,
  input: {
    purchaseId: number;
    userId: number;
    accountId: number;
    amountMinor: number;
    chargeReference: string;
    staffUserId: number;
  },
): Promise<{ chargeId: number; accountId: number; chargeReference: string }> {
  const account = await trx
    .selectFrom('googleAdsAccounts as a')
    .innerJoin('currencies as c', 'c.id', 'a.currencyId')
    .select(['a.id', 'a.userId', 'a.status', 'a.googleCustomerId', 'a.currencyId', 'c.code'])
    .where('a.id', '=', input.accountId)
    .forUpdate('a')
    .executeTakeFirst();
  if (!account) throw HttpError.of(404, 'googleAds.account.notFound');
  if (account.userId !== input.userId) throw HttpError.of(403, 'googleAds.account.notYours');
  if (account.status !== 'active') throw HttpError.of(422, 'googleAds.account.suspended');
  const { chargeReference } = await operations.chargeAccount({
    account: { id: account.id, googleCustomerId: account.googleCustomerId },
    currencyCode: account.code.trim(),
    amountMinor: input.amountMinor,
    recorded: { chargeReference: input.chargeReference },
  });
  const charge = await trx
    .insertInto('googleAdsCharges')
    .values({
      purchaseId: input.purchaseId,
      googleAdsAccountId: account.id,
      currencyId: account.currencyId,
      amountMinor: input.amountMinor,
      chargeReference,
      staffUserId: input.staffUserId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { chargeId: charge.id, accountId: account.id, chargeReference };
}
