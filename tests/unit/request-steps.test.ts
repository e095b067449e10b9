/** The one description of a request's steps: the timeline's words, the role that acted, the notification, what next. */
import { describe, expect, it } from 'vitest';
import { renderNotification } from '../../src/shared/notifications';
import {
  actorTitle,
  type RequestStep,
  nextStepOf,
  stepActor,
  stepNotification,
  stepWords,
  usualWaitText,
} from '../../src/shared/request-steps';

describe('stepWords', () => {
  it('says what happened in Persian, amounts in Persian digits with «ریال»', () => {
    expect(stepWords({ kind: 'paid', how: 'wallet', amount: 1_035_000 })).toBe('پرداخت شد؛ ۱٬۰۳۵٬۰۰۰ ریال از کیف پول');
    expect(stepWords({ kind: 'taken' })).toBe('کارشناس درخواست را برداشت');
    expect(stepWords({ kind: 'done', priceAmount: 5_000_000, returnedAmount: 1_200_000, thirdParty: 'ETS' })).toBe(
      'هزینه به ETS پرداخت شد؛ ۱٬۲۰۰٬۰۰۰ ریال به کیف پول برگشت',
    );
    expect(stepWords({ kind: 'done', priceAmount: 5_000_000, returnedAmount: 0, thirdParty: null })).toBe(
      'هزینه پرداخت شد',
    );
    expect(
      stepWords({ kind: 'refunded', reason: 'نام کاربری اشتباه', keptAmount: 33_000, returnedAmount: 967_000 }),
    ).toBe(
      'به دلیل خطای کاربر انجام نشد: نام کاربری اشتباه؛ ۳۳٬۰۰۰ ریال کارمزد و مالیات کسر و ۹۶۷٬۰۰۰ ریال به کیف پول برگشت',
    );
  });
});

describe('stepActor', () => {
  it('names a role, never a person', () => {
    expect(stepActor({ kind: 'submitted' })).toBe('customer');
    expect(stepActor({ kind: 'paid', how: 'online', amount: 1 })).toBe('bank');
    expect(stepActor({ kind: 'paid', how: 'offline', amount: 1 })).toBe('staff');
    expect(stepActor({ kind: 'taken' })).toBe('staff');
    expect(stepActor({ kind: 'invalidated', reason: 'x', releasedAmount: 1 })).toBe('system');
    expect(actorTitle('customer', 'customer')).toBe('شما');
    expect(actorTitle('customer', 'staff')).toBe('مشتری');
    expect(actorTitle('staff', 'customer')).toBe('کارشناس');
  });
});

describe('stepNotification', () => {
  it('gives each step that matters its kind and params, and the rendered text its amounts', () => {
    const done: RequestStep = { kind: 'done', priceAmount: 900_000, returnedAmount: 100_000, thirdParty: 'ETS' };
    const n = stepNotification(done, 'آزمون تافل (12)')!;
    expect(n).toEqual({
      kind: 'purchaseDone',
      params: { title: 'آزمون تافل (12)', priceAmount: 900_000, returnedAmount: 100_000 },
    });
    expect(renderNotification(n.kind, n.params)).toBe(
      'درخواست «آزمون تافل (۱۲)» انجام شد؛ هزینهٔ نهایی ۹۰۰٬۰۰۰ ریال، ۱۰۰٬۰۰۰ ریال به کیف پول برگشت.',
    );
    expect(stepNotification({ kind: 'invalidated', reason: 'r', releasedAmount: 5 }, 't')?.kind).toBe('purchaseFailed');
    expect(stepNotification({ kind: 'submitted' }, 't')).toBeNull();
    expect(stepNotification({ kind: 'cancelled' }, 't')).toBeNull();
  });
});

describe('what comes next', () => {
  it('waits on staff after paying and taking, on nobody once ended', () => {
    expect(nextStepOf('submitted')).toMatchObject({ timed: false });
    expect(nextStepOf('paid')).toMatchObject({ timed: true });
    // A live payment link: the request waits for its payer, not for the customer (decision 028).
    expect(nextStepOf('submitted', { paymentLinkLive: true })?.text).toBe(
      'پیوند پرداخت فرستاده شده است و درخواست منتظر پرداخت پرداخت‌کننده است',
    );
    expect(nextStepOf('taken')).toMatchObject({ timed: true });
    expect(nextStepOf('done')).toBeNull();
    expect(nextStepOf('refunded')).toBeNull();
  });

  it('says the usual wait in Persian digits, rounded up', () => {
    expect(usualWaitText(null)).toBeNull();
    expect(usualWaitText(0.2)).toBe('معمولاً کمتر از یک ساعت');
    expect(usualWaitText(5.1)).toBe('معمولاً تا ۶ ساعت');
    expect(usualWaitText(50)).toBe('معمولاً تا ۳ روز');
  });
});
