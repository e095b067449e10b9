/**
 * A funnel per desk (decision 046): where customers give up. Counts only — never a value typed, a user or an address.
 *
 * The desk page reports a visit (a random id it makes per opening of the page) as it goes: opened (the first report),
 * first input, the steps reached, the name of the last field touched, submitted. Each stage counts once per visit
 * (the visit is one row; a report only ever turns a stage on), so resending a report inflates nothing. A report must
 * name a desk of the catalogue, a field of that desk's form and a step within its steps; a visit belongs to the desk
 * that opened it and stops counting a day after, or once submitted. Reports are limited per address.
 *
 * Paid is the server's: `recordFunnelPaid` counts a desk's request on the day it moves to paid (requests' lifecycle).
 * Left is known at read time: a visit not submitted and not seen for FUNNEL_LEFT_AFTER_MINUTES has left, with its
 * last field.
 */
import { type Kysely, sql } from 'kysely';
import type { components } from '../../../generated/api';
import type { DB as Database } from '../../../generated/db';
import { addTehranDays, tehranDayOf } from '../../../shared/calendar/tehran-day';
import { FUNNEL_LEFT_AFTER_MINUTES, FUNNEL_MAX_STEPS, funnelFieldsOf, funnelStepsOf } from '../../../shared/funnel';
import type { Handlers } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { HttpError, ok, tooManyRequestsFor } from '../../http/errors';
import type { RateLimiter } from '../../lib/rate-limit';
import type { Catalogue, DeskForm } from './catalogue';

type Report = components['schemas']['DeskFunnelReport'];
type DeskFunnel = components['schemas']['DeskFunnel'];

/** A visit takes reports until the day after it opened; later ones are dropped (a page left open for days). */
const VISIT_OPEN_DAYS = 1;
/** The most "left at this field" rows a desk's funnel lists. */
const TOP_FIELDS = 5;

/** The checks a report must pass against the desk's form; throws the Persian 4xx. */
function checkReport(deskForm: DeskForm | undefined, report: Report): { stepsMask: number } {
  if (!deskForm) throw HttpError.of(404, 'funnel.unknownDesk');
  if (report.field !== undefined && !funnelFieldsOf(deskForm.schema).has(report.field)) {
    throw HttpError.of(422, 'funnel.unknownField');
  }
  const stepCount = funnelStepsOf(deskForm.uiSchema).length;
  let stepsMask = 0;
  for (const step of report.steps ?? []) {
    if (step >= stepCount || step >= FUNNEL_MAX_STEPS) throw HttpError.of(422, 'funnel.unknownStep');
    stepsMask |= 1 << step;
  }
  return { stepsMask };
}

/** Counts one report of a visit (see the file's comment). */
export async function recordFunnelReport(db: DB, catalogue: Catalogue, report: Report, now = new Date()) {
  const { stepsMask } = checkReport(catalogue.deskForm(report.desk), report);
  await db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('deskFunnelVisits')
      .values({ visitId: report.visit, desk: report.desk, day: tehranDayOf(now), lastSeenAt: now })
      .onConflict((oc) => oc.column('visitId').doNothing())
      .returning('visitId')
      .executeTakeFirst();
    const visit = await trx
      .selectFrom('deskFunnelVisits')
      .select(['desk', 'submitted', 'day'])
      .where('visitId', '=', report.visit)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (visit.desk !== report.desk) throw HttpError.of(409, 'funnel.otherDesk');
    // A submitted visit is done: what it touched after (the pay step) changes nothing. A visit of days ago is done too.
    if (!inserted && (visit.submitted || addTehranDays(visit.day, VISIT_OPEN_DAYS) < tehranDayOf(now))) return;
    const submitted = report.submitted === true;
    await trx
      .updateTable('deskFunnelVisits')
      .set({
        lastSeenAt: now,
        ...(report.input || report.field !== undefined || submitted ? { firstInput: true } : {}),
        ...(stepsMask ? { stepsReached: sql<number>`steps_reached | ${stepsMask}` } : {}),
        // The last field is kept only until the visit is submitted: a visit that did not leave has none.
        ...(submitted ? { submitted: true, lastField: null } : report.field ? { lastField: report.field } : {}),
      })
      .where('visitId', '=', report.visit)
      .execute();
  });
}

/** One more request of `desk` paid today (called by requests' lifecycle in the transaction that moves it to paid). */
export async function recordFunnelPaid(trx: Kysely<Database>, desk: string, now = new Date()): Promise<void> {
  await trx
    .insertInto('deskFunnelPaid')
    .values({ desk, day: tehranDayOf(now), paid: 1 })
    .onConflict((oc) => oc.columns(['desk', 'day']).doUpdateSet({ paid: sql<number>`desk_funnel_paid.paid + 1` }))
    .execute();
}

/** Every desk's funnel over the Tehran days `from`..`to` (both included), desks with no visit and no payment left out. */
export async function readFunnels(
  db: DB,
  catalogue: Catalogue,
  from: string,
  to: string,
  now = new Date(),
): Promise<DeskFunnel[]> {
  const leftBefore = new Date(now.getTime() - FUNNEL_LEFT_AFTER_MINUTES * 60_000);
  const left = sql<boolean>`(not submitted and last_seen_at < ${leftBefore})`;
  const [stages, fields, paid] = await Promise.all([
    db
      .selectFrom('deskFunnelVisits')
      .select((eb) => [
        'desk',
        'stepsReached',
        eb.fn.countAll<string>().as('opened'),
        sql<string>`count(*) filter (where first_input)`.as('firstInput'),
        sql<string>`count(*) filter (where submitted)`.as('submitted'),
        sql<string>`count(*) filter (where ${left})`.as('left'),
      ])
      .where('day', '>=', from)
      .where('day', '<=', to)
      .groupBy(['desk', 'stepsReached'])
      .execute(),
    db
      .selectFrom('deskFunnelVisits')
      .select((eb) => ['desk', 'lastField', eb.fn.countAll<string>().as('visits')])
      .where('day', '>=', from)
      .where('day', '<=', to)
      .where(left)
      .where('lastField', 'is not', null)
      .groupBy(['desk', 'lastField'])
      .execute(),
    db
      .selectFrom('deskFunnelPaid')
      .select((eb) => ['desk', eb.fn.sum<string>('paid').as('paid')])
      .where('day', '>=', from)
      .where('day', '<=', to)
      .groupBy('desk')
      .execute(),
  ]);
  const byDesk = new Map<string, DeskFunnel>();
  const funnelOf = (desk: string): DeskFunnel => {
    let funnel = byDesk.get(desk);
    if (!funnel) {
      const deskForm = catalogue.deskForm(desk);
      const steps = deskForm ? funnelStepsOf(deskForm.uiSchema) : [];
      funnel = {
        desk,
        title: deskForm?.desk.title ?? desk,
        opened: 0,
        firstInput: 0,
        steps: steps.map((title, index) => ({ index, title, reached: 0 })),
        submitted: 0,
        paid: 0,
        left: 0,
        leftAt: [],
      };
      byDesk.set(desk, funnel);
    }
    return funnel;
  };
  for (const row of stages) {
    const funnel = funnelOf(row.desk);
    funnel.opened += Number(row.opened);
    funnel.firstInput += Number(row.firstInput);
    funnel.submitted += Number(row.submitted);
    funnel.left += Number(row.left);
    for (const step of funnel.steps) if (row.stepsReached & (1 << step.index)) step.reached += Number(row.opened);
  }
  for (const row of paid) funnelOf(row.desk).paid += Number(row.paid);
  const leftAt = new Map<string, Array<{ field: string; visits: number }>>();
  for (const row of fields) {
    const list = leftAt.get(row.desk) ?? [];
    list.push({ field: row.lastField ?? '', visits: Number(row.visits) });
    leftAt.set(row.desk, list);
  }
  for (const [desk, list] of leftAt) {
    const funnel = funnelOf(desk);
    const deskForm = catalogue.deskForm(desk);
    const titles = deskForm ? funnelFieldsOf(deskForm.schema) : new Map<string, string>();
    funnel.leftAt = list
      .sort((a, b) => b.visits - a.visits || a.field.localeCompare(b.field))
      .slice(0, TOP_FIELDS)
      .map(({ field, visits }) => ({ field, title: titles.get(field) ?? field, visits }));
  }
  return [...byDesk.values()].sort((a, b) => b.opened - a.opened || a.title.localeCompare(b.title, 'fa'));
}

export function funnelHandlers(deps: {
  db: DB;
  catalogue: Catalogue;
  rateLimiter: RateLimiter;
  limits: { perIp: number; windowSeconds: number };
}): Pick<Handlers, 'recordDeskFunnel' | 'fetchDeskFunnels'> {
  return {
    recordDeskFunnel: async ({ body, request }) => {
      const hit = await deps.rateLimiter.hit(`funnel:ip:${request.ip}`, deps.limits.perIp, deps.limits.windowSeconds);
      if (!hit.allowed) throw tooManyRequestsFor('funnel.tooMany', hit.retryAfterSeconds);
      await recordFunnelReport(deps.db, deps.catalogue, body);
      return ok(null);
    },
    fetchDeskFunnels: async ({ body }) => {
      if (body.from > body.to) throw HttpError.of(422, 'funnel.badPeriod');
      return ok({ desks: await readFunnels(deps.db, deps.catalogue, body.from, body.to) });
    },
  };
}
