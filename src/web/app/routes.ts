/**
 * The route table of SPEC section 2 in one place: name, path, parent (for breadcrumbs), access mode,
 * Persian title, and the lazily loaded page. Each area is its own chunk so the first page stays small.
 */
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

export type Access = 'public' | 'login' | 'guest';

export interface RouteDef {
  name: string;
  path: string;
  title: string;
  access: Access;
  parent?: string;
  page: LazyExoticComponent<ComponentType>;
}

const UnderConstruction = lazy(() => import('../features/errors/UnderConstructionPage'));
const Dashboard = lazy(() => import('../features/dashboard/DashboardPage'));
const Services = lazy(() => import('../features/catalogue/ServicesPage'));
const Desk = lazy(() => import('../features/catalogue/DeskPage'));
const Terms = lazy(() => import('../features/terms/TermsPage'));
const ErrorPage = lazy(() => import('../features/errors/ErrorPage'));
const Testaki = lazy(() => import('../features/errors/TestakiPage'));
const Login = lazy(() => import('../features/auth/LoginPage'));
const Profile = lazy(() => import('../features/profile/ProfilePage'));
const MyRequests = lazy(() => import('../features/requests/MyRequestsPage'));
const Currencies = lazy(() => import('../features/management/currencies/CurrenciesPage'));
const Requests = lazy(() => import('../features/management/RequestsPage'));
const Customers = lazy(() => import('../features/management/CustomersPage'));
const Management = lazy(() => import('../features/management/ManagementHomePage'));
const Tasks = lazy(() => import('../features/management/tasks/TasksPage'));
const Users = lazy(() => import('../features/management/access/UsersPage'));
const Groups = lazy(() => import('../features/management/access/GroupsPage'));
const Actions = lazy(() => import('../features/management/access/ActionsPage'));

export const routes: RouteDef[] = [
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
  { name: 'management', path: '/management', title: 'مدیریت', access: 'login', parent: 'dashboard', page: Management },
  {
    name: 'authorizationUsers',
    path: '/management/authorization/users',
    title: 'کاربران',
    access: 'login',
    parent: 'management',
    page: Users,
  },
  {
    name: 'authorizationGroups',
    path: '/management/authorization/groups',
    title: 'گروه‌ها',
    access: 'login',
    parent: 'management',
    page: Groups,
  },
  {
    name: 'authorizationActions',
    path: '/management/authorization/actions',
    title: 'دسترسی‌ها',
    access: 'login',
    parent: 'management',
    page: Actions,
  },
  {
    name: 'tasks',
    path: '/management/tasks',
    title: 'کارهای جاری',
    access: 'login',
    parent: 'management',
    page: Tasks,
  },
  {
    name: 'currencySettings',
    path: '/management/currencies',
    title: 'مدیریت ارزها',
    access: 'login',
    parent: 'management',
    page: Currencies,
  },
  {
    name: 'requests',
    path: '/management/requests',
    title: 'درخواست‌ها',
    access: 'login',
    parent: 'management',
    page: Requests,
  },
  {
    name: 'customers',
    path: '/management/customers',
    title: 'مشتریان',
    access: 'login',
    parent: 'management',
    page: Customers,
  },
  {
    name: 'collections',
    path: '/management/collections',
    title: 'دریافت‌ها',
    access: 'login',
    parent: 'management',
    page: UnderConstruction,
  },
  {
    name: 'currencyPayments',
    path: '/management/currencyPayments',
    title: 'پرداخت‌های ارزی',
    access: 'login',
    parent: 'management',
    page: UnderConstruction,
  },
  {
    name: 'googleMccAccounts',
    path: '/management/googleMccAccounts',
    title: 'پنل‌های مدیریت تبلیغات',
    access: 'login',
    parent: 'management',
    page: UnderConstruction,
  },
  {
    name: 'googleAdsAccounts',
    path: '/management/googleAdsAccounts',
    title: 'حساب‌های تبلیغاتی',
    access: 'login',
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
    page: Profile,
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
];

export const routeByName = (name: string) => routes.find((r) => r.name === name);

/** Path of a named route with its params filled in. */
export function pathOf(name: string, params: Record<string, string> = {}): string {
  const route = routeByName(name);
  if (!route) throw new Error(`unknown route ${name}`);
  return route.path.replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(params[key] ?? ''));
}
