/** Public read endpoints over the catalogue tables. */

import defaults from '../../../../schemas/config/systemParameters.json' with { type: 'json' };
import type { components } from '../../../generated/api';
import type { Handlers } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { HttpError, ok } from '../../http/errors';
import { msg } from '../../http/messages';
import { audit } from '../../lib/audit';
import { fetchSystemParameters, searchCurrencies, searchPaymentMethodGroups } from './store';

type PublicSystemParameters = components['schemas']['PublicSystemParameters'];

/** Called after a currency or parameter changes, e.g. to broadcast it on the real-time channel. */
export interface CatalogueEvents {
  currencyUpdated?(currency: components['schemas']['Currency']): void;
  systemParametersUpdated?(): void;
}

export function catalogueHandlers(
  db: DB,
  events: CatalogueEvents = {},
): Pick<
  Handlers,
  | 'publicSearchCurrencies'
  | 'publicSearchPaymentMethodGroups'
  | 'publicFetchSystemParameters'
  | 'sysSearchCurrencies'
  | 'saveCurrency'
  | 'sysFetchSystemParameters'
  | 'saveSystemParameter'
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
        await audit(trx, {
          actorUserId: principal!.userId,
          action: 'saveCurrency',
          entity: 'currency',
          entityId: created.id,
          after: values,
        });
        return created.id;
      });
      const saved = (await searchCurrencies(db, { perPage: 500 })).items.find((c) => c.id === id)!;
      events.currencyUpdated?.(saved);
      return ok(saved, msg('currency.saved'));
    },

    sysFetchSystemParameters: async () => {
      const rows = await db.selectFrom('systemParameters').selectAll().orderBy('key').execute();
      const descriptions = new Map(defaults.parameters.map((p) => [p.key, p.description]));
      return ok({
        total: rows.length,
        items: rows.map((r) => ({
          key: r.key,
          value: r.value,
          isPublic: r.isPublic,
          description: descriptions.get(r.key) ?? '',
          updatedAt: new Date(r.updatedAt).toISOString(),
        })),
      });
    },

    saveSystemParameter: async ({ body, principal }) => {
      await db.transaction().execute(async (trx) => {
        const before = await trx
          .selectFrom('systemParameters')
          .selectAll()
          .where('key', '=', body.key)
          .forUpdate()
          .executeTakeFirst();
        if (!before) throw HttpError.of(404, 'systemParameter.notFound');
        await trx
          .updateTable('systemParameters')
          .set({ value: JSON.stringify(body.value), updatedAt: new Date() })
          .where('key', '=', body.key)
          .execute();
        await audit(trx, {
          actorUserId: principal!.userId,
          action: 'saveSystemParameter',
          entity: 'systemParameter',
          entityId: body.key,
          before: before.value,
          after: body.value,
        });
      });
      events.systemParametersUpdated?.();
      return ok(null, msg('systemParameter.saved'));
    },

    publicSearchCurrencies: async ({ body }) => ok(await searchCurrencies(db, body ?? {})),
    publicSearchPaymentMethodGroups: async ({ body }) => ok(await searchPaymentMethodGroups(db, body ?? {})),
    publicFetchSystemParameters: async () =>
      ok((await fetchSystemParameters(db, true)) as unknown as PublicSystemParameters),
  };
}
