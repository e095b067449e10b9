/** The side drawer of SPEC section 2: profile summary, calendar, desks by category, account links, staff group. */
import { Badge, Box, Button, Flex, Heading, SegmentedControl, Separator, Text } from '@radix-ui/themes';
import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useRef } from 'react';
import { NavLink, useNavigate } from 'react-router-dom';
import { formatPhone } from '../../../shared/format';
import { pathOf } from '../../app/routes';
import { isStaffAtom, loginDialogOpenAtom, logout, userAtom } from '../auth/session';
import { catalogueAtom, desksOf, menuCategories } from '../catalogue/catalogue-query';
import { calendarAtom } from './calendar';

function DrawerLink({ to, children, disabled }: { to: string; children: React.ReactNode; disabled?: boolean }) {
  if (disabled) {
    return (
      <span className="drawer-link" aria-disabled="true">
        {children}
      </span>
    );
  }
  return (
    <NavLink to={to} className="drawer-link" end>
      {children}
    </NavLink>
  );
}

function Group({ title, children, testId }: { title: string; children: React.ReactNode; testId?: string }) {
  return (
    <details data-testid={testId} style={{ marginBlock: 4 }}>
      <summary className="drawer-link" style={{ cursor: 'pointer', fontWeight: 600 }}>
        {title}
      </summary>
      <Box pr="3">{children}</Box>
    </details>
  );
}

const STAFF_LINKS: Array<[string, string]> = [
  ['tasks', 'کارهای جاری'],
  ['authorizationUsers', 'کاربران'],
  ['authorizationGroups', 'گروه‌ها'],
  ['authorizationActions', 'دسترسی‌ها'],
  ['currencySettings', 'مدیریت ارزها'],
  ['collections', 'دریافت‌ها'],
  ['customers', 'مشتریان'],
  ['requests', 'درخواست‌ها'],
  ['currencyPayments', 'پرداخت‌های ارزی'],
];

export function DrawerContent({ onNavigate }: { onNavigate: () => void }) {
  const user = useAtomValue(userAtom);
  const isStaff = useAtomValue(isStaffAtom);
  const [calendar, setCalendar] = useAtom(calendarAtom);
  const catalogue = useAtomValue(catalogueAtom).data;
  const openLogin = useSetAtom(loginDialogOpenAtom);
  const navigate = useNavigate();

  return (
    // Any click on a link inside closes the drawer (links handle their own keyboard activation).
    <div onClick={(e) => (e.target as HTMLElement).closest('a') && onNavigate()}>
      <Box
        mb="3"
        p="3"
        style={{ background: 'var(--accent-3)', borderRadius: 'var(--radius-4)' }}
        data-testid="profile-summary"
      >
        {user ? (
          <Flex direction="column" gap="1">
            <Text weight="bold">{user.fullName ?? 'کاربر ارزپی'}</Text>
            {user.mobileNo && (
              <Text size="2" color="gray" className="ltr">
                {formatPhone(user.mobileNo)}
              </Text>
            )}
            <Badge color={user.approvedLevel >= 1 ? 'green' : 'orange'} style={{ alignSelf: 'flex-start' }}>
              {user.approvedLevel >= 1 ? 'هویت تایید شده' : 'هویت تایید نشده'}
            </Badge>
          </Flex>
        ) : (
          <Flex direction="column" gap="2">
            <Text>کاربری در سیستم وارد نشده است.</Text>
            <Button
              onClick={() => {
                onNavigate();
                openLogin(true);
              }}
            >
              ورود یا ثبت‌نام
            </Button>
          </Flex>
        )}
      </Box>

      <Flex align="center" justify="between" mb="2" gap="2">
        <Text size="2" id="calendar-label">
          تقویم
        </Text>
        <SegmentedControl.Root
          value={calendar}
          onValueChange={(v) => setCalendar(v as 'fa' | 'en')}
          aria-labelledby="calendar-label"
          data-testid="calendar-toggle"
        >
          <SegmentedControl.Item value="fa">شمسی</SegmentedControl.Item>
          <SegmentedControl.Item value="en">میلادی</SegmentedControl.Item>
        </SegmentedControl.Root>
      </Flex>
      <Separator size="4" my="2" />

      <nav aria-label="منوی اصلی">
        <DrawerLink to="/">خانه</DrawerLink>
        {menuCategories(catalogue).map((category) => (
          <Group key={category.key} title={category.menuTitle} testId={`drawer-category-${category.key}`}>
            {desksOf(catalogue, category.key).map((desk) => (
              <DrawerLink key={desk.identifier} to={desk.to}>
                {desk.title}
              </DrawerLink>
            ))}
          </Group>
        ))}
        <Group title="گوگل ادز" testId="drawer-google-ads">
          {user ? (
            <>
              <DrawerLink to={pathOf('desk', { desk: 'googleAdsAccountCr' })}>ساخت حساب</DrawerLink>
              <DrawerLink to={pathOf('myGoogleAdsAccounts')} disabled>
                حساب‌های من
              </DrawerLink>
              <DrawerLink to={pathOf('desk', { desk: 'googleAdsAccountCr' })} disabled>
                شارژ حساب
              </DrawerLink>
              <Text size="1" color="gray" as="p" mr="3">
                پس از ساخت اولین حساب، مدیریت و شارژ آن فعال می‌شود.
              </Text>
            </>
          ) : (
            <Text size="2" color="gray" as="p" m="2">
              برای ساخت و شارژ حساب گوگل ادز ابتدا وارد شوید.
            </Text>
          )}
        </Group>
        <Separator size="4" my="2" />
        <DrawerLink to={pathOf('myRequests')}>درخواست‌های من</DrawerLink>
        <DrawerLink to={pathOf('myProfile')}>پروفایل من</DrawerLink>
        <DrawerLink to={pathOf('myWallet')}>موجودی مالی من</DrawerLink>
        <DrawerLink to={pathOf('termsAndConditions')}>قوانین و مقررات</DrawerLink>

        {isStaff && (
          <Box mt="2" data-testid="drawer-staff">
            <Separator size="4" my="2" />
            <Heading size="2" color="gray" mb="1" mr="2">
              مدیریت
            </Heading>
            {STAFF_LINKS.map(([name, title]) => (
              <DrawerLink key={name} to={pathOf(name)}>
                {title}
              </DrawerLink>
            ))}
            <DrawerLink to={pathOf('collections')}>تکمیل دستی سفارش</DrawerLink>
            <DrawerLink to={pathOf('googleMccAccounts')}>پنل‌های مدیریت تبلیغات</DrawerLink>
            <DrawerLink to={pathOf('googleAdsAccounts')}>حساب‌های تبلیغاتی</DrawerLink>
          </Box>
        )}
      </nav>
      <Separator size="4" my="2" />
      {user ? (
        <Button
          variant="soft"
          color="red"
          style={{ width: '100%' }}
          onClick={async () => {
            await logout();
            onNavigate();
            navigate('/');
          }}
        >
          خروج از حساب
        </Button>
      ) : (
        <Button
          variant="soft"
          style={{ width: '100%' }}
          onClick={() => {
            onNavigate();
            navigate('/login');
          }}
        >
          ورود
        </Button>
      )}
    </div>
  );
}

/** A sheet sliding in from the right (RTL start); Esc or the overlay closes it, focus moves inside. */
export function Drawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement as HTMLElement | null;
    panel.current?.focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      previous?.focus();
    };
  }, [open, onClose]);
  if (!open) return null;
  return (
    <>
      <div className="drawer-overlay" onClick={onClose} aria-hidden />
      <div
        className="drawer-panel"
        role="dialog"
        aria-modal="true"
        aria-label="منو"
        tabIndex={-1}
        ref={panel}
        data-testid="drawer"
      >
        <DrawerContent onNavigate={onClose} />
      </div>
    </>
  );
}
