/** A verified receipt's state in the reader's two languages (the server names it: VerifiedReceipt.state). */
import type { VerifiedReceipt } from '../../lib/queries/receipt-verification';

type State = VerifiedReceipt['state'];

export const STATE_TEXT: Record<State, { fa: string; en: string; color: 'green' | 'blue' | 'amber' | 'red' | 'gray' }> =
  {
    waitingForPayment: { fa: 'در انتظار پرداخت', en: 'Waiting for payment', color: 'amber' },
    paid: { fa: 'پرداخت شده، در صف انجام', en: 'Paid, waiting to be carried out', color: 'blue' },
    inProgress: { fa: 'پرداخت شده، در حال انجام', en: 'Paid, being carried out', color: 'blue' },
    done: { fa: 'انجام شد (پرداخت ارزی انجام شده است)', en: 'Done (the foreign payment was made)', color: 'green' },
    refunded: { fa: 'انجام نشد؛ مبلغ بازگردانده شد', en: 'Not carried out; the money was refunded', color: 'red' },
    cancelled: { fa: 'لغو شد', en: 'Cancelled', color: 'gray' },
    walletDeposit: { fa: 'دریافت شد (واریز به کیف پول)', en: 'Received (paid into the wallet)', color: 'green' },
    returnedToCard: {
      fa: 'به کارت پرداخت‌کننده بازگردانده شد',
      en: "Returned to the paying card (not the customer's own)",
      color: 'red',
    },
  };
