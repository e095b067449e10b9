/** Pure data for the request state history (customer's My requests and the staff requests page). */

/** Why a request entered a state (the history's cause), in Persian; unknown causes say nothing. */
export const STATE_CAUSES: Record<string, string> = {
  submitted: 'ثبت درخواست',
  paidFromWallet: 'پرداخت از کیف پول',
  paidOnline: 'پرداخت آنلاین',
  cancelledByCustomer: 'لغو توسط شما',
  fulfilled: 'پرداخت ارزی انجام شد؛ مابه‌التفاوت قیمت به کیف پول شما بازگشت',
  failedByStaff: 'انجام نشد؛ مبلغ به کیف پول شما بازگشت',
  refundedUserError: 'به دلیل خطا در اطلاعات شما انجام نشد؛ مبلغ پس از کسر کارمزد و مالیات به کیف پول شما بازگشت',
  profileL1Rejected: 'هویت شما تایید نشد؛ مبلغ به کیف پول شما بازگشت',
};
