/** The notification kinds' texts and the SMS quiet hours (src/shared/notifications.ts). */
import { describe, expect, it } from 'vitest';
import {
  isNotificationKind,
  isSecurityKind,
  NOTIFICATION_KIND_NAMES,
  NOTIFICATION_KINDS,
  renderNotification,
  smsDueAt,
} from '../../src/shared/notifications';

/** A moment given in Tehran time (UTC+03:30 all year). */
const tehran = (isoLocal: string) => new Date(new Date(`${isoLocal}Z`).getTime() - 210 * 60_000);

describe('renderNotification', () => {
  it('writes amounts with separators, Persian digits and «ریال», and other numbers in Persian digits', () => {
    expect(renderNotification('purchasePaid', { title: 'تافل 2025', amount: 12_500_000 })).toBe(
      'درخواست «تافل ۲۰۲۵» پرداخت شد؛ مبلغ ۱۲٬۵۰۰٬۰۰۰ ریال.',
    );
    expect(
      renderNotification('purchaseDone', { title: 'GRE', priceAmount: 9_000_000, returnedAmount: 1_200_000 }),
    ).toBe('درخواست «GRE» انجام شد؛ هزینهٔ نهایی ۹٬۰۰۰٬۰۰۰ ریال، ۱٬۲۰۰٬۰۰۰ ریال به کیف پول برگشت.');
    expect(renderNotification('deadlineAtRisk', { title: 'سفارت', hours: 48 })).toBe(
      'مهلت درخواست «سفارت» کمتر از ۴۸ ساعت دیگر است.',
    );
  });

  it('leaves a missing placeholder empty and has no ASCII digit in any text', () => {
    expect(renderNotification('profileRejected', {})).toBe('پروفایل شما تأیید نشد: .');
    for (const kind of NOTIFICATION_KIND_NAMES) {
      const text = renderNotification(kind, { title: 'a1', amount: 10, reason: 'r2', iban: 'IR12', hours: 3 });
      expect(text).not.toMatch(/\{\w+\}/);
      expect(text).not.toMatch(/[0-9]/);
    }
  });

  it('knows its kinds; only security notices are locked', () => {
    expect(isNotificationKind('purchasePaid')).toBe(true);
    expect(isNotificationKind('constructor')).toBe(false);
    expect(NOTIFICATION_KIND_NAMES.filter(isSecurityKind)).toEqual(['passwordChanged']);
    expect(Object.keys(NOTIFICATION_KINDS)).toEqual(NOTIFICATION_KIND_NAMES);
  });
});

describe('smsDueAt (quiet hours 22:00–08:00 Tehran)', () => {
  it('sends at once by day, up to 21:59', () => {
    for (const at of ['2026-03-10T08:00:00', '2026-03-10T13:15:00', '2026-03-10T21:59:00']) {
      expect(smsDueAt(tehran(at), 'purchasePaid')).toEqual(tehran(at));
    }
  });

  it('holds an SMS of 22:00 until 08:00 the next day, and one after midnight until 08:00 that day', () => {
    expect(smsDueAt(tehran('2026-03-10T22:00:00'), 'purchasePaid')).toEqual(tehran('2026-03-11T08:00:00'));
    expect(smsDueAt(tehran('2026-03-10T23:59:59'), 'staffReply')).toEqual(tehran('2026-03-11T08:00:00'));
    expect(smsDueAt(tehran('2026-03-11T03:00:00'), 'purchaseTaken')).toEqual(tehran('2026-03-11T08:00:00'));
    expect(smsDueAt(tehran('2026-03-11T07:59:00'), 'withdrawalDone')).toEqual(tehran('2026-03-11T08:00:00'));
    // Across a month's end.
    expect(smsDueAt(tehran('2026-03-31T22:30:00'), 'purchasePaid')).toEqual(tehran('2026-04-01T08:00:00'));
  });

  it('sends at night at once when the deadline it warns of falls before 08:00, and holds it otherwise', () => {
    const night = tehran('2026-03-10T23:00:00');
    expect(smsDueAt(night, 'deadlineAtRisk', tehran('2026-03-11T00:00:00'))).toEqual(night);
    expect(smsDueAt(night, 'staffDeadlineAtRisk', tehran('2026-03-11T08:00:00'))).toEqual(night);
    expect(smsDueAt(night, 'deadlineAtRisk', tehran('2026-03-12T00:00:00'))).toEqual(tehran('2026-03-11T08:00:00'));
    expect(smsDueAt(night, 'deadlineAtRisk', null)).toEqual(tehran('2026-03-11T08:00:00'));
    // By day a deadline changes nothing: the SMS goes at once anyway.
    expect(smsDueAt(tehran('2026-03-11T09:00:00'), 'deadlineAtRisk', tehran('2026-03-11T10:00:00'))).toEqual(
      tehran('2026-03-11T09:00:00'),
    );
  });

  it('sends a security notice at night at once', () => {
    for (const at of ['2026-03-10T22:00:00', '2026-03-11T03:00:00', '2026-03-11T07:59:00']) {
      expect(smsDueAt(tehran(at), 'passwordChanged')).toEqual(tehran(at));
    }
  });
});
