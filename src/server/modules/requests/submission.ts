/**
 * Request submission for a desk: validated fields, re-priced from the quote it spends, written once per
 * Idempotency-Key. It never silently changes a price the customer saw: an expired, mismatched or already spent quote
 * is a 409 with a fresh one.
 */
import type { Kysely } from 'kysely';
import type { DB as Database } from '../../../generated/db';
import { deadlineOf } from '../../../shared/deadline';
import { payablePrice } from '../../../shared/pricing';
import type { Principal } from '../../contract/handlers';
import { HttpError } from '../../http/errors';
import { replayOf, requireIdempotencyKey } from '../../http/idempotency';
import { type MessageKey, msg } from '../../http/messages';
import { userBalance } from '../ledger';
import type { DeskForm } from '../desks';
import type { Purchase, RequestDeps } from './deps';
import { dropDraftOnSubmit } from './drafts';
import { canonicalIdentifierFields } from '../../../shared/validation/foreign-reference';
import { checkAttachedFiles } from './file-fields';
import { canonicalJson, deskFormOrThrow, formVersionOf, validate } from './forms';
import { searchPurchases } from './purchase-search';
import { recordSubmitted } from './lifecycle';
import { breakdownOf } from './quote-token';
import { type CheckedQuote, quoteRefusal, spendQuote } from './quote-spending';
import { checkQuote, priceInquiry, resolvePriceInputs } from './quotes';
import { promiseColumns, promiseOf } from './promises';
import { HASH_CLEARED, sealSecrets } from './sealed-fields';

/** Thrown inside the submission's transaction to roll it back when another request spent the quote first. */
class QuoteSpent extends Error {}

/** Display-only fields a client may echo back; they are ignored, never trusted. */
const DISPLAY_FIELDS = ['grossPrice', 'totalCosts', 'expectedPrice', 'payablePrice'];

export async function submit(
  deps: RequestDeps,
  deskIdentifier: string,
  body: Record<string, unknown>,
  clientKey: string | undefined,
  principal: Principal,
): Promise<{ purchase: Purchase; replayed: boolean }> {
  const idempotencyKey = requireIdempotencyKey(clientKey);
  // Keyed: the body holds the target page's password, and a plain hash of a short password is guessed offline.
  const requestHash = deps.cipher.keyedHash(`${deskIdentifier}:${canonicalJson(body)}`);
  const previous = await deps.db
    .selectFrom('idempotencyKeys')
    .selectAll()
    .where('userId', '=', principal.userId)
    .where('key', '=', idempotencyKey)
    .executeTakeFirst();
  if (previous) return replay(deps, previous, requestHash, principal);

  const deskForm = deskFormOrThrow(deps, deskIdentifier);
  const { desk, schema } = deskForm;
  const user = await deps.db
    .selectFrom('users')
    .select(['approvedLevel'])
    .where('id', '=', principal.userId)
    .executeTakeFirstOrThrow();
  if (desk.businessType === 'simple' && user.approvedLevel < 1) throw HttpError.of(403, 'desk.profileRequired');
  const policy = await deps.db
    .selectFrom('userPolicyApprovals')
    .select('userId')
    .where('userId', '=', principal.userId)
    .where('productCategory', '=', desk.productCategory)
    .executeTakeFirst();
  if (!policy) throw HttpError.of(422, 'desk.policyRequired');

  const { quoteId, ...rest } = body;
  // Typed identifiers (a passport number, a Latin name) are kept in their canonical form: `k ۱۲۳۴۵۶۷۸` → K12345678.
  const fields: Record<string, unknown> = canonicalIdentifierFields(
    schema.properties as Record<string, unknown> | undefined,
    Object.fromEntries(Object.entries(rest).filter(([k]) => !DISPLAY_FIELDS.includes(k))),
  );
  Object.assign(fields, deskForm.staticValues);
  validate(deps, deskForm, 'fields', schema, fields);
  await checkAttachedFiles(deps, schema, fields, principal.userId);
  if (typeof quoteId !== 'string' || quoteId.length === 0) throw HttpError.of(400, 'quote.required');

  const { currency, amountMinor, paymentMethodGroupId } = await resolvePriceInputs(
    deps,
    deskForm,
    fields,
    principal.userId,
  );
  const quote = await checkQuote(deps, quoteId, principal.userId, deskIdentifier);
  const refusal = quoteRefusal(quote, { currencyId: currency.id, amountMinor, paymentMethodGroupId });
  if (!quote || refusal) throw await refuseQuote(deps, refusal ?? 'quote.mismatch', deskIdentifier, fields, principal);

  let purchaseId: number | null;
  try {
    purchaseId = await deps.db.transaction().execute(async (trx) => {
      const claimed = await trx
        .insertInto('idempotencyKeys')
        .values({ userId: principal.userId, key: idempotencyKey, requestHash, purchaseId: null })
        .onConflict((oc) => oc.columns(['userId', 'key']).doNothing())
        .returning('key')
        .executeTakeFirst();
      if (!claimed) return null; // a concurrent twin won the key; replay its result below
      // A quote makes one request: the first transaction to write its row (spent) wins; on PostgreSQL a
      // concurrent one waits on that key, then finds it taken and rolls back, key claim included.
      if (!(await spendQuote(trx, quote, principal.userId, deskIdentifier))) throw new QuoteSpent();
      return createPurchase(trx, deps, deskForm, fields, quote, principal, idempotencyKey);
    });
  } catch (error) {
    if (error instanceof QuoteSpent) throw await refuseQuote(deps, 'quote.spent', deskIdentifier, fields, principal);
    throw error;
  }
  if (purchaseId === null) {
    const winner = await deps.db
      .selectFrom('idempotencyKeys')
      .selectAll()
      .where('userId', '=', principal.userId)
      .where('key', '=', idempotencyKey)
      .executeTakeFirstOrThrow();
    return replay(deps, winner, requestHash, principal);
  }
  return { purchase: (await searchPurchases(deps, { ids: [purchaseId] })).items[0]!, replayed: false };
}

/** 409 with a fresh quote for the same inputs, so the customer can confirm the new price and try again. */
async function refuseQuote(
  deps: RequestDeps,
  key: MessageKey,
  deskIdentifier: string,
  fields: Record<string, unknown>,
  principal: Principal,
): Promise<HttpError> {
  const fresh = await priceInquiry(deps, deskIdentifier, fields, principal);
  return new HttpError(409, msg(key), { quote: fresh });
}

/** The step inside the submission's transaction: the form version, the request, its first state, the key's answer. */
async function createPurchase(
  trx: Kysely<Database>,
  deps: Pick<RequestDeps, 'catalogue' | 'cipher' | 'forms'>,
  deskForm: DeskForm,
  fields: Record<string, unknown>,
  quote: CheckedQuote,
  principal: Principal,
  idempotencyKey: string,
): Promise<number> {
  const { desk } = deskForm;
  const price = breakdownOf(quote);
  // The transaction's own handle: on PGlite the outer one would wait for it.
  const wallet = (await userBalance(trx, principal.userId)).balance;
  const version = formVersionOf(deps, deskForm);
  await trx
    .insertInto('formVersions')
    .values({
      hash: version.hash,
      desk: desk.identifier,
      formType: desk.formType,
      form: JSON.stringify(version.form),
    })
    .onConflict((oc) => oc.column('hash').doNothing())
    .execute();
  const createdId = await recordSubmitted(
    trx,
    {
      userId: principal.userId,
      desk: desk.identifier,
      productCategory: desk.productCategory,
      formType: desk.formType,
      fields: JSON.stringify(sealSecrets(deps.cipher, deps.catalogue.writeOnlyFields, principal.userId, fields)),
      formVersion: version.hash,
      quoteId: quote.id,
      currencyId: quote.currencyId,
      ...price,
      walletAmount: Math.min(wallet, price.expectedPrice),
      payablePrice: payablePrice(price.expectedPrice, wallet),
      deadlineAt: deadlineOf(deskForm.schema, fields),
      ...promiseColumns(promiseOf(deps.catalogue, deskForm, fields)),
    },
    principal.userId,
  );
  // The request is made: the customer's draft of this desk is done with (decision 044).
  await dropDraftOnSubmit(trx, principal.userId, desk.identifier);
  await trx
    .updateTable('idempotencyKeys')
    .set({ purchaseId: createdId })
    .where('userId', '=', principal.userId)
    .where('key', '=', idempotencyKey)
    .execute();
  return createdId;
}

async function replay(
  deps: RequestDeps,
  previous: { requestHash: string; purchaseId: number | null },
  requestHash: string,
  principal: Principal,
): Promise<{ purchase: Purchase; replayed: boolean }> {
  // A key whose plain hash migration 020 cleared is replayed on the key alone. The twin may still be writing
  // (no request yet): its transaction commits the key and the purchase together.
  const purchaseId = replayOf({
    sameRequest: previous.requestHash === requestHash || previous.requestHash === HASH_CLEARED,
    answer: previous.purchaseId,
  })!;
  const purchase = (await searchPurchases(deps, { ids: [purchaseId], userId: principal.userId })).items[0];
  if (!purchase) throw HttpError.of(404, 'http.notFound');
  return { purchase, replayed: true };
}
