/**
 * The route table of SPEC section 2 in one place, as data: name, path, parent (for breadcrumbs), access mode and
 * Persian title. Pure, so components (breadcrumbs, menus) and features (links) can use it; the lazily loaded page
 * of each route is bound in app/pages.ts, the only place that knows every page.
 */

/** `staff`: login-required, and the server's access menu must name the route (see lib/policy). */
export type Access = 'public' | 'login' | 'guest' | 'staff';

export interface RouteDef {
  name: string;
  path: string;
  title: string;
  access: Access;
  parent?: string;
}

export const routes = [
  { name: 'dashboard', path: '/', title: 'خانه', access: 'public' },
  {
    name: 'customerWallet',
    path: '/customer-wallets/:id',
    title: 'موجودی مالی مشتری',
    access: 'public',
    parent: 'dashboard',
  },
  { name: 'login', path: '/login', title: 'ورود', access: 'guest', parent: 'dashboard' },
  { name: 'management', path: '/management', title: 'مدیریت', access: 'staff', parent: 'dashboard' },
  {
    name: 'authorizationUsers',
    path: '/management/authorization/users',
    title: 'کاربران',
    access: 'staff',
    parent: 'management',
  },
  {
    name: 'authorizationGroups',
    path: '/management/authorization/groups',
    title: 'گروه‌ها',
    access: 'staff',
    parent: 'management',
  },
  {
    name: 'authorizationActions',
    path: '/management/authorization/actions',
    title: 'دسترسی‌ها',
    access: 'staff',
    parent: 'management',
  },
  {
    name: 'tasks',
    path: '/management/tasks',
    title: 'کارهای جاری',
    access: 'staff',
    parent: 'management',
  },
  {
    name: 'currencySettings',
    path: '/management/currencies',
    title: 'مدیریت ارزها',
    access: 'staff',
    parent: 'management',
  },
  {
    name: 'requests',
    path: '/management/requests',
    title: 'درخواست‌ها',
    access: 'staff',
    parent: 'management',
  },
  {
    name: 'supportThreads',
    path: '/management/support-threads',
    title: 'گفتگوهای در انتظار پاسخ',
    access: 'staff',
    parent: 'management',
  },
  {
    name: 'customers',
    path: '/management/customers',
    title: 'مشتریان',
    access: 'staff',
    parent: 'management',
  },
  {
    name: 'collections',
    path: '/management/collections',
    title: 'دریافت‌ها',
    access: 'staff',
    parent: 'management',
  },
  {
    name: 'manualOrderCompletion',
    path: '/management/manual-completion',
    title: 'تکمیل دستی سفارش',
    access: 'staff',
    parent: 'management',
  },
  {
    name: 'withdrawals',
    path: '/management/withdrawals',
    title: 'برداشت‌ها',
    access: 'staff',
    parent: 'management',
  },
  {
    name: 'walletCorrections',
    path: '/management/walletCorrections',
    title: 'اصلاح کیف پول',
    access: 'staff',
    parent: 'management',
  },
  {
    name: 'bankAccounts',
    path: '/management/bankAccounts',
    title: 'حساب‌های بانکی برای تایید',
    access: 'staff',
    parent: 'management',
  },
  {
    name: 'currencyPayments',
    path: '/management/currencyPayments',
    title: 'پرداخت‌های ارزی',
    access: 'staff',
    parent: 'management',
  },
  {
    name: 'googleMccAccounts',
    path: '/management/googleMccAccounts',
    title: 'پنل‌های مدیریت تبلیغات',
    access: 'staff',
    parent: 'management',
  },
  {
    name: 'googleAdsAccounts',
    path: '/management/googleAdsAccounts',
    title: 'حساب‌های تبلیغاتی',
    access: 'staff',
    parent: 'management',
  },
  {
    name: 'auditLog',
    path: '/management/audit-log',
    title: 'رویدادنگار',
    access: 'staff',
    parent: 'management',
  },
  {
    name: 'catalogue',
    path: '/management/catalogue',
    title: 'کاتالوگ میزها و فرم‌ها',
    access: 'staff',
    parent: 'management',
  },
  {
    name: 'deskFunnel',
    path: '/management/funnel',
    title: 'قیف خدمت‌ها',
    access: 'staff',
    parent: 'management',
  },
  {
    name: 'failedNotificationSms',
    path: '/management/failed-sms',
    title: 'پیامک‌های ناموفق',
    access: 'staff',
    parent: 'management',
  },
  {
    name: 'reconciliation',
    path: '/management/reconciliation',
    title: 'تطبیق روزانه',
    access: 'staff',
    parent: 'management',
  },
  { name: 'desk', path: '/desks/:desk', title: 'میز خدمت', access: 'public', parent: 'services' },
  {
    name: 'underConstructionDesk',
    path: '/under-construction-desks/:desk',
    title: 'میز در دست راه‌اندازی',
    access: 'public',
    parent: 'services',
  },
  {
    name: 'myAccount',
    path: '/request/myAccount',
    title: 'حساب من',
    access: 'public',
    parent: 'dashboard',
  },
  {
    name: 'notifications',
    path: '/notifications',
    title: 'اعلان‌ها',
    access: 'public',
    parent: 'dashboard',
  },
  {
    name: 'myWallet',
    path: '/request/myWallet',
    title: 'موجودی مالی من',
    access: 'public',
    parent: 'dashboard',
  },
  {
    name: 'receipt',
    path: '/request/receipts/:id',
    title: 'رسید پرداخت',
    access: 'public',
    parent: 'myWallet',
  },
  {
    name: 'myProfile',
    path: '/request/myProfile',
    title: 'پروفایل من',
    access: 'public',
    parent: 'dashboard',
  },
  {
    name: 'myRequests',
    path: '/request/myRequests',
    title: 'درخواست‌های من',
    access: 'public',
    parent: 'dashboard',
  },
  {
    name: 'proofLetter',
    path: '/request/proof/:id',
    title: 'نامهٔ تأیید پرداخت',
    access: 'public',
    parent: 'myRequests',
  },
  {
    name: 'myPlan',
    path: '/request/myPlan',
    title: 'برنامه من',
    access: 'public',
    parent: 'dashboard',
  },
  {
    name: 'myGoogleAdsAccounts',
    path: '/myGoogleAdsAccounts',
    title: 'حساب‌های گوگل ادز من',
    access: 'public',
    parent: 'dashboard',
  },
  {
    name: 'termsAndConditions',
    path: '/request/termsAndConditions',
    title: 'قوانین و مقررات',
    access: 'public',
    parent: 'dashboard',
  },
  { name: 'payLink', path: '/pay/:token', title: 'پرداخت توسط دیگری', access: 'public', parent: 'dashboard' },
  { name: 'payResult', path: '/pay-result', title: 'نتیجه پرداخت', access: 'public', parent: 'dashboard' },
  { name: 'services', path: '/services', title: 'خدمات', access: 'public', parent: 'dashboard' },
  {
    name: 'servicesCategory',
    path: '/services/:category',
    title: 'خدمات',
    access: 'public',
    parent: 'services',
  },
  { name: 'errors', path: '/errors', title: 'خطا', access: 'public', parent: 'dashboard' },
  { name: 'verifyReceiptForm', path: '/verify', title: 'بررسی رسید', access: 'public', parent: 'dashboard' },
  {
    name: 'verifyReceipt',
    path: '/verify/:code',
    title: 'بررسی رسید',
    access: 'public',
    parent: 'verifyReceiptForm',
  },
] as const satisfies readonly RouteDef[];

/** Every route name of the table (dashboard, myRequests, currencySettings, …), checked at compile time. */
export type RouteName = (typeof routes)[number]['name'];

export const routeByName = (name: string): RouteDef | undefined => routes.find((r) => r.name === name);

/** Path of a named route with its params filled in. */
export function pathOf(name: RouteName, params: Record<string, string> = {}): string {
  const route = routeByName(name);
  if (!route) throw new Error(`unknown route ${name}`);
  return route.path.replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(params[key] ?? ''));
}

// Compile-time check: every parent names a route of the table.
type UnknownParent = Exclude<Extract<(typeof routes)[number], { parent: string }>['parent'], RouteName>;
const _parentsAreRoutes: [UnknownParent] extends [never] ? true : UnknownParent = true;
