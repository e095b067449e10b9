/**
 * Price inquiry and request submission for a desk. The server prices every request itself from the
 * rate it holds; a quote fixes that price for its lifetime; submission re-prices from the quote and
 * never silently changes a price the customer saw (an expired or mismatched quote is a 409 with a fresh one).
 */
import { createHash } from 'node:crypto';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { Kysely } from 'kysely';
import type { components } from '../../../generated/api';
import { toPersianDigits } from '../../../shared/digits';
import {
  formErrorMessage,
  forValidation,
  pointerSegments,
  propertyOf,
  type SchemaNode,
} from '../../../shared/form-schema';
import { viewOfFields } from '../../../shared/form-view';
import {
  currencyDecimals,
  hasAtMostDecimals,
  type PriceBreakdown,
  payablePrice,
  priceOf,
  toMinorUnits,
} from '../../../shared/pricing';
import { createAjv } from '../../../shared/validation/ajv';
import type { Principal } from '../../contract/handlers';
import type { DB } from '../../db/database';
import type { DB as Database } from '../../../generated/db';
import { HttpError } from '../../http/errors';
import { replayOf, requireIdempotencyKey } from '../../http/idempotency';
import { type MessageKey, msg } from '../../http/messages';
import messageCatalogue from '../../../../schemas/messages/fa.json' with { type: 'json' };
import { shownUserBalance, userBalance } from '../ledger/service';
import { type ListEnvelope, type PageQuery, pageOf } from '../../lib/paging';
import { whereContains } from '../../lib/sql';
import type { Catalogue, DeskForm } from '../desks/catalogue';
import type { FieldCipher } from '../../lib/field-cipher';
import { HASH_CLEARED, sealSecrets } from './secrets';
import { nameOrMobile } from '../../lib/person-names';
import type { ChargeableAccount } from './ports';
import { PriceSources } from './price-sources';
import { breakdownOf, type QuoteSigner, type QuoteTerms } from './quote-token';
import { recordStateChange } from './purchase-state';
import { type CheckedQuote, NO_PAYMENT_METHOD_GROUP, quoteRefusal, spendQuote } from './quote-spending';

export {
  changePurchaseState,
  type LockedPurchase,
  lockPurchase,
  type PurchaseStateChange,
  purchaseTraceCode,
  recordStateChange,
} from './purchase-state';
export { repriceFromQuote } from './quote-spending';

export type Quote = components['schemas']['Quote'];
export type Purchase = components['schemas']['Purchase'];

/** The form a request keeps (table form_versions): what validated its fields and titles them later. */
interface StoredForm {
  schema: SchemaNode;
  uiSchema: SchemaNode;
  priceInputs: string[];
  staffOnlyFields: string[];
}

const messageTexts = messageCatalogue.messages;

/** Thrown inside the submission's transaction to roll it back when another request spent the quote first. */
class QuoteSpent extends Error {}

/** Display-only fields a client may echo back; they are ignored, never trusted. */
const DISPLAY_FIELDS = ['grossPrice', 'totalCosts', 'expectedPrice', 'payablePrice'];

export class RequestService {
  // The same formats the web's rjsf validator knows (ajv-formats) plus the shared keywords.
  private readonly ajv = createAjv();
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly formVersions = new WeakMap<DeskForm, { hash: string; form: StoredForm }>();
  /** Rates, payment method groups and system parameters in memory; app.ts forgets them when they change. */
  readonly sources: PriceSources;

  constructor(
    private readonly db: DB,
    private readonly catalogue: Catalogue,
    private readonly signer: QuoteSigner,
    private readonly cipher: FieldCipher,
    /** The port google-ads fills at composition: the customer's account a recharge charges (ports.ts). */
    private readonly chargeableAccount: ChargeableAccount,
  ) {
    this.sources = new PriceSources(db);
  }

  private deskFormOrThrow(identifier: string): DeskForm {
    const deskForm = this.catalogue.deskForm(identifier);
    if (!deskForm) throw HttpError.of(404, 'desk.notFound');
    if (deskForm.desk.underConstruction) throw HttpError.of(422, 'desk.underConstruction');
    return deskForm;
  }

  /** Refuses `data` with the first error's Persian message (the field's `x-messages`, else one naming it). */
  private validate(key: string, schema: SchemaNode, data: unknown): void {
    let fn = this.validators.get(key);
    if (!fn) {
      fn = this.ajv.compile(forValidation(schema));
      this.validators.set(key, fn);
    }
    if (fn(data)) return;
    const error = fn.errors?.[0];
    if (!error) throw HttpError.of(400, 'http.badRequest');
    const message = formErrorMessage(
      schema,
      { keyword: error.keyword, path: pointerSegments(error.instancePath), params: error.params },
      (k, params) => (k in messageTexts ? msg(k as MessageKey, params) : undefined),
    );
    throw new HttpError(400, message);
  }

  /** The desk's effective form as a request keeps it, and the hash that names this version. */
  private formVersionOf(deskForm: DeskForm): { hash: string; form: StoredForm } {
    let version = this.formVersions.get(deskForm);
    if (!version) {
      const form: StoredForm = {
        schema: deskForm.schema,
        uiSchema: deskForm.uiSchema,
        priceInputs: deskForm.form.priceInputs,
        staffOnlyFields: deskForm.form.staffOnlyFields ?? [],
      };
      version = { hash: createHash('sha256').update(canonicalJson(form)).digest('hex'), form };
      this.formVersions.set(deskForm, version);
    }
    return version;
  }

  /** Only the price inputs, each required: a quote needs nothing else. */
  private validatePriceInputs(deskForm: DeskForm, input: Record<string, unknown>): void {
    const { schema, form, desk } = deskForm;
    const properties = Object.fromEntries(form.priceInputs.map((f) => [f, propertyOf(schema, f)]));
    this.validate(`${desk.identifier}:price`, { type: 'object', required: form.priceInputs, properties }, input);
  }

  private async pricingParameters() {
    const settings = await this.sources.parameters();
    return {
      pricing: {
        feePercent: settings.feePercent,
        fixedFee: settings.fixedFee,
        taxPercentOnFee: settings.taxPercentOnFee,
        operationCost: settings.operationCost,
      },
      minAmount: settings.minAmount,
      maxAmount: settings.maxAmount,
      quoteLifetimeSeconds: settings.quoteLifetimeSeconds,
    };
  }

  /** Pass the transaction when inside one: on PGlite the outer handle would wait for it. */
  async walletBalance(userId: number, db: Kysely<Database> = this.db): Promise<number> {
    return (await userBalance(db, userId)).balance;
  }

  /** Checks currency, payment method and limits for the desk, and returns what the price depends on. */
  private async resolvePriceInputs(deskForm: DeskForm, input: Record<string, unknown>, userId: number) {
    const { form } = deskForm;
    const { currency, paymentMethodGroupId } =
      form.pricing === 'googleAdsRecharge'
        ? await this.googleAdsPriceInputs(input, userId)
        : await this.foreignAmountPriceInputs(deskForm, input);
    const amount = Number(input[form.amountField]);
    const decimals = currencyDecimals(currency.code);
    if (!hasAtMostDecimals(amount, decimals)) {
      if (decimals === 0) throw HttpError.of(422, 'desk.amountWhole', { currency: currency.title });
      throw HttpError.of(422, 'desk.amountDecimals', { currency: currency.title, decimals: toPersianDigits(decimals) });
    }
    const amountMinor = toMinorUnits(amount);
    const params = await this.pricingParameters();
    if (amountMinor < params.minAmount) throw HttpError.of(422, 'desk.amountTooSmall');
    if (amountMinor > params.maxAmount) throw HttpError.of(422, 'desk.amountTooLarge');
    return { currency, amountMinor, paymentMethodGroupId, params };
  }

  /** A foreign payment: a currency used for it and a payment method group of the desk's kind (cash or not). */
  private async foreignAmountPriceInputs(deskForm: DeskForm, input: Record<string, unknown>) {
    const currency = await this.sources.currency(Number(input.currency));
    if (!currency?.useForUafCpr) throw HttpError.of(422, 'desk.currencyNotAllowed');
    const codes = deskForm.desk.currencies;
    if (codes && !codes.includes(currency.code.trim())) throw HttpError.of(422, 'desk.currencyNotAllowed');
    const group = await this.sources.group(Number(input.requestedPaymentMethodGroup));
    if (!group || group.isCash !== deskForm.desk.isCashService) throw HttpError.of(422, 'desk.paymentMethodNotAllowed');
    return { currency, paymentMethodGroupId: group.id };
  }

  /**
   * A Google Ads recharge: the customer's own active account (another customer's is 403, a suspended one 422), in
   * the account's base currency (a different `currency` sent is 422); no payment method group (0 in the quote's
   * terms, null in its row).
   */
  private async googleAdsPriceInputs(input: Record<string, unknown>, userId: number) {
    const account = await this.chargeableAccount(this.db, userId, Number(input.googleAdsAccount));
    if (input.currency !== undefined && Number(input.currency) !== account.currencyId) {
      throw HttpError.of(422, 'googleAds.account.currencyMismatch');
    }
    const currency = await this.sources.currency(account.currencyId);
    if (!currency?.useForGoogleAdsAccountCr) throw HttpError.of(422, 'desk.currencyNotAllowed');
    return { currency, paymentMethodGroupId: NO_PAYMENT_METHOD_GROUP };
  }

  private toQuote(
    row: { id: string; expiresAt: Date | string | number; currencyId: number } & PriceBreakdown,
    currency: { code: string; title: string },
    wallet: number,
  ): Quote {
    const expiresAt = new Date(row.expiresAt);
    return {
      quoteId: row.id,
      expiresAt: expiresAt.toISOString(),
      expiresInSeconds: Math.max(0, Math.round((expiresAt.getTime() - Date.now()) / 1000)),
      currency: { id: row.currencyId, code: currency.code.trim(), title: currency.title },
      amount: row.amountMinor / 100,
      rate: row.rate,
      grossPrice: row.grossPrice,
      totalCosts: row.totalCosts,
      costs: { fee: row.fee, tax: row.tax, operationCost: row.operationCost },
      expectedPrice: row.expectedPrice,
      walletBalance: wallet,
      payablePrice: payablePrice(row.expectedPrice, wallet),
    };
  }

  async priceInquiry(deskIdentifier: string, input: Record<string, unknown>, principal: Principal): Promise<Quote> {
    const deskForm = this.deskFormOrThrow(deskIdentifier);
    this.validatePriceInputs(deskForm, input);
    const { currency, amountMinor, paymentMethodGroupId, params } = await this.resolvePriceInputs(
      deskForm,
      input,
      principal.userId,
    );
    const price = priceOf(amountMinor, currency.rate, params.pricing);
    // Nothing is written: the quote is its signed terms (decision 016); a request that spends it writes its row.
    const terms: QuoteTerms = {
      currencyId: currency.id,
      paymentMethodGroupId,
      amountMinor: price.amountMinor,
      rate: price.rate,
      fee: price.fee,
      tax: price.tax,
      operationCost: price.operationCost,
      expiresAt: Date.now() + params.quoteLifetimeSeconds * 1000,
    };
    const id = this.signer.sign(terms, principal.userId, deskIdentifier);
    const wallet = (await shownUserBalance(this.db, principal.userId)).balance;
    return this.toQuote({ id, ...terms, ...price }, currency, wallet);
  }

  /**
   * The quote `quoteId` as the customer's submission to `desk` may use it: its signed terms, whether it is still
   * live, and whether a request already spent it (its row exists). Undefined for a token this server did not sign
   * for this customer and desk (changed, forged, someone else's).
   */
  private async checkQuote(quoteId: string, userId: number, desk: string): Promise<CheckedQuote | undefined> {
    const terms = this.signer.verify(quoteId, userId, desk);
    if (!terms) return undefined;
    const spent = await this.db.selectFrom('quotes').select('spentAt').where('id', '=', quoteId).executeTakeFirst();
    return {
      id: quoteId,
      ...terms,
      live: terms.expiresAt > Date.now(),
      spentAt: spent ? (spent.spentAt ?? 'before') : null,
    };
  }

  async submit(
    deskIdentifier: string,
    body: Record<string, unknown>,
    clientKey: string | undefined,
    principal: Principal,
  ): Promise<{ purchase: Purchase; replayed: boolean }> {
    const idempotencyKey = requireIdempotencyKey(clientKey);
    // Keyed: the body holds the target page's password, and a plain hash of a short password is guessed offline.
    const requestHash = this.cipher.keyedHash(`${deskIdentifier}:${canonicalJson(body)}`);
    const previous = await this.db
      .selectFrom('idempotencyKeys')
      .selectAll()
      .where('userId', '=', principal.userId)
      .where('key', '=', idempotencyKey)
      .executeTakeFirst();
    if (previous) return this.replay(previous, requestHash, principal);

    const deskForm = this.deskFormOrThrow(deskIdentifier);
    const { desk, schema } = deskForm;
    const user = await this.db
      .selectFrom('users')
      .select(['approvedLevel'])
      .where('id', '=', principal.userId)
      .executeTakeFirstOrThrow();
    if (desk.businessType === 'simple' && user.approvedLevel < 1) throw HttpError.of(403, 'desk.profileRequired');
    const policy = await this.db
      .selectFrom('userPolicyApprovals')
      .select('userId')
      .where('userId', '=', principal.userId)
      .where('productCategory', '=', desk.productCategory)
      .executeTakeFirst();
    if (!policy) throw HttpError.of(422, 'desk.policyRequired');

    const { quoteId, ...rest } = body;
    const fields: Record<string, unknown> = Object.fromEntries(
      Object.entries(rest).filter(([k]) => !DISPLAY_FIELDS.includes(k)),
    );
    Object.assign(fields, deskForm.staticValues);
    this.validate(desk.identifier, schema, fields);
    if (typeof quoteId !== 'string' || quoteId.length === 0) throw HttpError.of(400, 'quote.required');

    const { currency, amountMinor, paymentMethodGroupId } = await this.resolvePriceInputs(
      deskForm,
      fields,
      principal.userId,
    );
    const quote = await this.checkQuote(quoteId, principal.userId, deskIdentifier);
    const refusal = quoteRefusal(quote, { currencyId: currency.id, amountMinor, paymentMethodGroupId });
    if (!quote || refusal) throw await this.refuseQuote(refusal ?? 'quote.mismatch', deskIdentifier, fields, principal);

    let purchaseId: number | null;
    try {
      purchaseId = await this.db.transaction().execute(async (trx) => {
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
        return this.createPurchase(trx, deskForm, fields, quote, principal, idempotencyKey);
      });
    } catch (error) {
      if (error instanceof QuoteSpent) throw await this.refuseQuote('quote.spent', deskIdentifier, fields, principal);
      throw error;
    }
    if (purchaseId === null) {
      const winner = await this.db
        .selectFrom('idempotencyKeys')
        .selectAll()
        .where('userId', '=', principal.userId)
        .where('key', '=', idempotencyKey)
        .executeTakeFirstOrThrow();
      return this.replay(winner, requestHash, principal);
    }
    return { purchase: (await this.searchPurchases({ ids: [purchaseId] })).items[0]!, replayed: false };
  }

  /** 409 with a fresh quote for the same inputs, so the customer can confirm the new price and try again. */
  private async refuseQuote(
    key: MessageKey,
    deskIdentifier: string,
    fields: Record<string, unknown>,
    principal: Principal,
  ): Promise<HttpError> {
    const fresh = await this.priceInquiry(deskIdentifier, fields, principal);
    return new HttpError(409, msg(key), { quote: fresh });
  }

  private async createPurchase(
    trx: Kysely<Database>,
    deskForm: DeskForm,
    fields: Record<string, unknown>,
    quote: CheckedQuote,
    principal: Principal,
    idempotencyKey: string,
  ): Promise<number> {
    const { desk } = deskForm;
    const price = breakdownOf(quote);
    const wallet = await this.walletBalance(principal.userId, trx);
    const version = this.formVersionOf(deskForm);
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
    const created = await trx
      .insertInto('purchases')
      .values({
        userId: principal.userId,
        desk: desk.identifier,
        productCategory: desk.productCategory,
        formType: desk.formType,
        state: 'waitingForPayment',
        fields: JSON.stringify(sealSecrets(this.cipher, this.catalogue.writeOnlyFields, principal.userId, fields)),
        formVersion: version.hash,
        quoteId: quote.id,
        currencyId: quote.currencyId,
        ...price,
        walletAmount: Math.min(wallet, price.expectedPrice),
        payablePrice: payablePrice(price.expectedPrice, wallet),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordStateChange(trx, created.id, 'waitingForPayment', 'submitted', principal.userId);
    await trx
      .updateTable('idempotencyKeys')
      .set({ purchaseId: created.id })
      .where('userId', '=', principal.userId)
      .where('key', '=', idempotencyKey)
      .execute();
    return created.id;
  }

  private async replay(
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
    const purchase = (await this.searchPurchases({ ids: [purchaseId], userId: principal.userId })).items[0];
    if (!purchase) throw HttpError.of(404, 'http.notFound');
    return { purchase, replayed: true };
  }

  /** A request's fields as lists show them: without write-only secrets (the third-party password). */
  private listedFields<T>(fields: Record<string, T>): Record<string, T> {
    return Object.fromEntries(Object.entries(fields).filter(([name]) => !this.catalogue.writeOnlyFields.has(name)));
  }

  /**
   * A request's fields as its pages show them, titled by the form version it was validated against (a request made
   * before versions were kept takes the desk's current form); the price inputs and staff-only fields are left out.
   */
  private fieldsView(deskIdentifier: string, stored: StoredForm | null, fields: Record<string, unknown>) {
    const current = this.catalogue.deskForm(deskIdentifier);
    const form = stored ?? (current ? this.formVersionOf(current).form : null);
    const omit = new Set([
      ...this.catalogue.writeOnlyFields,
      ...(form?.priceInputs ?? ['currency', 'amount', 'requestedPaymentMethodGroup']),
      ...(form?.staffOnlyFields ?? []),
    ]);
    return viewOfFields(form?.schema, form?.uiSchema, fields, '', omit);
  }

  async searchPurchases(
    filter: {
      userId?: number;
      ids?: number[];
      state?: string | undefined;
      desk?: string | undefined;
      search?: string | undefined;
    } & PageQuery,
  ): Promise<ListEnvelope<Purchase>> {
    let q = this.db
      .selectFrom('purchases')
      .innerJoin('purchaseStates', 'purchaseStates.identifier', 'purchases.state')
      .innerJoin('currencies', 'currencies.id', 'purchases.currencyId')
      .innerJoin('users', 'users.id', 'purchases.userId')
      .innerJoin('quotes', 'quotes.id', 'purchases.quoteId')
      .leftJoin('formVersions', 'formVersions.hash', 'purchases.formVersion');
    if (filter.userId !== undefined) q = q.where('purchases.userId', '=', filter.userId);
    if (filter.ids) q = q.where('purchases.id', 'in', filter.ids);
    // One state, or several separated by commas (the staff home's «paid,inProgress»: paid and not yet fulfilled).
    if (filter.state) q = q.where('purchases.state', 'in', filter.state.split(','));
    if (filter.desk) q = q.where('purchases.desk', '=', filter.desk);
    if (filter.search) {
      const term = filter.search.trim();
      q = /^\d+$/.test(term) ? q.where('purchases.id', '=', Number(term)) : whereContains(q, ['purchases.desk'], term);
    }
    const { items: rows, total } = await pageOf(q, filter, (x) =>
      x
        .select([
          'purchases.id',
          'purchases.desk',
          'purchases.productCategory',
          'purchases.state',
          'purchaseStates.title as stateTitle',
          'purchaseStates.color as stateColor',
          'purchaseStates.stateIsFinal',
          'purchaseStates.stateIsFailure',
          'currencies.code as currencyCode',
          'currencies.title as currencyTitle',
          'purchases.amountMinor',
          'purchases.rate',
          'purchases.grossPrice',
          'purchases.totalCosts',
          'purchases.expectedPrice',
          'purchases.walletAmount',
          'purchases.payablePrice',
          'quotes.expiresAt as quoteExpiresAt',
          'purchases.fields',
          'formVersions.form as form',
          'purchases.createdAt',
          'purchases.userId',
          'users.firstName',
          'users.lastName',
          'users.mobileNo',
        ])
        .orderBy('purchases.createdAt', 'desc')
        .orderBy('purchases.id', 'desc'),
    );
    // A request waiting for payment shows what the wallet would pay now; a paid one what was paid.
    const wallets = await walletsOf(
      this.db,
      rows.filter((r) => r.state === 'waitingForPayment').map((r) => r.userId),
    );
    return {
      total,
      items: rows.map((r) => ({
        id: r.id,
        desk: r.desk,
        deskTitle: this.catalogue.deskForm(r.desk)?.desk.title ?? r.desk,
        productCategory: r.productCategory,
        state: r.state,
        stateTitle: r.stateTitle,
        stateColor: r.stateColor,
        stateIsFinal: r.stateIsFinal,
        stateIsFailure: r.stateIsFailure,
        currencyCode: r.currencyCode.trim(),
        currencyTitle: r.currencyTitle,
        amount: r.amountMinor / 100,
        rate: r.rate,
        grossPrice: r.grossPrice,
        totalCosts: r.totalCosts,
        expectedPrice: r.expectedPrice,
        ...(r.state === 'waitingForPayment'
          ? {
              walletAmount: Math.min(wallets.get(r.userId) ?? 0, r.expectedPrice),
              payablePrice: payablePrice(r.expectedPrice, wallets.get(r.userId) ?? 0),
            }
          : { walletAmount: r.walletAmount, payablePrice: r.payablePrice }),
        quoteExpiresAt: new Date(r.quoteExpiresAt).toISOString(),
        fields: this.listedFields(r.fields as Purchase['fields']),
        fieldsView: this.fieldsView(r.desk, r.form as StoredForm | null, r.fields as Record<string, unknown>),
        customerName: nameOrMobile(r),
        createdAt: new Date(r.createdAt).toISOString(),
      })),
    };
  }
}

/** Wallet balances of `userIds` (missing accounts are empty wallets). */
async function walletsOf(db: Kysely<Database>, userIds: number[]): Promise<Map<number, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('ledgerAccounts')
    .select(['userId', 'balance'])
    .where('kind', '=', 'wallet')
    .where('userId', 'in', [...new Set(userIds)])
    .execute();
  return new Map(rows.map((r) => [r.userId!, r.balance]));
}

/** JSON with sorted keys, so the same body always hashes the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
