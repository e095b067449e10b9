/**
 * The staff's view of a paid request: opening its task claims it and shows everything needed to carry it out (the
 * desk form's fields in order, ids shown by their titles, write-only fields hidden, the customer, the history, the
 * currency payment once made); revealing a write-only field opens it from its sealed form, audit-logged.
 */
import { isDateField } from '../../../shared/deadline';
import type { components } from '../../../generated/api';
import type { Principal } from '../../contract/handlers';
import { HttpError } from '../../http/errors';
import { audit } from '../../lib/audit';
import { UnsealError } from '../../lib/field-cipher';
import { purchaseReservation } from '../ledger';
import { lockPurchase, openSecret, runRequestEvent } from '../requests';
import { eventAllowedFrom, requestEventOf } from '../../../shared/request-lifecycle';
import {
  announceTaskClaimed,
  claimTaskAudited,
  CURRENCY_PAYMENT_TASK_TYPES,
  purchaseOfTask,
  toTaskDtos,
} from '../tasks';
import { currencyPaymentOf } from './currency-payments';
import { type FulfilmentDeps, purchaseOf } from './deps';

export type FulfilmentTaskData = components['schemas']['FulfilmentTaskData'];
type TaskDto = components['schemas']['Task'];

/**
 * Opens a paid request's task (claiming it) with everything staff need to carry the request out. The first time staff
 * take a paid request it moves to inProgress (the lifecycle's `taken`) and its customer hears of it; a colleague
 * taking it over later is no news.
 */
export async function taskData(
  deps: FulfilmentDeps,
  principal: Principal,
  taskId: number,
  types: readonly string[] = CURRENCY_PAYMENT_TASK_TYPES,
): Promise<FulfilmentTaskData> {
  const { task, taken } = await deps.db.transaction().execute(async (trx) => {
    // The request first, then its task: the lock order of every decision on a request.
    const purchaseId = await purchaseOfTask(trx, taskId);
    const purchase = purchaseId === null ? undefined : await lockPurchase(trx, purchaseId);
    const claimed = await claimTaskAudited(trx, taskId, types, principal.userId);
    if (!purchase || !eventAllowedFrom('taken', purchase.state)) return { task: claimed, taken: null };
    await runRequestEvent(trx, purchase, 'taken', {
      actorUserId: principal.userId,
      catalogue: deps.catalogue,
      step: { kind: 'taken' },
    });
    return { task: claimed, taken: purchase };
  });
  if (task.purchaseId === null) throw HttpError.of(404, 'task.notFound');
  announceTaskClaimed(deps.live, task, principal.userId);
  if (taken) await announceTaken(deps, taken.id, taken.userId);
  return requestData(deps, task.purchaseId, (await toTaskDtos(deps.db, [task]))[0]!);
}

/** Tells the customer's open pages that their request is in progress now (after commit). */
async function announceTaken(deps: FulfilmentDeps, purchaseId: number, userId: number): Promise<void> {
  const user = await deps.db.selectFrom('users').select('uid').where('id', '=', userId).executeTakeFirst();
  if (user) deps.live.purchaseChanged(user.uid, { purchaseId, state: requestEventOf('taken').to });
}

async function requestData(deps: FulfilmentDeps, purchaseId: number, task: TaskDto): Promise<FulfilmentTaskData> {
  const purchase = await purchaseOf(deps, purchaseId);
  const row = await deps.db
    .selectFrom('purchases as p')
    .innerJoin('users as u', 'u.id', 'p.userId')
    .select([
      'p.fields',
      'p.fee',
      'p.tax',
      'p.operationCost',
      'p.currencyId',
      'p.userId',
      'p.payerUserId',
      'u.firstName',
      'u.lastName',
      'u.mobileNo',
      'u.nationalCode',
    ])
    .where('p.id', '=', purchaseId)
    .executeTakeFirstOrThrow();
  const deskForm = deps.catalogue.deskForm(purchase.desk);
  const properties = (deskForm?.schema.properties ?? {}) as Record<string, { title?: string }>;
  const order = ((deskForm?.form.uiSchema as { 'ui:order'?: string[] } | undefined)?.['ui:order'] ?? []).filter(
    (name) => name !== '*',
  );
  const values = { ...(row.fields as Record<string, string | number | boolean | null>) };
  // Ids the desk's form picks from a list are shown by their titles, as the customer chose them.
  const widgets = (deskForm?.form.uiSchema ?? {}) as Record<string, { 'ui:widget'?: string } | undefined>;
  for (const [name, ui] of Object.entries(widgets)) {
    const id = Number(values[name]);
    if (!(name in values) || !Number.isInteger(id)) continue;
    if (ui?.['ui:widget'] === 'currencySelect') {
      values[name] = `${purchase.currencyTitle} (${purchase.currencyCode})`;
    } else if (ui?.['ui:widget'] === 'paymentMethodGroupSelect') {
      const group = await deps.db
        .selectFrom('paymentMethodGroups')
        .select('title')
        .where('id', '=', id)
        .executeTakeFirst();
      if (group) values[name] = group.title;
    }
  }
  const names = [...order.filter((n) => n in values), ...Object.keys(values).filter((n) => !order.includes(n))];
  const secret = deps.catalogue.writeOnlyFields;
  const reserved = await purchaseReservation(deps.db, row.payerUserId ?? row.userId, purchaseId);
  const history = await deps.db
    .selectFrom('purchaseStateChanges as c')
    .innerJoin('purchaseStates as s', 's.identifier', 'c.state')
    .select(['c.state', 's.title as stateTitle', 's.color as stateColor', 'c.cause', 'c.reason', 'c.createdAt'])
    .where('c.purchaseId', '=', purchaseId)
    .orderBy('c.id')
    .execute();
  const [thirdParties, paymentMethods] = await Promise.all([
    deps.db.selectFrom('thirdParties').select(['id', 'title']).orderBy('title').execute(),
    deps.db
      .selectFrom('paymentMethods')
      .select(['id', 'title'])
      .where('isActive', '=', true)
      .orderBy('title')
      .execute(),
  ]);
  return {
    task,
    purchase,
    costs: { fee: row.fee, tax: row.tax, operationCost: row.operationCost },
    reserved,
    fields: names.map((name) => ({
      name,
      title: properties[name]?.title ?? name,
      value: secret.has(name) ? null : (values[name] ?? null),
      secret: secret.has(name),
      isDate: isDateField(properties[name]),
    })),
    customer: {
      id: row.userId,
      fullName: [row.firstName, row.lastName].filter(Boolean).join(' '),
      mobileNo: row.mobileNo,
      nationalCode: row.nationalCode,
    },
    history: history.map((h) => ({ ...h, createdAt: new Date(h.createdAt).toISOString() })),
    currencyPayment: await currencyPaymentOf(deps.db, purchaseId),
    thirdParties,
    paymentMethods,
    foreignReference: foreignReferenceOf(deskForm?.desk.foreignReference),
  };
}

/** The reference a desk declares, as the fulfilment dialog shapes its field by it (null: free text). */
function foreignReferenceOf(
  declared: NonNullable<FulfilmentDeps['catalogue']['snapshot']['desks'][number]['foreignReference']> | undefined,
): FulfilmentTaskData['foreignReference'] {
  if (!declared) return null;
  return {
    kind: declared.kind,
    title: declared.title,
    titleEn: declared['x-title-en'] ?? null,
    format: declared.format ?? null,
  };
}

/**
 * The request's write-only fields (the target page's password), opened from their sealed form; each reveal is
 * audit-logged with who and when. A value that does not open (sealed under a key this server does not hold, or
 * altered in the database) is refused with a Persian message and a warning naming only the request and why.
 */
export async function revealSecret(
  deps: FulfilmentDeps,
  principal: Principal,
  purchaseId: number,
): Promise<Record<string, string>> {
  const row = await deps.db
    .selectFrom('purchases')
    .select(['userId', 'fields'])
    .where('id', '=', purchaseId)
    .executeTakeFirst();
  if (!row) throw HttpError.of(404, 'purchase.notFound');
  const fields = row.fields as Record<string, unknown>;
  const names = Object.keys(fields).filter((name) => deps.catalogue.writeOnlyFields.has(name));
  let revealed: Record<string, string>;
  try {
    revealed = Object.fromEntries(names.map((name) => [name, openSecret(deps.cipher, row.userId, name, fields[name])]));
  } catch (error) {
    if (!(error instanceof UnsealError)) throw error;
    deps.log.warn({ purchaseId, reason: error.reason }, 'a sealed request credential did not open');
    throw HttpError.of(422, 'purchase.secretUnreadable');
  }
  await audit(deps.db, {
    actorUserId: principal.userId,
    action: 'revealPurchaseSecret',
    entity: 'purchase',
    entityId: purchaseId,
    after: { fields: names },
  });
  return revealed;
}
