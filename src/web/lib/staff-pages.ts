/**
 * The staff screens and the server's menu entries that open them (api/users/getUserAccess `menu`; the server
 * maps each contract action to entries in src/server/modules/access/menu.ts). Pure data, so a unit test can
 * hold the two sides together.
 */
import type { RouteName } from './routes';

interface AccessMenu {
  menu: readonly string[];
}

export interface StaffPage {
  /** The server's menu entry that opens it. */
  menu: string;
  route: RouteName;
  title: string;
}

/**
 * The staff screens in drawer order (SPEC section 2). Manual completion settles a request whose online payment never
 * came back confirmed, by the collection that arrived outside the gateway; «دریافت‌ها» lists every collection.
 */
export const STAFF_PAGES: readonly StaffPage[] = [
  { menu: 'tasks', route: 'tasks', title: 'کارهای جاری' },
  { menu: 'authorizationUsers', route: 'authorizationUsers', title: 'کاربران' },
  { menu: 'authorizationGroups', route: 'authorizationGroups', title: 'گروه‌ها' },
  { menu: 'authorizationActions', route: 'authorizationActions', title: 'دسترسی‌ها' },
  { menu: 'currencySettings', route: 'currencySettings', title: 'مدیریت ارزها' },
  { menu: 'collections', route: 'collections', title: 'دریافت‌ها' },
  { menu: 'customers', route: 'customers', title: 'مشتریان' },
  { menu: 'requests', route: 'requests', title: 'درخواست‌ها' },
  { menu: 'supportThreads', route: 'supportThreads', title: 'گفتگوهای در انتظار پاسخ' },
  { menu: 'currencyPayments', route: 'currencyPayments', title: 'پرداخت‌های ارزی' },
  { menu: 'withdrawals', route: 'withdrawals', title: 'برداشت‌ها' },
  { menu: 'walletCorrections', route: 'walletCorrections', title: 'اصلاح کیف پول' },
  { menu: 'bankAccounts', route: 'bankAccounts', title: 'حساب‌های بانکی برای تایید' },
  { menu: 'manualOrderCompletion', route: 'manualOrderCompletion', title: 'تکمیل دستی سفارش' },
  { menu: 'googleMccAccounts', route: 'googleMccAccounts', title: 'پنل‌های مدیریت تبلیغات' },
  { menu: 'googleAdsAccounts', route: 'googleAdsAccounts', title: 'حساب‌های تبلیغاتی' },
  { menu: 'catalogue', route: 'catalogue', title: 'کاتالوگ میزها و فرم‌ها' },
  { menu: 'deskFunnel', route: 'deskFunnel', title: 'قیف خدمت‌ها' },
  { menu: 'auditLog', route: 'auditLog', title: 'رویدادنگار' },
  { menu: 'failedNotificationSms', route: 'failedNotificationSms', title: 'پیامک‌های ناموفق' },
  { menu: 'reconciliation', route: 'reconciliation', title: 'تطبیق روزانه' },
];

export function staffPagesOf(access: AccessMenu): StaffPage[] {
  return STAFF_PAGES.filter((page) => access.menu.includes(page.menu));
}

/** Whether a staff route may be opened: the management home with any staff screen, any other by its menu entry. */
export function canOpenStaffRoute(access: AccessMenu, route: string): boolean {
  const pages = staffPagesOf(access);
  return route === 'management' ? pages.length > 0 : pages.some((page) => page.route === route);
}

/** Where someone lands after logging in with nowhere asked for: staff on their waiting work, customers home. */
export function landingPath(access: AccessMenu): string {
  return staffPagesOf(access).length > 0 ? '/management' : '/';
}
