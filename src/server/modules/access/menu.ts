/** Which staff screens (named routes of the web app) each action opens. */
export const MENU_BY_ACTION: Record<string, string[]> = {
  viewTasks: ['tasks'],
  manageAccess: ['authorizationUsers', 'authorizationGroups', 'authorizationActions'],
  manageCurrencies: ['currencySettings'],
  // The system parameters are a section of the currency page, shown to whoever holds this action.
  manageSystemParameters: ['currencySettings'],
  manageCollections: ['collections', 'manualOrderCompletion'],
  viewCustomers: ['customers'],
  viewRequests: ['requests', 'supportThreads'],
  manageCurrencyPayments: ['currencyPayments'],
  manageWithdrawals: ['withdrawals'],
  proposeWalletCorrections: ['walletCorrections'],
  decideWalletCorrections: ['walletCorrections'],
  approveBankAccountOwnership: ['bankAccounts'],
  manageGoogleMccAccounts: ['googleMccAccounts'],
  manageGoogleAds: ['googleAdsAccounts'],
  manageCatalogue: ['catalogue', 'deskFunnel'],
  viewAuditLog: ['auditLog'],
  viewFailedSms: ['failedNotificationSms'],
  reconcile: ['reconciliation'],
  closeReconciliationDays: ['reconciliation'],
};

export const PAYMENT_PERMISSIONS_BY_ACTION: Record<string, string[]> = {
  manageCollections: ['payOffline'],
  manageCurrencyPayments: ['payCurrency'],
};

export const ADMIN_GROUP = 'administrators';

export function menuFor(actions: Iterable<string>): { menu: string[]; paymentPermissions: string[] } {
  const menu = new Set<string>();
  const payments = new Set<string>();
  for (const action of actions) {
    for (const m of MENU_BY_ACTION[action] ?? []) menu.add(m);
    for (const p of PAYMENT_PERMISSIONS_BY_ACTION[action] ?? []) payments.add(p);
  }
  return { menu: [...menu], paymentPermissions: [...payments] };
}
