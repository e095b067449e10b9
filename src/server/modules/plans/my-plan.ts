/**
 * A customer's study-abroad plan: the template chosen and the start date (table customer_plans, written here only),
 * and the plan as the customer sees it — each step priced in rial by requests' own pricing (`estimateFee`, the
 * price quote's computation, never a second one), its deadline counted back from the start date, and its state from
 * the customer's own requests at the step's desks: every one made since the plan was chosen, and one paid before it
 * (decision 033: paid, then planned) — still open however old, or done within `PAID_BEFORE_WINDOW_DAYS`; one left
 * unpaid before the plan does not count. Each request counts for one step only (`assignRequests`).
 */
import { type Kysely, sql } from 'kysely';
import type { components } from '../../../generated/api';
import type { DB as Database } from '../../../generated/db';
import { addTehranDays, DAY_MS, tehranToday } from '../../../shared/calendar/tehran-day';
import { UNFULFILLED_STATES } from '../../../shared/request-lifecycle';
import { HttpError } from '../../http/errors';
import type { Catalogue } from '../desks';
import { estimateFee, maxRequestAmountMinor, type RequestDeps } from '../requests';
import { type PlanTemplate, type PlanTemplates, type PlanTemplateStep, stepDesks } from './templates';

type Db = Kysely<Database>;
type MyPlan = components['schemas']['MyPlan'];
type MyPlanStep = components['schemas']['MyPlanStep'];
type StepState = components['schemas']['PlanStepState'];
type TemplateView = components['schemas']['PlanTemplate'];

export interface PlanDeps {
  db: Db;
  templates: PlanTemplates;
  catalogue: Catalogue;
  requests: RequestDeps;
}

/** A start date may be at most this far ahead. */
const MAX_YEARS_AHEAD = 3;

/** A template as the public reads it: its steps with their desks' titles. */
export function templateView(deps: Pick<PlanDeps, 'catalogue'>, template: PlanTemplate): TemplateView {
  const title = (desk: string) => deps.catalogue.deskForm(desk)?.desk.title ?? desk;
  return {
    identifier: template.identifier,
    title: template.title,
    destination: template.destination,
    description: template.description,
    steps: template.steps.map((step) => stepView(step, title)),
  };
}

function stepView(step: PlanTemplateStep, title: (desk: string) => string) {
  return {
    key: step.key,
    order: step.order,
    title: step.title,
    ...(step.note ? { note: step.note } : {}),
    desk: step.desk,
    deskTitle: title(step.desk),
    otherDesks: (step.otherDesks ?? []).map((desk) => ({ desk, title: title(desk) })),
    optional: step.optional ?? false,
    fee: { currency: step.fee.currency, amountMinor: step.fee.amountMinor },
    ...(step.deadlineDaysBeforeStart !== undefined ? { deadlineDaysBeforeStart: step.deadlineDaysBeforeStart } : {}),
  };
}

export async function saveMyPlan(
  deps: PlanDeps,
  userId: number,
  input: { plan: string; startDate: string },
): Promise<MyPlan> {
  if (!deps.templates.get(input.plan)) throw HttpError.of(404, 'plan.unknown');
  const today = tehranToday();
  if (input.startDate < today) throw HttpError.of(422, 'plan.startDatePast');
  if (input.startDate > addTehranDays(today, Math.round(MAX_YEARS_AHEAD * 365.25)))
    throw HttpError.of(422, 'plan.startDateFar');
  await deps.db
    .insertInto('customerPlans')
    .values({ userId, plan: input.plan, startDate: input.startDate })
    .onConflict((oc) =>
      oc.column('userId').doUpdateSet({
        plan: (eb) => eb.ref('excluded.plan'),
        startDate: (eb) => eb.ref('excluded.startDate'),
        // Another template starts counting requests now; the same one with a new date keeps its requests.
        chosenAt: sql<Date>`case when customer_plans.plan = excluded.plan then customer_plans.chosen_at else now() end`,
        updatedAt: sql<Date>`now()`,
      }),
    )
    .execute();
  return (await fetchMyPlan(deps, userId))!;
}

/** The furthest state of a step's requests: done, then paid (or in progress), then waiting for payment. */
const STATE_OF_PURCHASE: Record<string, { state: StepState; rank: number }> = {
  purchaseSucceeded: { state: 'done', rank: 3 },
  paid: { state: 'paid', rank: 2 },
  inProgress: { state: 'paid', rank: 2 },
  waitingForPayment: { state: 'waitingForPayment', rank: 1 },
};

/** A request done this many days before the plan was chosen still counts for its step (paid, then planned). */
export const PAID_BEFORE_WINDOW_DAYS = 180;
/** Paid and not yet done (the lifecycle's): counts for its step however long before the plan it was made. */
const PAID_OPEN_STATES: readonly string[] = UNFULFILLED_STATES;

type PlanPurchase = { id: number; desk: string; state: string };

/**
 * Which step each request counts for, each request for one step only: every step, in order, takes the one request
 * that best shows it (the furthest state, then the oldest) from its own desk, then a step still without one from its
 * other desks; any request left goes to the first step that has its desk (a second payment towards the same step).
 */
export function assignRequests<P extends PlanPurchase>(
  steps: readonly PlanTemplateStep[],
  purchases: readonly P[],
): Map<string, P[]> {
  const counted = purchases.filter((p) => STATE_OF_PURCHASE[p.state]);
  const taken = new Set<number>();
  const byStep = new Map<string, P[]>(steps.map((s) => [s.key, []]));
  const take = (step: PlanTemplateStep, desks: readonly string[]) => {
    const best = counted
      .filter((p) => !taken.has(p.id) && desks.includes(p.desk))
      .sort((a, b) => STATE_OF_PURCHASE[b.state]!.rank - STATE_OF_PURCHASE[a.state]!.rank || a.id - b.id)[0];
    if (!best) return;
    taken.add(best.id);
    byStep.get(step.key)!.push(best);
  };
  for (const step of steps) take(step, [step.desk]);
  for (const step of steps) if (byStep.get(step.key)!.length === 0) take(step, step.otherDesks ?? []);
  for (const p of counted) {
    if (taken.has(p.id)) continue;
    const step = steps.find((s) => s.desk === p.desk) ?? steps.find((s) => stepDesks(s).includes(p.desk));
    if (step) byStep.get(step.key)!.push(p);
  }
  return byStep;
}

export async function fetchMyPlan(deps: PlanDeps, userId: number): Promise<MyPlan | null> {
  const row = await deps.db
    .selectFrom('customerPlans')
    .select(['plan', 'startDate', 'chosenAt'])
    .where('userId', '=', userId)
    .executeTakeFirst();
  const template = row && deps.templates.get(row.plan);
  if (!row || !template) return null;
  const desks = [...new Set(template.steps.flatMap(stepDesks))];
  const since = new Date(new Date(row.chosenAt).getTime() - PAID_BEFORE_WINDOW_DAYS * DAY_MS);
  const purchases = await deps.db
    .selectFrom('purchases')
    .select(['id', 'desk', 'state', 'expectedPrice'])
    .where('userId', '=', userId)
    .where('desk', 'in', desks)
    // Made since the plan was chosen; or paid before it: still open however old, done within the window.
    .where((eb) =>
      eb.or([
        eb('createdAt', '>=', row.chosenAt),
        eb('state', 'in', PAID_OPEN_STATES),
        eb.and([eb('state', '=', 'purchaseSucceeded'), eb('createdAt', '>=', since)]),
      ]),
    )
    .orderBy('id')
    .execute();
  const assigned = assignRequests(template.steps, purchases);
  const maxAmountMinor = await maxRequestAmountMinor(deps.requests);
  const title = (desk: string) => deps.catalogue.deskForm(desk)?.desk.title ?? desk;
  const steps: MyPlanStep[] = [];
  for (const step of template.steps) {
    const mine = assigned.get(step.key) ?? [];
    let furthest: { state: StepState; rank: number; id?: number } = { state: 'notStarted', rank: 0 };
    let paid = 0;
    for (const p of mine) {
      const known = STATE_OF_PURCHASE[p.state];
      if (!known) continue; // failed, cancelled or invalidated: as if not made
      if (known.rank >= 2) paid += Number(p.expectedPrice);
      if (known.rank >= furthest.rank) furthest = { ...known, id: Number(p.id) };
    }
    const price = await estimateFee(deps.requests, step.fee.currency, step.fee.amountMinor);
    const deskForm = deps.catalogue.deskForm(step.desk);
    const prefill: Record<string, string | number> = { ...(step.prefill ?? {}) };
    if (price) {
      prefill.currency = price.currencyId;
      // An amount over one request's maximum (a blocked account) is prefilled at the maximum; the note says why.
      prefill.amount = Math.min(step.fee.amountMinor, maxAmountMinor) / 100;
    }
    steps.push({
      ...stepView(step, title),
      estimate: price
        ? {
            rate: price.rate,
            grossPrice: price.grossPrice,
            totalCosts: price.totalCosts,
            expectedPrice: price.expectedPrice,
          }
        : null,
      ...(step.deadlineDaysBeforeStart !== undefined
        ? { deadline: addTehranDays(row.startDate, -step.deadlineDaysBeforeStart) }
        : {}),
      state: furthest.state,
      ...(furthest.id ? { purchaseId: furthest.id } : {}),
      paid,
      available: Boolean(deskForm) && !deskForm?.desk.underConstruction,
      prefill,
    });
  }
  return {
    template: { identifier: template.identifier, title: template.title, destination: template.destination },
    startDate: row.startDate,
    chosenAt: new Date(row.chosenAt).toISOString(),
    steps,
    totalEstimated: steps.reduce((sum, s) => sum + (s.optional ? 0 : (s.estimate?.expectedPrice ?? 0)), 0),
    totalPaid: steps.reduce((sum, s) => sum + s.paid, 0),
  };
}
