/**
 * A request's steps on the server, from their one description (src/shared/request-steps.ts): `notifyRequestStep`
 * tells the customer of a step in the transaction that took it, and `requestTimeline` reads every step a request took
 * back from its history (state changes, the claim of its task, its ledger postings, its currency payment) with the
 * words, the role that acted and what comes next with its usual wait.
 */
import { type Expression, type Kysely, sql } from 'kysely';
import { jsonArrayFrom, jsonObjectFrom } from 'kysely/helpers/postgres';
import type { components } from '../../../generated/api';
import type { DB as Database } from '../../../generated/db';
import {
  actorTitle,
  nextStepOf,
  type PaidHow,
  type RequestStep,
  stepActor,
  stepNotification,
  stepWords,
  USUAL_WAIT_DAYS,
  USUAL_WAIT_MIN_SAMPLES,
  usualWaitText,
} from '../../../shared/request-steps';
import type { NotificationKind, NotificationParams } from '../../../shared/notifications';
import { displayName } from '../../lib/person-names';
import { firstNameAndInitial } from '../../../shared/masked-name';
import { tehranMomentText } from '../../../shared/deadline-promise';
import { notify } from '../notifications';
import type { Catalogue } from '../desks';
import { PURCHASE_TASK_TYPES } from '../tasks';

type Db = Kysely<Database>;
type Timeline = components['schemas']['RequestTimeline'];
type TimelineStep = Timeline['steps'][number];
export type DeskTitles = Pick<Catalogue, 'deskForm'>;

/** How notifications and the timeline name a request: its desk's title and its number. */
export function requestTitle(catalogue: DeskTitles, purchase: { id: number; desk: string }): string {
  return `${catalogue.deskForm(purchase.desk)?.desk.title ?? purchase.desk} (${purchase.id})`;
}

/**
 * Tells the request's customer of `step`, in `trx` (it commits with the step or not at all). The event key names the
 * request and the step, so a replayed or racing step notifies once.
 */
export async function notifyRequestStep(
  trx: Db,
  catalogue: DeskTitles,
  purchase: { id: number; userId: number; desk: string; payerUserId?: number | null },
  step: RequestStep,
  now: Date = new Date(),
): Promise<void> {
  const notification = stepNotification(step, requestTitle(catalogue, purchase));
  if (!notification) return;
  // Someone else paid it through a payment link (decision 028): what returns to a wallet returns to theirs.
  const payer = purchase.payerUserId;
  const paidByOther = payer != null && payer !== purchase.userId;
  await notify(
    trx,
    {
      userId: purchase.userId,
      kind: notification.kind,
      // The requester reads that the money went back to the payer's wallet, not theirs.
      params: paidByOther ? { ...notification.params, whose: ' پرداخت‌کننده' } : notification.params,
      purchaseId: purchase.id,
      eventKey: `purchase:${purchase.id}:${step.kind}`,
    },
    now,
  );
  if (paidByOther && RETURNS_MONEY.has(step.kind)) {
    const told = { kind: notification.kind, params: withoutRequesterReason(notification.kind, notification.params) };
    await notify(trx, { userId: payer, ...told, eventKey: `purchase:${purchase.id}:${step.kind}:payer` }, now);
  }
}

/** What the payer reads in place of staff's reason, which is written to the requester (decision 028). */
export const PAYER_REASON = {
  purchaseFailed: 'دلیل آن به درخواست‌دهنده گفته شد',
  // «… به دلیل «خطای درخواست‌دهنده» انجام نشد؛ …کسر…»: why part of their money was kept, without the details.
  purchaseRefunded: 'خطای درخواست‌دهنده',
} as const;

/**
 * The payer sees nothing of the request beyond what they pay for (decision 028): staff's reason for a failure or a
 * refund is about the requester's account and details («رمز ETS مشتری اشتباه است»), so it is not theirs to read.
 */
function withoutRequesterReason(kind: NotificationKind, params: NotificationParams): NotificationParams {
  if (!('reason' in params)) return params;
  return {
    ...params,
    reason: kind === 'purchaseRefunded' ? PAYER_REASON.purchaseRefunded : PAYER_REASON.purchaseFailed,
  };
}

/** The steps that return money to the wallet of whoever paid. */
const RETURNS_MONEY = new Set<RequestStep['kind']>(['done', 'failed', 'refunded', 'invalidated', 'compensated']);

const PAID_HOW: Record<string, PaidHow> = { paidFromWallet: 'wallet', paidOnline: 'online', paidOffline: 'offline' };

export const paidHowOf = (cause: string | null): PaidHow => PAID_HOW[cause ?? ''] ?? 'wallet';

/** A ledger posting's named amounts by the request's money step (reserve, difference, release, refundUserError). */
function postingsOf(purchaseId: number, rows: TimelineSources['postings']): Map<string, Record<string, number>> {
  const prefix = `purchase:${purchaseId}:`;
  return new Map(
    rows.map((r) => [
      r.idempotencyKey!.slice(prefix.length),
      (typeof r.amounts === 'string' ? JSON.parse(r.amounts) : r.amounts) as Record<string, number>,
    ]),
  );
}

/**
 * The median hours from paid to done of the desk's requests carried out in the last 30 days; null with too few of
 * them to say.
 */
export async function usualHoursToDone(db: Db, desk: string, now: Date = new Date()): Promise<number | null> {
  return usualHoursOf(await usualWaitQuery(db, desk, now).executeTakeFirst());
}

/** The median and the number of the desk's recent requests (`desk`: a name, or a column of an outer query). */
export function usualWaitQuery(db: Db, desk: string | Expression<string>, now: Date) {
  const since = new Date(now.getTime() - USUAL_WAIT_DAYS * 24 * 3_600_000);
  return db
    .selectFrom('purchaseStateChanges as s')
    .innerJoin('purchases as p', 'p.id', 's.purchaseId')
    .select([
      sql<
        number | null
      >`percentile_cont(0.5) within group (order by extract(epoch from (s.created_at - p.paid_at)))`.as('median'),
      sql<number>`count(*)`.as('n'),
    ])
    .where('s.state', '=', 'purchaseSucceeded')
    .where('p.desk', '=', desk)
    .where('p.paidAt', 'is not', null)
    .where('s.createdAt', '>=', since);
}

/** The usual hours from `usualWaitQuery`'s row: null with too few requests to say. */
export function usualHoursOf(row: { median: number | null; n: number | string } | null | undefined): number | null {
  if (!row || Number(row.n) < USUAL_WAIT_MIN_SAMPLES || row.median === null) return null;
  return Number(row.median) / 3600;
}

interface RawStep {
  step: RequestStep;
  at: Date;
  actorUserId: number | null;
}

/** The steps a request took, oldest first, from its history rows (or its task's first claim) and its ledger postings. */
function stepsOf(purchase: TimelinePurchase, sources: TimelineSources): RawStep[] {
  const money = postingsOf(purchase.id, sources.postings);
  const payment = sources.payment ?? undefined;
  // Paid by someone else through the request's payment link (decision 028): the step names them.
  const payerName = sources.payer ? firstNameAndInitial(sources.payer.firstName, sources.payer.lastName) : null;
  const steps: RawStep[] = [];
  for (const c of sources.changes) {
    const step = stepOfChange(c, purchase, money, payment, payerName);
    if (step) steps.push({ step, at: new Date(c.createdAt), actorUserId: c.actorUserId });
  }
  // A missed promise the server compensated (decision 041): no state moves, so it is its own row of the request.
  if (purchase.promiseCompensatedAt !== null && purchase.promisedBy !== null) {
    steps.push({
      step: {
        kind: 'compensated',
        amount: Number(purchase.promiseCompensation ?? 0),
        doneBy: tehranMomentText(purchase.promisedBy),
      },
      at: new Date(purchase.promiseCompensatedAt),
      actorUserId: null,
    });
  }
  // Taken: the move to inProgress; a request taken before that state was entered shows the first claim of its
  // fulfilment task instead (a colleague taking it over later is not a new step).
  const claim = sources.claim;
  if (!steps.some((s) => s.step.kind === 'taken') && claim) {
    steps.push({ step: { kind: 'taken' }, at: new Date(claim.createdAt), actorUserId: claim.actorUserId });
  }
  return steps.sort((a, b) => a.at.getTime() - b.at.getTime());
}

function stepOfChange(
  c: { state: string; cause: string | null; reason: string | null },
  purchase: { formType: string; expectedPrice: number },
  money: Map<string, Record<string, number>>,
  payment: { realPrice: number; thirdParty: string | null } | undefined,
  payerName: string | null,
): RequestStep | null {
  const reason = c.reason ?? '';
  switch (c.state) {
    case 'waitingForPayment':
      return { kind: 'submitted' };
    case 'paid':
      return {
        kind: 'paid',
        how: paidHowOf(c.cause),
        amount: money.get('reserve')?.expectedPrice ?? purchase.expectedPrice,
        payer: payerName,
      };
    case 'inProgress':
      return { kind: 'taken' };
    case 'purchaseSucceeded': {
      const reserved = money.get('reserve')?.expectedPrice ?? purchase.expectedPrice;
      const returnedAmount = money.get('difference')?.refundedAmount ?? 0;
      return {
        kind: 'done',
        priceAmount: payment?.realPrice ?? reserved - returnedAmount,
        returnedAmount,
        thirdParty: payment?.thirdParty ?? null,
        googleAds: purchase.formType === 'googleAdsAccountCr',
      };
    }
    case 'purchaseFailed': {
      if (c.cause === 'refundedUserError') {
        const split = money.get('refundUserError') ?? {};
        return {
          kind: 'refunded',
          reason,
          keptAmount: (split.fee ?? 0) + (split.tax ?? 0),
          returnedAmount: split.refundedAmount ?? 0,
        };
      }
      return { kind: 'failed', reason, releasedAmount: money.get('release')?.expectedPrice ?? 0 };
    }
    case 'purchaseInvalidated':
      return { kind: 'invalidated', reason, releasedAmount: money.get('release')?.expectedPrice ?? 0 };
    case 'cancelled':
      return { kind: 'cancelled' };
    default:
      return null;
  }
}

/** The request's columns its timeline is made from. */
const TIMELINE_PURCHASE = [
  'purchases.id',
  'purchases.desk',
  'purchases.formType',
  'purchases.expectedPrice',
  'purchases.promisedBy',
  'purchases.promiseCompensatedAt',
  'purchases.promiseCompensation',
] as const;

interface TimelinePurchase {
  id: number;
  desk: string;
  formType: string;
  expectedPrice: number;
  promisedBy: Date | string | null;
  promiseCompensatedAt: Date | string | null;
  promiseCompensation: number | null;
}

/** What a request's timeline is read from besides the request itself: `timelineSources` reads them in one query. */
export interface TimelineSources {
  /** The request's history, oldest first (with each state's title and colour, which the request page also shows). */
  changes: Array<{
    state: string;
    stateTitle: string;
    stateColor: string;
    cause: string | null;
    reason: string | null;
    actorUserId: number | null;
    createdAt: Date | string;
  }>;
  postings: Array<{ idempotencyKey: string | null; amounts: unknown }>;
  payment: { realPrice: number; thirdParty: string | null } | null;
  /** Whoever paid through the request's payment link (decision 028). */
  payer: { firstName: string | null; lastName: string | null } | null;
  /** The first claim of the request's fulfilment task. */
  claim: { actorUserId: number | null; createdAt: Date | string } | null;
  /** A live payment link (unrevoked, unexpired): the next step is its payer's, not the customer's. */
  paymentLinkLive: boolean;
}

/**
 * The selections that read a request's `TimelineSources` as columns of a query of `purchases` (each a subquery, so
 * the request and all it is shown with come back in one round trip).
 */
export function timelineSources(db: Db, purchaseId: number, now: Date) {
  return [
    jsonArrayFrom(
      db
        .selectFrom('purchaseStateChanges as c')
        .innerJoin('purchaseStates as s', 's.identifier', 'c.state')
        .select([
          'c.state',
          's.title as stateTitle',
          's.color as stateColor',
          'c.cause',
          'c.reason',
          'c.actorUserId',
          'c.createdAt',
        ])
        .where('c.purchaseId', '=', purchaseId)
        .orderBy('c.id'),
    ).as('changes'),
    jsonArrayFrom(
      db
        .selectFrom('ledgerTransactions')
        .select(['idempotencyKey', 'amounts'])
        .where('idempotencyKey', 'like', `purchase:${purchaseId}:%`),
    ).as('postings'),
    jsonObjectFrom(
      db
        .selectFrom('currencyPayments as c')
        .leftJoin('thirdParties as t', 't.id', 'c.thirdPartyId')
        .select(['c.realPrice', 't.title as thirdParty'])
        .where('c.purchaseId', '=', purchaseId),
    ).as('payment'),
    jsonObjectFrom(
      db
        .selectFrom('users as payer')
        .select(['payer.firstName', 'payer.lastName'])
        .where('payer.id', '=', sql.ref<number>('purchases.payerUserId')),
    ).as('payer'),
    jsonObjectFrom(
      db
        .selectFrom('auditLog as a')
        .innerJoin('tasks as t', (j) => j.on(sql<boolean>`t.id::text = a.entity_id`))
        .select(['a.actorUserId', 'a.createdAt'])
        .where('a.entity', '=', 'task')
        .where('a.action', '=', 'claimTask')
        .where('t.purchaseId', '=', purchaseId)
        .where('t.type', 'in', PURCHASE_TASK_TYPES)
        .orderBy('a.id')
        .limit(1),
    ).as('claim'),
    sql<boolean>`exists (${db
      .selectFrom('paymentLinks')
      .select('id')
      .where('purchaseId', '=', purchaseId)
      .where('revokedAt', 'is', null)
      .where('expiresAt', '>', now)})`.as('paymentLinkLive'),
  ] as const;
}

/**
 * The request's timeline: each step with its time, words and the role that acted (staff's view also names the staff
 * member), and what comes next with its usual wait measured on the desk's last 30 days of requests.
 */
export async function requestTimeline(
  db: Db,
  purchaseId: number,
  view: 'customer' | 'staff',
  now: Date = new Date(),
): Promise<Timeline> {
  const row = await db
    .selectFrom('purchases')
    .select(TIMELINE_PURCHASE)
    .select(timelineSources(db, purchaseId, now))
    .where('purchases.id', '=', purchaseId)
    .executeTakeFirstOrThrow();
  return timelineOf(db, row, row, view, () => usualHoursToDone(db, row.desk, now));
}

/**
 * The timeline from what was read (`timelineSources`); `usualHours` is asked only when the next step has a usual
 * wait. Staff's view names the staff members who acted (one more query).
 */
export async function timelineOf(
  db: Db,
  purchase: TimelinePurchase,
  sources: TimelineSources,
  view: 'customer' | 'staff',
  usualHours: () => Promise<number | null>,
): Promise<Timeline> {
  const raw = stepsOf(purchase, sources);
  const names = new Map<number, string>();
  if (view === 'staff') {
    const ids = [...new Set(raw.map((r) => r.actorUserId).filter((id): id is number => id !== null))];
    if (ids.length > 0) {
      const users = await db
        .selectFrom('users')
        .select(['id', 'firstName', 'lastName', 'mobileNo', 'email', 'isStaff'])
        .where('id', 'in', ids)
        .execute();
      for (const u of users) if (u.isStaff) names.set(u.id, displayName(u));
    }
  }
  const steps: TimelineStep[] = raw.map(({ step, at, actorUserId }) => {
    const actor = stepActor(step);
    // The payer paid from their own wallet: not «شما» to the requester.
    const byPayer = step.kind === 'paid' && !!step.payer && actor === 'customer';
    return {
      kind: step.kind,
      at: at.toISOString(),
      words: stepWords(step),
      actor,
      actorTitle: byPayer ? 'پرداخت‌کننده' : actorTitle(actor, view),
      actorName: actor === 'staff' && actorUserId !== null ? (names.get(actorUserId) ?? null) : null,
    };
  });
  const last = raw.at(-1)?.step.kind;
  const next = last ? nextStepOf(last, { paymentLinkLive: last === 'submitted' && sources.paymentLinkLive }) : null;
  return {
    steps,
    next: next && {
      text: next.text,
      usualWait: next.timed ? usualWaitText(await usualHours()) : null,
    },
  };
}
