/** Public read endpoints over the reference data (currencies, payment method groups) and staff edits of a currency. */

import type { components } from '../../../generated/api';
import type { Handlers } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { HttpError, ok } from '../../http/errors';
import { msg } from '../../http/messages';
import { audit } from '../../lib/audit';
import { fireRateAlerts, removeRateAlert, saveRateAlert, searchRateAlerts } from './rate-alerts';
import { recordRate, searchRateHistory } from './rate-history';
import { findCurrency, searchCurrencies, searchPaymentMethodGroups } from './store';

/** Called after a currency changes, e.g. to broadcast it on the real-time channel. */
export interface ReferenceDataEvents {
  currencyUpdated?(currency: components['schemas']['Currency']): void;
}

export function referenceDataHandlers(
  db: DB,
  events: ReferenceDataEvents = {},
): Pick<
  Handlers,
  | 'publicSearchCurrencies'
  | 'publicSearchPaymentMethodGroups'
  | 'sysSearchCurrencies'
  | 'saveCurrency'
  | 'searchRateHistory'
  | 'searchRateAlerts'
  | 'saveRateAlert'
  | 'removeRateAlert'
> {
  return {
    sysSearchCurrencies: async ({ body }) => ok(await searchCurrencies(db, body ?? {})),

    saveCurrency: async ({ body, principal }) => {
      const values = {
        title: body.title.trim(),
        code: body.code,
        rate: body.rate,
        useForUafCpr: body.useForUafCpr,
        useForGoogleAdsAccountCr: body.useForGoogleAdsAccountCr,
      };
      const id = await db.transaction().execute(async (trx) => {
        const clash = await trx
          .selectFrom('currencies')
          .select('id')
          .where('code', '=', values.code)
          .where('id', '!=', body.id ?? -1)
          .executeTakeFirst();
        if (clash) throw HttpError.of(409, 'currency.duplicateCode');
        if (body.id !== undefined) {
          const before = await trx
            .selectFrom('currencies')
            .selectAll()
            .where('id', '=', body.id)
            .forUpdate()
            .executeTakeFirst();
          if (!before) throw HttpError.of(404, 'currency.notFound');
          await trx
            .updateTable('currencies')
            .set({ ...values, ...(before.rate !== values.rate ? { rateUpdatedAt: new Date() } : {}) })
            .where('id', '=', body.id)
            .execute();
          if (Number(before.rate) !== values.rate) {
            // The history and the alerts it crosses commit with the rate, or not at all.
            const changeId = await recordRate(trx, {
              currencyId: body.id,
              rate: values.rate,
              changedBy: principal!.userId,
            });
            await fireRateAlerts(trx, { id: body.id, title: values.title }, values.rate, changeId);
          }
          await audit(trx, {
            actorUserId: principal!.userId,
            action: 'saveCurrency',
            entity: 'currency',
            entityId: body.id,
            before: { ...before, code: before.code.trim() },
            after: values,
          });
          return body.id;
        }
        const created = await trx.insertInto('currencies').values(values).returning('id').executeTakeFirstOrThrow();
        await recordRate(trx, { currencyId: created.id, rate: values.rate, changedBy: principal!.userId });
        await audit(trx, {
          actorUserId: principal!.userId,
          action: 'saveCurrency',
          entity: 'currency',
          entityId: created.id,
          after: values,
        });
        return created.id;
      });
      const saved = (await findCurrency(db, id))!;
      events.currencyUpdated?.(saved);
      return ok(saved, msg('currency.saved'));
    },

    searchRateHistory: async ({ body }) => ok(await searchRateHistory(db, body)),
    searchRateAlerts: async ({ principal }) => ok(await searchRateAlerts(db, principal!.userId)),
    saveRateAlert: async ({ body, principal }) =>
      ok(await saveRateAlert(db, principal!.userId, body), msg('rateAlert.saved')),
    removeRateAlert: async ({ body, principal }) => {
      await removeRateAlert(db, principal!.userId, body.alertId);
      return ok({ id: body.alertId }, msg('rateAlert.removed'));
    },

    publicSearchCurrencies: async ({ body }) => ok(await searchCurrencies(db, body ?? {})),
    publicSearchPaymentMethodGroups: async ({ body }) => ok(await searchPaymentMethodGroups(db, body ?? {})),
  };
}
