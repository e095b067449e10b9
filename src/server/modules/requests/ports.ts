/**
 * What requests asks of modules above it. Requests imports none of them (docs/architecture.md, the module order):
 * each port is a function type here, and the composition (app.ts) hands in the higher module's implementation.
 */
import type { DB } from '../../db/database';

/**
 * The Google Ads account a recharge request charges: the customer's own active account (another customer's is
 * 403, a suspended one 422), with its base currency. Filled by google-ads (`chargeableAccount`).
 */
export type ChargeableAccount = (
  db: DB,
  userId: number,
  accountId: number,
) => Promise<{ id: number; currencyId: number; googleCustomerId: string }>;
