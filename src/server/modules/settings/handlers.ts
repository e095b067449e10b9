/** System parameters: the public ones for everyone, all of them for staff, and saving one. */
import type { components } from '../../../generated/api';
import type { Handlers } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { ok } from '../../http/errors';
import { msg } from '../../http/messages';
import { audit } from '../../lib/audit';
import { listOf } from '../../lib/paging';
import { definitionOf, fetchSystemParameters, PARAMETERS, saveSystemParameter } from './service';

type PublicSystemParameters = components['schemas']['PublicSystemParameters'];

/** Called after a parameter changes, e.g. to broadcast it on the real-time channel. */
export interface SettingsEvents {
  systemParametersUpdated?(): void;
}

export function settingsHandlers(
  db: DB,
  events: SettingsEvents = {},
): Pick<Handlers, 'publicFetchSystemParameters' | 'sysFetchSystemParameters' | 'saveSystemParameter'> {
  return {
    sysFetchSystemParameters: async () => {
      const rows = await db.selectFrom('systemParameters').selectAll().execute();
      // In the order the definitions list them (related parameters side by side), unknown keys last.
      const order = (key: string) => {
        const i = PARAMETERS.findIndex((p) => p.key === key);
        return i < 0 ? PARAMETERS.length : i;
      };
      rows.sort((a, b) => order(a.key) - order(b.key) || a.key.localeCompare(b.key));
      return ok(
        listOf(
          rows.map((r) => {
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
        ),
      );
    },

    saveSystemParameter: async ({ body, principal }) => {
      await db.transaction().execute(async (trx) => {
        const { before } = await saveSystemParameter(trx, body.key, body.value);
        await audit(trx, {
          actorUserId: principal!.userId,
          action: 'saveSystemParameter',
          entity: 'systemParameter',
          entityId: body.key,
          before,
          after: body.value,
        });
      });
      events.systemParametersUpdated?.();
      return ok(null, msg('systemParameter.saved'));
    },

    publicFetchSystemParameters: async () =>
      ok((await fetchSystemParameters(db, true)) as unknown as PublicSystemParameters),
  };
}
