/**
 * The demo reference data (currencies, payment method groups and methods, third parties, bank accounts), seeded
 * into an empty database at start when SEED_DEMO is on. Part of the reference-data module, which owns these tables.
 */

import { sql } from 'kysely';
import demo from '../../../../schemas/demo/catalogue.json' with { type: 'json' };
import type { DB } from '../../db/database';

export async function seedDemoReferenceData(db: DB): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    // Several processes may start at once against one database.
    await sql`select pg_advisory_xact_lock(724002)`.execute(trx);
    const existing = await trx.selectFrom('currencies').select('id').limit(1).executeTakeFirst();
    if (existing) return false;
    await trx
      .insertInto('currencies')
      .values(demo.currencies.map((c, i) => ({ ...c, sortOrder: i })))
      .execute();
    const groups = await trx
      .insertInto('paymentMethodGroups')
      .values(demo.paymentMethodGroups.map((g, i) => ({ ...g, sortOrder: i })))
      .returning('id')
      .execute();
    await trx
      .insertInto('paymentMethods')
      .values(demo.paymentMethods.map((m) => ({ groupId: groups[m.group]!.id, title: m.title, isActive: m.isActive })))
      .execute();
    await trx.insertInto('thirdParties').values(demo.thirdParties).execute();
    await trx.insertInto('internalBankAccounts').values(demo.internalBankAccounts).execute();
    const currencies = await trx.selectFrom('currencies').select(['id', 'code', 'rate']).execute();
    // Each seeded rate is the first point of its currency's history.
    await trx
      .insertInto('currencyRateHistory')
      .values(currencies.map((c) => ({ currencyId: c.id, rate: c.rate })))
      .execute();
    await trx
      .insertInto('currencyBankAccounts')
      .values(
        demo.currencyBankAccounts.map(({ currency, ...a }) => ({
          ...a,
          currencyId: currencies.find((c) => c.code.trim() === currency)!.id,
        })),
      )
      .execute();
    return true;
  });
}
