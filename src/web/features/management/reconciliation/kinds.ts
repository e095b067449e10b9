/**
 * What each kind of reconciliation row is called in Persian, and what it usually means, in one map: a new kind of
 * the contract (ReconciliationRow.kind) is one more entry here, and the compiler asks for it.
 */
import type { components } from '../../../../generated/api';

export type ReconciliationKind = components['schemas']['ReconciliationRow']['kind'];

export const RECONCILIATION_KINDS: Record<ReconciliationKind, { label: string; hint: string }> = {
  matched: { label: 'همخوان', hint: 'درگاه، دریافت و دفتر با هم می‌خوانند.' },
  gatewayWithoutCollection: {
    label: 'تسویهٔ درگاه بدون دریافت',
    hint: 'بانک پولی را تسویه کرده که دریافتی برایش ثبت نشده است؛ مشتری را پیدا و دریافت را با کد رهگیری ثبت کنید.',
  },
  collectionWithoutSettlement: {
    label: 'دریافت بدون تسویهٔ درگاه',
    hint: 'کیف پولی شارژ شده که بانک تسویه‌اش را گزارش نکرده است؛ پیش از هر کار با درگاه تماس بگیرید.',
  },
  amountDiffers: { label: 'اختلاف مبلغ', hint: 'مبلغ تسویهٔ بانک با مبلغ دریافت ثبت‌شده یکی نیست.' },
  settledTwice: { label: 'تسویهٔ تکراری', hint: 'برای یک تسویهٔ بانک بیش از یک دریافت ثبت شده است.' },
  ledgerWithoutCollection: {
    label: 'ثبت دفتر بدون دریافت',
    hint: 'تراکنش دفتر کل بدون دریافت متناظر؛ این یک خطای نرم‌افزار است و باید گزارش شود.',
  },
  depositWithoutBankLine: {
    label: 'واریز بدون ردیف بانک',
    hint: 'واریز دستی ثبت شده که کد رهگیری‌اش در صورت‌حساب بانک نیست؛ پیش از هر کار حساب را بررسی کنید.',
  },
  withdrawalWithoutBankLine: {
    label: 'برداشت انجام‌شده بدون ردیف بانک',
    hint: 'برداشتی انجام‌شده ثبت شده که شمارهٔ پیگیری‌اش در صورت‌حساب بانک نیست؛ با بانک و شمارهٔ ثبت‌شده تطبیق دهید.',
  },
  collectionWithoutPosting: {
    label: 'دریافت بدون ثبت دفتر',
    hint: 'بانک و دریافت با هم می‌خوانند اما این پول در دفتر کل (کیف پول مشتری) ثبت نشده است؛ این یک خطای نرم‌افزار است و باید گزارش شود.',
  },
  postingDiffers: {
    label: 'ثبت دفتر با مبلغ دیگر',
    hint: 'بانک و دریافت با هم می‌خوانند اما دفتر کل مبلغ دیگری ثبت کرده یا آن را دو بار ثبت کرده است؛ گزارش کنید و کیف پول مشتری را بررسی کنید.',
  },
  payoutDiffers: {
    label: 'اختلاف مبلغ تسویهٔ درگاه با حساب بانکی',
    hint: 'درگاه درآمد روز(های) گفته‌شده را با مبلغی جز دریافت‌های آن روزها به حساب بانکی ما واریز کرده است؛ مابه‌التفاوت را از درگاه پیگیری کنید.',
  },
  payoutMissing: {
    label: 'تسویهٔ درگاه به حساب بانکی نرسیده',
    hint: 'مهلت معمول واریز درآمد این روز درگاه به حساب بانکی گذشته و ردیف آن در صورت‌حساب بانک نیست؛ با درگاه و بانک تماس بگیرید.',
  },
  bankLineWithoutRecord: {
    label: 'ردیف بانک بدون ثبت',
    hint: 'پولی به حساب آمده یا رفته که هیچ واریز یا برداشتی آن را توضیح نمی‌دهد؛ واریز را ثبت کنید یا با توضیح رسیدگی کنید.',
  },
};

export const kindLabel = (kind: string): string =>
  (RECONCILIATION_KINDS as Record<string, { label: string }>)[kind]?.label ?? kind;
export const kindHint = (kind: string): string =>
  (RECONCILIATION_KINDS as Record<string, { hint: string }>)[kind]?.hint ?? '';
