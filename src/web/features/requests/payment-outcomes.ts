/**
 * What the customer reads on coming back from the bank (`?payment=` of the gateway callback's redirect), in the
 * terms of SPEC section 9: refunds within three working days, to the paying card only, no interest, no conversion.
 */
export type PaymentOutcome = 'success' | 'walletCredited' | 'cancelled' | 'failed' | 'cardMismatch' | 'pending';

export const PAYMENT_OUTCOMES: Record<
  PaymentOutcome,
  { color: 'green' | 'blue' | 'orange' | 'red'; title: string; text: string }
> = {
  success: {
    color: 'green',
    title: 'پرداخت با موفقیت انجام شد.',
    text: 'درخواست شما پرداخت شد و مبلغ آن برای انجام درخواست رزرو شد. کارشناسان ما کار را آغاز می‌کنند و وضعیت درخواست در همین صفحه به‌روز می‌شود.',
  },
  walletCredited: {
    color: 'orange',
    title: 'مبلغ به کیف پول شما واریز شد، اما درخواست پرداخت نشد.',
    text: 'پرداخت شما انجام شد و مبلغ آن به کیف پول شما رسید؛ ولی این درخواست با آن پرداخت نشد، چون در این فاصله لغو شده بود یا موجودی کیف پول دیگر برای آن کافی نبود. مبلغ در کیف پول شما می‌ماند و می‌توانید آن را برای درخواست‌های خود به کار ببرید.',
  },
  cancelled: {
    color: 'blue',
    title: 'پرداخت را در درگاه بانک لغو کردید.',
    text: 'هیچ مبلغی از کارت یا کیف پول شما برداشته نشد و همه‌چیز مانند پیش است. درخواست همچنان در انتظار پرداخت است و هر وقت خواستید می‌توانید آن را پرداخت کنید.',
  },
  failed: {
    color: 'red',
    title: 'پرداخت ناموفق بود.',
    text: 'درخواست پرداخت نشد و از کیف پول شما چیزی برداشته نشد. اگر مبلغی از کارت شما کسر شده باشد، حداکثر ظرف سه روز کاری به همان کارت بازمی‌گردد. می‌توانید دوباره پرداخت کنید.',
  },
  cardMismatch: {
    color: 'red',
    title: 'کارت پرداخت‌کننده به نام شما نبود.',
    text: 'طبق قوانین، پرداخت با کارت شخص دیگر پذیرفته نمی‌شود: درخواست پرداخت نشد و مبلغ به کیف پول شما نیز واریز نمی‌شود. مبلغ فقط به همان کارت پرداخت‌کننده، حداکثر ظرف سه روز کاری، بدون سود و بدون تبدیل ارز، بازگردانده می‌شود. لطفاً با کارت بانکی به نام خودتان دوباره پرداخت کنید.',
  },
  pending: {
    color: 'blue',
    title: 'نتیجه پرداخت هنوز از بانک نرسیده است.',
    text: 'به محض اینکه بانک نتیجه را اعلام کند، وضعیت درخواست در همین صفحه به‌روز می‌شود؛ لازم نیست دوباره پرداخت کنید.',
  },
};

export const isPaymentOutcome = (value: string | null): value is PaymentOutcome =>
  value !== null && Object.hasOwn(PAYMENT_OUTCOMES, value);

/** Why a request entered a state, in Persian (shared with the staff's request detail). */
export { STATE_CAUSES } from '../../components/payments/state-causes';

/** The state of an online payment, in Persian. */
export const ONLINE_PAYMENT_STATES: Record<string, { title: string; color: 'gray' | 'blue' | 'green' | 'red' }> = {
  new: { title: 'ایجاد شده', color: 'gray' },
  pending: { title: 'در انتظار نتیجه بانک', color: 'blue' },
  settled: { title: 'پرداخت شد', color: 'green' },
  cancelled: { title: 'لغو در درگاه', color: 'gray' },
  failed: { title: 'ناموفق', color: 'red' },
  cardMismatch: { title: 'کارت دیگری؛ بازگشت به همان کارت', color: 'red' },
};
