/**
 * System parameters (fees, limits, lifetimes): the only writer of `system_parameters` and the one reader the
 * rest of the server uses. Definitions and defaults live in schemas/config/systemParameters.json; a key that
 * is missing or unreadable in the database reads as its default there, never as a second default in code.
 */
import defaults from '../../../../schemas/config/systemParameters.json' with { type: 'json' };
import { checkParameter, type ParameterDefinition } from '../../../shared/system-parameters';
import type { DB } from '../../db/database';
import { HttpError } from '../../http/errors';

export type Definition = ParameterDefinition & { value: number; isPublic: boolean; description: string };

export const PARAMETERS = defaults.parameters as Definition[];

/** Every parameter the server acts on, as numbers in their stored units. */
export interface Settings {
  feePercent: number;
  fixedFee: number;
  taxPercentOnFee: number;
  operationCost: number;
  minAmount: number;
  maxAmount: number;
  quoteLifetimeSeconds: number;
  mobileValidationCodeLifetimeSeconds: number;
  deadlineAtRiskHours: number;
  promiseCompensationPercent: number;
  zarinpalPayoutDelayHours: number;
  promiseRecordSize: number;
  deskDraftLifetimeDays: number;
}

/** The defaults of schemas/config/systemParameters.json (tests/unit/settings.test.ts checks the keys match). */
export const DEFAULT_SETTINGS = Object.fromEntries(PARAMETERS.map((p) => [p.key, p.value])) as unknown as Settings;

export async function readSettings(db: DB): Promise<Settings> {
  const rows = await db.selectFrom('systemParameters').select(['key', 'value']).execute();
  const settings = { ...DEFAULT_SETTINGS };
  for (const row of rows) {
    const value = Number(row.value);
    if (row.key in settings && Number.isFinite(value)) settings[row.key as keyof Settings] = value;
  }
  return settings;
}

export async function readSetting(db: DB, key: keyof Settings): Promise<number> {
  const row = await db.selectFrom('systemParameters').select('value').where('key', '=', key).executeTakeFirst();
  const value = Number(row?.value);
  return row && Number.isFinite(value) ? value : DEFAULT_SETTINGS[key];
}

/** Stores each default whose key is missing; values staff changed survive. Runs at every start. */
export async function seedSystemParameters(db: DB): Promise<void> {
  for (const p of PARAMETERS) {
    await db
      .insertInto('systemParameters')
      .values({ key: p.key, value: JSON.stringify(p.value), isPublic: p.isPublic })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
  }
}

/** The stored parameters as `{key: value}`, only the public ones when asked. */
export async function fetchSystemParameters(db: DB, onlyPublic: boolean): Promise<Record<string, unknown>> {
  let q = db.selectFrom('systemParameters').select(['key', 'value']);
  if (onlyPublic) q = q.where('isPublic', '=', true);
  const rows = await q.orderBy('key').execute();
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}

/** A stored key no definition names (left by an older version) is shown as it is, never edited. */
export const definitionOf = (key: string): Definition =>
  PARAMETERS.find((p) => p.key === key) ?? {
    key,
    title: key,
    unit: 'rial',
    maximum: Number.MAX_SAFE_INTEGER,
    description: '',
    value: 0,
    isPublic: false,
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

/**
 * Checks `value` against the parameter's definition and its order with related ones, then stores it.
 * Call inside a transaction (it locks the row); returns the value it replaced, for the caller's audit entry.
 */
export async function saveSystemParameter(trx: DB, key: string, value: number): Promise<{ before: unknown }> {
  const def = PARAMETERS.find((p) => p.key === key);
  if (!def) throw HttpError.of(404, 'systemParameter.notFound');
  const problem = checkParameter(def, value);
  if (problem) throw HttpError.of(422, problem.key, problem.params);
  const before = await trx
    .selectFrom('systemParameters')
    .selectAll()
    .where('key', '=', key)
    .forUpdate()
    .executeTakeFirst();
  if (!before) throw HttpError.of(404, 'systemParameter.notFound');
  await checkOrder(trx, def, value);
  await trx
    .updateTable('systemParameters')
    .set({ value: JSON.stringify(value), updatedAt: new Date() })
    .where('key', '=', key)
    .execute();
  return { before: before.value };
}
