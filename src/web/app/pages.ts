/**
 * The page of each route of lib/routes.ts, loaded lazily: each area is its own chunk so the first page stays
 * small. The record is keyed by route name, so a route without a page (or a page for no route) does not compile.
 */
import type { ComponentType } from 'react';
import ErrorPage from '../features/errors/ErrorPage';
import { lazyPage } from '../lib/lazy-page';
import type { RouteName } from '../lib/routes';

const Dashboard = lazyPage(() => import('../features/dashboard/DashboardPage'));
const Services = lazyPage(() => import('../features/catalogue/ServicesPage'));
const Desk = lazyPage(() => import('../features/catalogue/DeskPage'));
const Terms = lazyPage(() => import('../features/terms/TermsPage'));
const Login = lazyPage(() => import('../features/auth/LoginPage'));
const Profile = lazyPage(() => import('../features/profile/ProfilePage'));
const Account = lazyPage(() => import('./MyAccountPage'));
const MyWallet = lazyPage(() => import('../features/wallet/MyWalletPage'));
const Receipt = lazyPage(() => import('../features/wallet/ReceiptPage'));
const ProofLetter = lazyPage(() => import('../features/requests/ProofLetterPage'));
const MyRequests = lazyPage(() => import('../features/requests/MyRequestsPage'));
const MyPlan = lazyPage(() => import('../features/plans/MyPlanPage'));
const Currencies = lazyPage(() => import('../features/management/currencies/CurrenciesPage'));
const Requests = lazyPage(() => import('../features/management/RequestsPage'));
const SupportThreads = lazyPage(() => import('../features/management/support/SupportThreadsPage'));
const Customers = lazyPage(() => import('../features/management/CustomersPage'));
const Collections = lazyPage(() => import('../features/management/collections/CollectionsPage'));
const ManualCompletion = lazyPage(() => import('../features/management/collections/ManualCompletionPage'));
const CurrencyPayments = lazyPage(() => import('../features/management/currency-payments/CurrencyPaymentsPage'));
const CustomerWallet = lazyPage(() => import('../features/wallet/CustomerWalletPage'));
const Management = lazyPage(() => import('../features/management/ManagementHomePage'));
const Tasks = lazyPage(() => import('../features/management/tasks/TasksPage'));
const Withdrawals = lazyPage(() => import('../features/management/withdrawals/WithdrawalsPage'));
const DeskFunnel = lazyPage(() => import('../features/management/funnel/DeskFunnelPage'));
const WalletCorrections = lazyPage(() => import('../features/management/wallet-corrections/WalletCorrectionsPage'));
const BankAccounts = lazyPage(() => import('../features/management/bank-accounts/BankAccountsPage'));
const Users = lazyPage(() => import('../features/management/access/UsersPage'));
const Groups = lazyPage(() => import('../features/management/access/GroupsPage'));
const GoogleMccAccounts = lazyPage(() => import('../features/management/google-ads/GoogleMccAccountsPage'));
const GoogleAdsAccounts = lazyPage(() => import('../features/management/google-ads/GoogleAdsAccountsPage'));
const MyGoogleAdsAccounts = lazyPage(() => import('../features/google-ads/MyGoogleAdsAccountsPage'));
const Actions = lazyPage(() => import('../features/management/access/ActionsPage'));
const AuditLog = lazyPage(() => import('../features/management/audit-log/AuditLogPage'));
const FailedSms = lazyPage(() => import('../features/management/notifications/FailedSmsPage'));
const Reconciliation = lazyPage(() => import('../features/management/reconciliation/ReconciliationPage'));
const Notifications = lazyPage(() => import('../features/notifications/NotificationsPage'));
const PayLink = lazyPage(() => import('../features/pay-link/PayLinkPage'));
const PayResult = lazyPage(() => import('../features/pay-link/PayResultPage'));
const VerifyReceipt = lazyPage(() => import('../features/verify/VerifyPage'));
const Catalogue = lazyPage(() => import('../features/management/catalogue/CatalogueEditorPage'));

export const PAGES: Record<RouteName, ComponentType> = {
  dashboard: Dashboard,
  customerWallet: CustomerWallet,
  login: Login,
  management: Management,
  authorizationUsers: Users,
  authorizationGroups: Groups,
  authorizationActions: Actions,
  tasks: Tasks,
  currencySettings: Currencies,
  requests: Requests,
  supportThreads: SupportThreads,
  customers: Customers,
  collections: Collections,
  manualOrderCompletion: ManualCompletion,
  withdrawals: Withdrawals,
  walletCorrections: WalletCorrections,
  deskFunnel: DeskFunnel,
  bankAccounts: BankAccounts,
  currencyPayments: CurrencyPayments,
  googleMccAccounts: GoogleMccAccounts,
  googleAdsAccounts: GoogleAdsAccounts,
  catalogue: Catalogue,
  auditLog: AuditLog,
  failedNotificationSms: FailedSms,
  reconciliation: Reconciliation,
  notifications: Notifications,
  desk: Desk,
  underConstructionDesk: Desk,
  myAccount: Account,
  myWallet: MyWallet,
  receipt: Receipt,
  proofLetter: ProofLetter,
  myProfile: Profile,
  myRequests: MyRequests,
  myPlan: MyPlan,
  myGoogleAdsAccounts: MyGoogleAdsAccounts,
  termsAndConditions: Terms,
  payLink: PayLink,
  payResult: PayResult,
  services: Services,
  servicesCategory: Services,
  errors: ErrorPage,
  verifyReceiptForm: VerifyReceipt,
  verifyReceipt: VerifyReceipt,
};
