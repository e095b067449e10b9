/**
 * What fulfilment's use cases are composed with (app.ts builds it once): the database they open their
 * transaction on, the desk catalogue, the requests' read model, storage for receipts, the live events they
 * announce after commit, the cipher of the requests' sealed fields and the log.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { components } from '../../../generated/api';
import type { DB } from '../../db/database';
import { HttpError } from '../../http/errors';
import type { FieldCipher } from '../../lib/field-cipher';
import type { LiveEvents } from '../../realtime/events';
import type { Catalogue } from '../desks';
import { type RequestDeps, searchPurchases } from '../requests';
import type { Storage } from '../storage';

type Purchase = components['schemas']['Purchase'];

export interface FulfilmentDeps {
  db: DB;
  catalogue: Catalogue;
  requests: RequestDeps;
  storage: Storage;
  live: LiveEvents;
  /** Opens the request's sealed write-only fields for the reveal. */
  cipher: FieldCipher;
  log: FastifyBaseLogger;
}

/** The request as the contract shows it (after a decision committed, or for its task). */
export async function purchaseOf(deps: Pick<FulfilmentDeps, 'requests'>, purchaseId: number): Promise<Purchase> {
  const found = (await searchPurchases(deps.requests, { ids: [purchaseId] })).items[0];
  if (!found) throw HttpError.of(404, 'purchase.notFound');
  return found;
}
