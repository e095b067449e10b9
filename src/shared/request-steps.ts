/**
 * The steps of a request (a purchase, «درخواست») described once: what each step is called on the request's timeline,
 * who acted (a role: a customer never reads a staff member's name), the notification it sends the customer, and what
 * comes next. The server builds the timeline and writes the notifications from these same descriptions, so a
 * timeline and the messages a customer got never tell two stories.
 */
import type { NotificationKind, NotificationParams } from './notifications';
import { formatRial, toPersianDigits } from './format';

/** How a request was paid: from the wallet, through the bank's gateway, or a deposit staff recorded by hand. */
export type PaidHow = 'wallet' | 'online' | 'offline';

export type RequestStep =
  | { kind: 'submitted' }
  /** `payer`: who paid it through its payment link, as the link names people (first name, last initial). */
  | { kind: 'paid'; how: PaidHow; amount: number; payer?: string | null }
  | { kind: 'taken' }
  /** Carried out: `priceAmount` what it really cost, `returnedAmount` the difference back in the wallet. */
  | { kind: 'done'; priceAmount: number; returnedAmount: number; thirdParty: string | null; googleAds?: boolean }
  /** Staff could not carry it out: the whole reservation released. */
  | { kind: 'failed'; reason: string; releasedAmount: number }
  /** Failed through the customer's own error: fee and tax kept. */
  | { kind: 'refunded'; reason: string; keptAmount: number; returnedAmount: number }
  /** The customer's profile was rejected: the reservation released. */
  | { kind: 'invalidated'; reason: string; releasedAmount: number }
  | { kind: 'cancelled' }
  /** Not done by the time promised at payment (decision 041): `amount` paid to the payer's wallet by the server. */
  | { kind: 'compensated'; amount: number; doneBy: string };

export type RequestStepKind = RequestStep['kind'];

/** Who acted, as a role. */
export type StepActor = 'customer' | 'staff' | 'bank' | 'system';

const ACTOR_TITLES: Record<StepActor, string> = {
  customer: 'شما',
  staff: 'کارشناس',
  bank: 'درگاه بانک',
  system: 'سامانه',
};

/** The role in Persian: the customer reads «شما» for their own steps, staff read «مشتری». */
export function actorTitle(actor: StepActor, view: 'customer' | 'staff'): string {
  return actor === 'customer' && view === 'staff' ? 'مشتری' : ACTOR_TITLES[actor];
}

/** The role that took a step (a staff member's name is added only on staff's view). */
export function stepActor(step: RequestStep): StepActor {
  switch (step.kind) {
    case 'submitted':
    case 'cancelled':
      return 'customer';
    case 'paid':
      return step.how === 'wallet' ? 'customer' : step.how === 'online' ? 'bank' : 'staff';
    case 'invalidated':
    case 'compensated':
      return 'system';
    default:
      return 'staff';
  }
}

const PAID_HOW: Record<PaidHow, string> = {
  wallet: 'از کیف پول',
  online: 'از درگاه بانک',
  offline: 'با واریز ثبت‌شده توسط کارشناس',
};

/** What happened, in the words the timeline shows. */
export function stepWords(step: RequestStep): string {
  switch (step.kind) {
    case 'submitted':
      return 'درخواست ثبت شد';
    case 'paid':
      return `پرداخت شد؛ ${formatRial(step.amount)} ${PAID_HOW[step.how]}${step.payer ? ` توسط ${step.payer} با پیوند پرداخت` : ''}`;
    case 'taken':
      return 'کارشناس درخواست را برداشت';
    case 'done': {
      const paid = step.googleAds
        ? 'حساب گوگل ادز شارژ شد'
        : step.thirdParty
          ? `هزینه به ${step.thirdParty} پرداخت شد`
          : 'هزینه پرداخت شد';
      const back = step.returnedAmount > 0 ? `؛ ${formatRial(step.returnedAmount)} به کیف پول برگشت` : '';
      return `${paid}${back}`;
    }
    case 'failed':
      return `انجام نشد: ${step.reason}؛ ${formatRial(step.releasedAmount)} در کیف پول آزاد شد`;
    case 'refunded':
      return `به دلیل خطای کاربر انجام نشد: ${step.reason}؛ ${formatRial(step.keptAmount)} کارمزد و مالیات کسر و ${formatRial(step.returnedAmount)} به کیف پول برگشت`;
    case 'invalidated':
      return `باطل شد: ${step.reason}؛ ${formatRial(step.releasedAmount)} در کیف پول آزاد شد`;
    case 'cancelled':
      return 'درخواست لغو شد';
    case 'compensated':
      return `تا ${step.doneBy} که قول داده بودیم انجام نشد؛ ${formatRial(step.amount)} جبران به کیف پول برگشت`;
  }
}

/** The customer's notification of a step (null: the step tells nobody), with the request's title. */
export function stepNotification(
  step: RequestStep,
  title: string,
): { kind: NotificationKind; params: NotificationParams } | null {
  switch (step.kind) {
    case 'paid':
      return { kind: 'purchasePaid', params: { title, amount: step.amount } };
    case 'taken':
      return { kind: 'purchaseTaken', params: { title } };
    case 'done':
      return {
        kind: 'purchaseDone',
        params: { title, priceAmount: step.priceAmount, returnedAmount: step.returnedAmount },
      };
    case 'failed':
    case 'invalidated':
      return { kind: 'purchaseFailed', params: { title, reason: step.reason, releasedAmount: step.releasedAmount } };
    case 'compensated':
      return { kind: 'promiseCompensated', params: { title, doneBy: step.doneBy, amount: step.amount } };
    case 'refunded':
      return {
        kind: 'purchaseRefunded',
        params: { title, reason: step.reason, keptAmount: step.keptAmount, returnedAmount: step.returnedAmount },
      };
    default:
      return null;
  }
}

/**
 * What comes after the last step, and whether its usual wait (from the desk's recent requests) applies. While a
 * payment link is live the request waits for its payer, not for the customer (decision 028).
 */
export function nextStepOf(
  last: RequestStepKind,
  options: { paymentLinkLive?: boolean } = {},
): { text: string; timed: boolean } | null {
  switch (last) {
    case 'submitted':
      return options.paymentLinkLive
        ? { text: 'پیوند پرداخت فرستاده شده است و درخواست منتظر پرداخت پرداخت‌کننده است', timed: false }
        : { text: 'پرداخت هزینهٔ درخواست توسط شما', timed: false };
    case 'paid':
      return { text: 'کارشناس درخواست را برمی‌دارد و انجام می‌دهد', timed: true };
    case 'taken':
    case 'compensated':
      return { text: 'کارشناس هزینه را پرداخت می‌کند و نتیجه را ثبت می‌کند', timed: true };
    default:
      return null;
  }
}

/**
 * The usual wait in words, from a median number of hours: «معمولاً تا ۶ ساعت» (rounded up), «معمولاً کمتر از یک
 * ساعت», «معمولاً تا ۳ روز» from two days on; null when there is no median.
 */
export function usualWaitText(medianHours: number | null): string | null {
  if (medianHours === null || !Number.isFinite(medianHours) || medianHours < 0) return null;
  if (medianHours < 1) return 'معمولاً کمتر از یک ساعت';
  if (medianHours < 48) return `معمولاً تا ${toPersianDigits(Math.ceil(medianHours))} ساعت`;
  return `معمولاً تا ${toPersianDigits(Math.ceil(medianHours / 24))} روز`;
}

/** Fewer finished requests than this in the window: no usual wait is claimed. */
export const USUAL_WAIT_MIN_SAMPLES = 3;
/** The window of recent requests the usual wait is measured over. */
export const USUAL_WAIT_DAYS = 30;
