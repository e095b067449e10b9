/**
 * The route table of SPEC section 2 in one place: name, path, parent (for breadcrumbs), access mode,
 * Persian title, and the lazily loaded page. Each area is its own chunk so the first page stays small.
 */
import type { ComponentType } from 'react';
import ErrorPage from '../features/errors/ErrorPage';
import { lazyPage } from './lazy-page';

/** `staff`: login-required, and the server's access menu must name the route (see features/auth/policy). */
export type Access = 'public' | 'login' | 'guest' | 'staff';

export interface RouteDef {
  name: string;
  path: string;
  title: string;
  access: Access;
  parent?: string;
  page: ComponentType;
}

const UnderConstruction = lazyPage(() => import('../features/errors/UnderConstructionPage'));
const Dashboard = lazyPage(() => import('../features/dashboard/DashboardPage'));
const Services = lazyPage(() => import('../features/catalogue/ServicesPage'));
const Desk = lazyPage(() => import('../features/catalogue/DeskPage'));
const Terms = lazyPage(() => import('../features/terms/TermsPage'));
const Testaki = lazyPage(() => import('../features/errors/TestakiPage'));
const Login = lazyPage(() => import('../features/auth/LoginPage'));
const Profile = lazyPage(() => import('../features/profile/ProfilePage'));
const Account = lazyPage(() => import('../features/auth/AccountPage'));
const MyRequests = lazyPage(() => import('../features/requests/MyRequestsPage'));
const Currencies = lazyPage(() => import('../features/management/currencies/CurrenciesPage'));
const Requests = lazyPage(() => import('../features/management/RequestsPage'));
const Customers = lazyPage(() => import('../features/management/CustomersPage'));
const Management = lazyPage(() => import('../features/management/ManagementHomePage'));
const Tasks = lazyPage(() => import('../features/management/tasks/TasksPage'));
const Users = lazyPage(() => import('../features/management/access/UsersPage'));
const Groups = lazyPage(() => import('../features/management/access/GroupsPage'));
const Actions = lazyPage(() => import('../features/management/access/ActionsPage'));

export const routes = [
  { name: 'dashboard', path: '/', title: 'خانه', access: 'public', page: Dashboard },
  {
    name: 'customerWallet',
    path: '/customer-wallets/:id',
    title: 'موجودی مالی مشتری',
    access: 'public',
    parent: 'dashboard',
    page: UnderConstruction,
  },
  { name: 'login', path: '/login', title: 'ورود', access: 'guest', parent: 'dashboard', page: Login },
  { name: 'management', path: '/management', title: 'مدیریت', access: 'staff', parent: 'dashboard', page: Management },
  {
    name: 'authorizationUsers',
    path: '/management/authorization/users',
    title: 'کاربران',
    access: 'staff',
    parent: 'management',
    page: Users,
  },
  {
    name: 'authorizationGroups',
    path: '/management/authorization/groups',
    title: 'گروه‌ها',
    access: 'staff',
    parent: 'management',
    page: Groups,
  },
  {
    name: 'authorizationActions',
    path: '/management/authorization/actions',
    title: 'دسترسی‌ها',
    access: 'staff',
    parent: 'management',
    page: Actions,
  },
  {
    name: 'tasks',
    path: '/management/tasks',
    title: 'کارهای جاری',
    access: 'staff',
    parent: 'management',
    page: Tasks,
  },
  {
    name: 'currencySettings',
    path: '/management/currencies',
    title: 'مدیریت ارزها',
    access: 'staff',
    parent: 'management',
    page: Currencies,
  },
  {
    name: 'requests',
    path: '/management/requests',
    title: 'درخواست‌ها',
    access: 'staff',
    parent: 'management',
    page: Requests,
  },
  {
    name: 'customers',
    path: '/management/customers',
    title: 'مشتریان',
    access: 'staff',
    parent: 'management',
    page: Customers,
  },
  {
    name: 'collections',
    path: '/management/collections',
    title: 'دریافت‌ها',
    access: 'staff',
    parent: 'management',
    page: UnderConstruction,
  },
  {
    name: 'currencyPayments',
    path: '/management/currencyPayments',
    title: 'پرداخت‌های ارزی',
    access: 'staff',
    parent: 'management',
    page: UnderConstruction,
  },
  {
    name: 'googleMccAccounts',
    path: '/management/googleMccAccounts',
    title: 'پنل‌های مدیریت تبلیغات',
    access: 'staff',
    parent: 'management',
    page: UnderConstruction,
  },
  {
    name: 'googleAdsAccounts',
    path: '/management/googleAdsAccounts',
    title: 'حساب‌های تبلیغاتی',
    access: 'staff',
    parent: 'management',
    page: UnderConstruction,
  },
  { name: 'desk', path: '/desks/:desk', title: 'میز خدمت', access: 'public', parent: 'services', page: Desk },
  {
    name: 'underConstructionDesk',
    path: '/under-construction-desks/:desk',
    title: 'میز در دست راه‌اندازی',
    access: 'public',
    parent: 'services',
    page: Desk,
  },
  {
    name: 'myAccount',
    path: '/request/myAccount',
    title: 'حساب من',
    access: 'public',
    parent: 'dashboard',
    page: Account,
  },
  {
    name: 'myWallet',
    path: '/request/myWallet',
    title: 'موجودی مالی من',
    access: 'public',
    parent: 'dashboard',
    page: UnderConstruction,
  },
  {
    name: 'myProfile',
    path: '/request/myProfile',
    title: 'پروفایل من',
    access: 'public',
    parent: 'dashboard',
    page: Profile,
  },
  {
    name: 'myRequests',
    path: '/request/myRequests',
    title: 'درخواست‌های من',
    access: 'public',
    parent: 'dashboard',
    page: MyRequests,
  },
  {
    name: 'myGoogleAdsAccounts',
    path: '/myGoogleAdsAccounts',
    title: 'حساب‌های گوگل ادز من',
    access: 'public',
    parent: 'dashboard',
    page: UnderConstruction,
  },
  {
    name: 'termsAndConditions',
    path: '/request/termsAndConditions',
    title: 'قوانین و مقررات',
    access: 'public',
    parent: 'dashboard',
    page: Terms,
  },
  { name: 'services', path: '/services', title: 'خدمات', access: 'public', parent: 'dashboard', page: Services },
  {
    name: 'servicesCategory',
    path: '/services/:category',
    title: 'خدمات',
    access: 'public',
    parent: 'services',
    page: Services,
  },
  { name: 'testaki', path: '/testaki', title: 'صفحه آزمایشی', access: 'public', parent: 'dashboard', page: Testaki },
  { name: 'errors', path: '/errors', title: 'خطا', access: 'public', parent: 'dashboard', page: ErrorPage },
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
