/** The side drawer of SPEC section 2: profile summary, calendar, desks by category, account links, staff group. */
import {
  CardStackIcon,
  ChevronDownIcon,
  Cross1Icon,
  HomeIcon,
  IdCardIcon,
  ListBulletIcon,
  RocketIcon,
  ReaderIcon,
} from '@radix-ui/react-icons';
import {
  Badge,
  Box,
  Button,
  Flex,
  Heading,
  IconButton,
  SegmentedControl,
  Separator,
  Switch,
  Text,
} from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { NavLink, useLocation, useNavigate } from 'react-router-dom';
import type { CalendarKind } from '../../../shared/calendar';
import { formatPhone } from '../../../shared/format';
import { showTomanAtom } from '../../lib/amount-unit';
import { calendarAtom } from '../../lib/calendar';
import { staffPagesAtom } from '../../lib/policy';
import { catalogueAtom, desksOf, menuCategories } from '../../lib/queries/catalogue';
import { myGoogleAdsAccountsQuery } from '../../lib/queries/google-ads';
import { pathOf } from '../../lib/routes';
import { loginDialogOpenAtom, logout, userAtom } from '../../lib/session';

function DrawerLink({
  to,
  children,
  disabled,
  icon,
}: {
  to: string;
  children: ReactNode;
  disabled?: boolean;
  icon?: ReactNode;
}) {
  const content = (
    <span className="drawer-label">
      {icon}
      {children}
    </span>
  );
  if (disabled) {
    return (
      <span className="drawer-link" aria-disabled="true">
        {content}
      </span>
    );
  }
  return (
    <NavLink to={to} className="drawer-link" end>
      {content}
    </NavLink>
  );
}

/** A collapsible group (native details/summary: keyboard and screen readers for free); open when it holds the page. */
function Group({
  title,
  img,
  children,
  testId,
  containsCurrent = false,
}: {
  title: string;
  img: string;
  children: ReactNode;
  testId?: string;
  containsCurrent?: boolean;
}) {
  const [initiallyOpen] = useState(containsCurrent);
  return (
    <details data-testid={testId} className="drawer-group" open={initiallyOpen}>
      <summary className="drawer-link">
        <span className="drawer-label">
          <img src={img} alt="" width={22} height={22} />
          {title}
        </span>
        <ChevronDownIcon className="drawer-chevron" aria-hidden />
      </summary>
      <div className="drawer-group-body">{children}</div>
    </details>
  );
}

function ProfileSummary({ onNavigate }: { onNavigate: () => void }) {
  const user = useAtomValue(userAtom);
  const openLogin = useSetAtom(loginDialogOpenAtom);
  return (
    <Box mb="3" p="3" className="drawer-profile" data-testid="profile-summary">
      {user ? (
        <Flex direction="column" gap="1" align="start">
          <Text weight="bold">{user.fullName || 'کاربر ارزپی'}</Text>
          {user.mobileNo && (
            <Text size="2" color="gray" className="ltr">
              {formatPhone(user.mobileNo)}
            </Text>
          )}
          <Badge color={user.approvedLevel >= 1 ? 'green' : 'orange'}>
            {user.approvedLevel >= 1 ? 'هویت تایید شده' : 'هویت تایید نشده'}
          </Badge>
        </Flex>
      ) : (
        <Flex direction="column" gap="2">
          <Text>کاربری در سیستم وارد نشده است.</Text>
          <Button
            size="3"
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
  );
}

function CalendarToggle() {
  const [calendar, setCalendar] = useAtom(calendarAtom);
  return (
    <Flex align="center" justify="between" mb="2" gap="2">
      <Text size="2" id="calendar-label">
        تقویم
      </Text>
      <SegmentedControl.Root
        value={calendar}
        onValueChange={(v) => setCalendar(v as CalendarKind)}
        aria-labelledby="calendar-label"
        data-testid="calendar-toggle"
      >
        <SegmentedControl.Item value="fa">شمسی</SegmentedControl.Item>
        <SegmentedControl.Item value="en">میلادی</SegmentedControl.Item>
      </SegmentedControl.Root>
    </Flex>
  );
}

/** The toman equivalent beside the prices a customer decides on (RialText.tsx), remembered like the calendar. */
function TomanToggle() {
  const [showToman, setShowToman] = useAtom(showTomanAtom);
  return (
    <Text as="label" size="2" mb="2" style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
      نمایش معادل تومان
      <Switch checked={showToman} onCheckedChange={setShowToman} data-testid="toman-toggle" />
    </Text>
  );
}

export function DrawerContent({ onNavigate }: { onNavigate: () => void }) {
  const user = useAtomValue(userAtom);
  // Only the staff screens the server's access object names for this person.
  const staffPages = useAtomValue(staffPagesAtom);
  const catalogue = useAtomValue(catalogueAtom).data;
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const googleAdsDesk = pathOf('desk', { desk: 'googleAdsAccountCr' });
  const googleAdsAccounts = useQuery(myGoogleAdsAccountsQuery(user !== null));
  const hasGoogleAdsAccount = user !== null && (googleAdsAccounts.data?.total ?? 0) > 0;

  return (
    // A click on any link inside closes the drawer (links handle their own keyboard activation).
    <div onClick={(e) => (e.target as HTMLElement).closest('a') && onNavigate()}>
      <ProfileSummary onNavigate={onNavigate} />
      <CalendarToggle />
      <TomanToggle />
      <Separator size="4" my="2" />

      <nav aria-label="منوی اصلی">
        <DrawerLink to="/" icon={<HomeIcon />}>
          خانه
        </DrawerLink>
        {menuCategories(catalogue).map((category) => {
          const desks = desksOf(catalogue, category.key);
          return (
            <Group
              key={category.key}
              title={category.menuTitle}
              img={category.img}
              testId={`drawer-category-${category.key}`}
              containsCurrent={pathname === category.to || desks.some((d) => d.to === pathname)}
            >
              {desks.map((desk) => (
                <DrawerLink key={desk.identifier} to={desk.to}>
                  {desk.title}
                </DrawerLink>
              ))}
            </Group>
          );
        })}
        <Group
          title="گوگل ادز"
          img="/img/categories/googleAds.svg"
          testId="drawer-google-ads"
          containsCurrent={pathname === googleAdsDesk || pathname === pathOf('myGoogleAdsAccounts')}
        >
          {user ? (
            <>
              <DrawerLink to={`${pathOf('myGoogleAdsAccounts')}?create=1`}>ساخت حساب</DrawerLink>
              {/* Enabled once the user has a Google Ads account. */}
              <DrawerLink to={pathOf('myGoogleAdsAccounts')} disabled={!hasGoogleAdsAccount}>
                حساب‌های من
              </DrawerLink>
              <DrawerLink to={googleAdsDesk} disabled={!hasGoogleAdsAccount}>
                شارژ حساب
              </DrawerLink>
              {!hasGoogleAdsAccount && (
                <Text size="1" color="gray" as="p" mx="3" my="1">
                  پس از ساخت اولین حساب، مدیریت و شارژ آن فعال می‌شود.
                </Text>
              )}
            </>
          ) : (
            <Text size="2" color="gray" as="p" mx="3" my="2">
              برای ساخت و شارژ حساب گوگل ادز ابتدا وارد شوید.
            </Text>
          )}
        </Group>
        <Separator size="4" my="2" />
        <DrawerLink to={pathOf('myRequests')} icon={<ListBulletIcon />}>
          درخواست‌های من
        </DrawerLink>
        <DrawerLink to={pathOf('myPlan')} icon={<RocketIcon />}>
          برنامه من
        </DrawerLink>
        <DrawerLink to={pathOf('myProfile')} icon={<IdCardIcon />}>
          پروفایل من
        </DrawerLink>
        <DrawerLink to={pathOf('myWallet')} icon={<CardStackIcon />}>
          موجودی مالی من
        </DrawerLink>
        <DrawerLink to={pathOf('termsAndConditions')} icon={<ReaderIcon />}>
          قوانین و مقررات
        </DrawerLink>

        {staffPages.length > 0 && (
          <Box mt="2" data-testid="drawer-staff" role="group" aria-labelledby="drawer-staff-title">
            <Separator size="4" my="2" />
            <Heading as="h3" size="2" color="gray" mb="1" mx="3" id="drawer-staff-title">
              مدیریت
            </Heading>
            {staffPages.map((page) => (
              <DrawerLink key={page.menu} to={pathOf(page.route)}>
                {page.title}
              </DrawerLink>
            ))}
          </Box>
        )}
      </nav>
      <Separator size="4" my="2" />
      {user ? (
        <Button
          size="3"
          variant="soft"
          color="red"
          style={{ width: '100%' }}
          onClick={async () => {
            onNavigate();
            await logout();
            navigate('/');
          }}
        >
          خروج از حساب
        </Button>
      ) : (
        <Button
          size="3"
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

const FOCUSABLE = 'a[href], button:not([disabled]), summary, input:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Keeps Tab and Shift+Tab inside the panel (a modal dialog). */
function trapFocus(event: KeyboardEvent, panel: HTMLElement) {
  const items = [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.getClientRects().length > 0);
  const first = items[0];
  const last = items.at(-1);
  if (!first || !last) return;
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === panel)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * A modal sheet sliding in from the right (the start side in RTL), mounted while open. Esc, the close button
 * or the overlay close it; focus moves inside and stays there (the shell returns it to the menu button).
 */
export function Drawer({ onClose }: { onClose: () => void }) {
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    panel.current?.focus();
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    const onKey = (e: KeyboardEvent) => {
      // A dialog opened above the drawer handles its own Escape.
      if (e.defaultPrevented) return;
      if (e.key === 'Escape') {
        e.preventDefault();
        onClose();
      } else if (e.key === 'Tab' && panel.current) {
        trapFocus(e, panel.current);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.body.style.overflow = overflow;
    };
  }, [onClose]);
  return (
    <>
      <div className="drawer-overlay" onClick={onClose} aria-hidden />
      <div
        className="drawer-panel"
        role="dialog"
        aria-modal="true"
        aria-labelledby="drawer-title"
        tabIndex={-1}
        ref={panel}
        data-testid="drawer"
      >
        <Flex align="center" justify="between" mb="3">
          <Heading as="h2" size="4" id="drawer-title" style={{ color: 'var(--accent-11)' }}>
            ارزپی
          </Heading>
          <IconButton variant="ghost" color="gray" size="3" onClick={onClose} aria-label="بستن منو">
            <Cross1Icon width={18} height={18} />
          </IconButton>
        </Flex>
        <DrawerContent onNavigate={onClose} />
      </div>
    </>
  );
}
