/**
 * What the product tells people, in one place: each notification kind with its Persian label (the preferences page),
 * its text template (the list in the app and the SMS), whether it can be turned off, and who receives it. The server
 * renders a notification's text once, when it is written; the web reads the labels. Placeholders are `{name}`;
 * numbers are written in Persian digits and amounts with «ریال» by `renderNotification`.
 */
import { addTehranDays, tehranDayOf, tehranHour, tehranInstant } from './calendar/tehran-day';
import { formatRial, toPersianDigits } from './format';

export type NotificationChannel = 'inApp' | 'sms';
export const NOTIFICATION_CHANNELS: readonly NotificationChannel[] = ['inApp', 'sms'];

interface KindSpec {
  /** What the preferences page calls it. */
  label: string;
  /** The text, with `{placeholders}`; amounts (params ending in "Amount" or named "amount") get «ریال». */
  template: string;
  /** Security notices cannot be turned off and are sent at night too. */
  security?: boolean;
  /** Staff kinds go to staff who hold an action, customers' to the customer. */
  audience: 'customer' | 'staff';
}

export const NOTIFICATION_KINDS = {
  purchasePaid: {
    label: 'پرداخت درخواست',
    template: 'درخواست «{title}» پرداخت شد؛ مبلغ {amount}.',
    audience: 'customer',
  },
  purchasePaidByOther: {
    label: 'پرداخت درخواست توسط دیگری',
    template:
      'درخواست «{title}» را {payerName} با پیوند پرداخت، پرداخت کرد؛ مبلغ {amount}. رسید آن در «پرداخت‌های آنلاین» همین درخواست است.',
    audience: 'customer',
  },
  // The payer's own word that their payment through someone's link went through (decision 028): the request
  // is not theirs to open, so the receipt is named where they can open it, their wallet's transactions.
  purchasePaidForOther: {
    label: 'پرداخت درخواست دیگری با پیوند پرداخت',
    template:
      'درخواست «{title}» {requesterName} را با پیوند پرداخت، پرداخت کردید؛ مبلغ {amount}. رسید آن در «موجودی مالی من» است.',
    audience: 'customer',
  },
  purchaseTaken: {
    label: 'برداشتن درخواست توسط کارشناس',
    template: 'کارشناس درخواست «{title}» را برداشت و در حال انجام آن است.',
    audience: 'customer',
  },
  purchaseDone: {
    label: 'انجام درخواست',
    template: 'درخواست «{title}» انجام شد؛ هزینهٔ نهایی {priceAmount}، {returnedAmount} به کیف پول{whose} برگشت.',
    audience: 'customer',
  },
  purchaseFailed: {
    label: 'ناموفق شدن درخواست',
    template: 'درخواست «{title}» انجام نشد: {reason}. {releasedAmount} در کیف پول{whose} آزاد شد.',
    audience: 'customer',
  },
  purchaseRefunded: {
    label: 'بازگشت وجه پس از خطای کاربر',
    template:
      'درخواست «{title}» به دلیل «{reason}» انجام نشد؛ {keptAmount} کسر و {returnedAmount} به کیف پول{whose} برگشت.',
    audience: 'customer',
  },
  // Sent instead of profileApproved to someone who opened a payment link before their identity was approved.
  payLinkPayable: {
    label: 'آماده شدن پیوند پرداخت پس از تأیید پروفایل',
    template:
      'پروفایل شما تأیید شد؛ اکنون می‌توانید درخواست «{title}» {requesterName} را با همان پیوند پرداختی که برایتان فرستاده شده، پرداخت کنید؛ مبلغ {amount}.',
    audience: 'customer',
  },
  profileApproved: {
    label: 'تأیید پروفایل',
    template: 'پروفایل شما تأیید شد.',
    audience: 'customer',
  },
  profileRejected: {
    label: 'رد پروفایل',
    template: 'پروفایل شما تأیید نشد: {reason}.',
    audience: 'customer',
  },
  bankAccountApproved: {
    label: 'تأیید حساب بانکی',
    template: 'حساب بانکی {iban} تأیید شد.',
    audience: 'customer',
  },
  bankAccountRejected: {
    label: 'رد حساب بانکی',
    template: 'حساب بانکی {iban} تأیید نشد: {reason}.',
    audience: 'customer',
  },
  withdrawalDone: {
    label: 'واریز برداشت',
    template: 'برداشت {amount} از کیف پول به حساب شما واریز شد.',
    audience: 'customer',
  },
  withdrawalRefused: {
    label: 'رد برداشت',
    template: 'برداشت {amount} انجام نشد: {reason}. مبلغ به کیف پول برگشت.',
    audience: 'customer',
  },
  walletCorrected: {
    label: 'اصلاح موجودی کیف پول',
    template: 'موجودی کیف پول شما {amount} {direction} یافت: {reason}.',
    audience: 'customer',
  },
  staffReply: {
    label: 'پاسخ کارشناس',
    template: 'کارشناس به پیام شما دربارهٔ «{title}» پاسخ داد.',
    audience: 'customer',
  },
  deadlineAtRisk: {
    label: 'نزدیک شدن مهلت',
    template: 'مهلت درخواست «{title}» کمتر از {hours} ساعت دیگر است.',
    audience: 'customer',
  },
  promiseCompensated: {
    label: 'جبران قول انجام‌نشده',
    template: 'درخواست «{title}» تا {doneBy} که قول داده بودیم انجام نشد؛ {amount} جبران به کیف پول{whose} برگشت.',
    audience: 'customer',
  },
  rateAlert: {
    label: 'هشدار نرخ ارز',
    template: 'نرخ {currency} به {rateAmount} رسید؛ هشدار شما: {thresholdAmount} {condition}.',
    audience: 'customer',
  },
  passwordChanged: {
    label: 'تغییر رمز عبور',
    template: 'رمز عبور حساب شما تغییر کرد. اگر شما نبودید، با پشتیبانی تماس بگیرید.',
    security: true,
    audience: 'customer',
  },
  staffDeadlineAtRisk: {
    label: 'مهلت در خطر (کارشناس)',
    template: 'مهلت درخواست «{title}» کمتر از {hours} ساعت دیگر است و هنوز انجام نشده.',
    audience: 'staff',
  },
  staffReconciliationUnmatched: {
    label: 'ناهمخوانی در تطبیق روزانه (کارشناس)',
    template: 'تطبیق روز {day}: {count} ردیف ناهمخوان تازه پیدا شد؛ آن‌ها را در صفحهٔ «تطبیق روزانه» بررسی کنید.',
    audience: 'staff',
  },
} as const satisfies Record<string, KindSpec>;

export type NotificationKind = keyof typeof NOTIFICATION_KINDS;
export const NOTIFICATION_KIND_NAMES = Object.keys(NOTIFICATION_KINDS) as NotificationKind[];

export type NotificationParams = Record<string, string | number>;

export function isNotificationKind(kind: string): kind is NotificationKind {
  return Object.hasOwn(NOTIFICATION_KINDS, kind);
}

export function isSecurityKind(kind: NotificationKind): boolean {
  return 'security' in NOTIFICATION_KINDS[kind] && NOTIFICATION_KINDS[kind].security === true;
}

const isAmount = (name: string) => name === 'amount' || name.endsWith('Amount');

/** The Persian text of a notification: amounts with «ریال», every other number in Persian digits. */
export function renderNotification(kind: NotificationKind, params: NotificationParams): string {
  return NOTIFICATION_KINDS[kind].template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) return '';
    if (isAmount(name)) return formatRial(value);
    return toPersianDigits(String(value));
  });
}

export const QUIET_HOURS = { from: 22, to: 8 } as const;

/**
 * When an SMS written at `now` may go out: at once, unless it is quiet time in Tehran (22:00–08:00) and the kind is
 * not a security notice, then at the next 08:00 Tehran time. A `deadline` the SMS warns of that falls before that
 * 08:00 is a reason to send at night: held until morning, the warning would arrive after it (decision 033).
 */
export function smsDueAt(now: Date, kind: NotificationKind, deadline?: Date | null): Date {
  if (isSecurityKind(kind)) return now;
  const hour = tehranHour(now);
  if (hour >= QUIET_HOURS.to && hour < QUIET_HOURS.from) return now;
  const today = tehranDayOf(now);
  const due = tehranInstant(hour >= QUIET_HOURS.from ? addTehranDays(today, 1) : today, QUIET_HOURS.to);
  return deadline && deadline.getTime() <= due.getTime() ? now : due;
}
