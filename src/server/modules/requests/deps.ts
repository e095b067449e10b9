/**
 * What requests' functions are composed with (app.ts builds it once with `requestDeps`): the database, the desk
 * catalogue, the quote signer, the cipher of the sealed fields, the ChargeableAccount port google-ads fills, the
 * prices held in memory and the compiled form validators. The use cases (quotes.ts, submission.ts) own their
 * transactions; the steps they call take `trx` first (decision 007).
 */
import type { components } from '../../../generated/api';
import type { DB } from '../../db/database';
import type { FieldCipher } from '../../lib/field-cipher';
import type { Catalogue } from '../desks';
import type { Storage } from '../storage';
import { type FormCache, formCache } from './forms';
import type { ChargeableAccount } from './ports';
import { PriceSources } from './price-sources';
import type { QuoteSigner } from './quote-token';

export type Quote = components['schemas']['Quote'];
export type Purchase = components['schemas']['Purchase'];

export interface RequestDeps {
  db: DB;
  catalogue: Catalogue;
  signer: QuoteSigner;
  cipher: FieldCipher;
  /** The port google-ads fills at composition: the customer's account a recharge charges (ports.ts). */
  chargeableAccount: ChargeableAccount;
  /** Rates, payment method groups and system parameters in memory; app.ts forgets them when they change. */
  sources: PriceSources;
  forms: FormCache;
  /** Uploaded files: a request's file fields are checked against what was stored (file-fields.ts). */
  storage: Storage;
}

export function requestDeps(
  db: DB,
  catalogue: Catalogue,
  signer: QuoteSigner,
  cipher: FieldCipher,
  chargeableAccount: ChargeableAccount,
  storage: Storage,
): RequestDeps {
  return {
    db,
    catalogue,
    signer,
    cipher,
    chargeableAccount,
    sources: new PriceSources(db),
    forms: formCache(),
    storage,
  };
}
