/** Public read endpoints over the catalogue tables. */

import defaults from '../../../../schemas/config/systemParameters.json' with { type: 'json' };
import type { components } from '../../../generated/api';
import type { Handlers } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { HttpError, ok } from '../../http/errors';
import { msg } from '../../http/messages';
import { audit } from '../../lib/audit';
import { checkParameter, type ParameterDefinition } from '../../../shared/system-parameters';
import { fetchSystemParameters, searchCurrencies, searchPaymentMethodGroups } from './store';

type PublicSystemParameters = components['schemas']['PublicSystemParameters'];
type Definition = ParameterDefinition & { description: string };

const PARAMETERS = defaults.parameters as Definition[];

/** A stored key no definition names (left by an older version) is shown as it is, never edited. */
const definitionOf = (key: string): Definition =>
  PARAMETERS.find((p) => p.key === key) ?? {
    key,
    title: key,
    unit: 'rial',
    maximum: Number.MAX_SAFE_INTEGER,
    description: '',
  };

/** A parameter that may not exceed another (minAmount ≤ maxAmount), checked in both directions. */
async function checkOrder(db: DB, def: Definition, value: number): Promise<void> {
  const pairs = [
    ...(def.notAbove ? [{ low: def, high: definitionOf(def.notAbove), lowValue: value, highValue: null }] : []),
    ...PARAMETERS.filter((p) => p.notAbove === def.key).map((p) => ({
      low: p,
      high: def,
      lowValue: null,
      highValue: value,
    })),
  ];
  for (const pair of pairs) {
    const other = pair.lowValue === null ? pair.low.key : pair.high.key;
    const row = await db.selectFrom('systemParameters').select('value').where('key', '=', other).executeTakeFirst();
    if (!row) continue;
    const low = pair.lowValue ?? Number(row.value);
    const high = pair.highValue ?? Number(row.value);
    if (low > high) throw HttpError.of(422, 'systemParameter.order', { low: pair.low.title, high: pair.high.title });
  }
}

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
      const rows = await db.selectFrom('systemParameters').selectAll().execute();
      // In the order the definitions list them (related parameters side by side), unknown keys last.
      const order = (key: string) => {
        const i = PARAMETERS.findIndex((p) => p.key === key);
        return i < 0 ? PARAMETERS.length : i;
      };
      rows.sort((a, b) => order(a.key) - order(b.key) || a.key.localeCompare(b.key));
      return ok({
        total: rows.length,
        items: rows.map((r) => {
          const def = definitionOf(r.key);
          return {
            key: r.key,
            value: r.value,
            isPublic: r.isPublic,
            title: def.title,
            unit: def.unit,
            minimum: def.minimum ?? 0,
            maximum: def.maximum,
            description: def.description,
            updatedAt: new Date(r.updatedAt).toISOString(),
          };
        }),
      });
    },

    saveSystemParameter: async ({ body, principal }) => {
      const def = PARAMETERS.find((p) => p.key === body.key);
      if (!def) throw HttpError.of(404, 'systemParameter.notFound');
      const problem = checkParameter(def, body.value);
      if (problem) throw HttpError.of(422, problem.key, problem.params);
      await db.transaction().execute(async (trx) => {
        const before = await trx
          .selectFrom('systemParameters')
          .selectAll()
          .where('key', '=', body.key)
          .forUpdate()
          .executeTakeFirst();
        if (!before) throw HttpError.of(404, 'systemParameter.notFound');
        await checkOrder(trx, def, body.value);
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
