/**
 * Staff who work all day in the management area keep its screens in view: at desktop width a side navigation on
 * the start side lists the screens their access names (the drawer's staff group, always open). It collapses to a
 * narrow rail and the choice is remembered; on a phone it is not drawn (the drawer serves there). Loaded lazily:
 * its tooltip brings the positioning library, and `Theme`'s tooltip provider is a stand-in
 * (build/tooltip-provider-at-use.ts), so the real provider is here.
 */
import { DoubleArrowLeftIcon, DoubleArrowRightIcon, DashboardIcon } from '@radix-ui/react-icons';
import { IconButton, Tooltip } from '@radix-ui/themes';
import { useAtom, useAtomValue } from 'jotai';
import { Tooltip as TooltipPrimitive } from 'radix-ui';
import { NavLink } from 'react-router-dom';
import { staffPagesAtom } from '../../lib/policy';
import { pathOf } from '../../lib/routes';
import { staffNavCollapsedAtom } from './staff-nav-state';

export function StaffSideNav() {
  const staffPages = useAtomValue(staffPagesAtom);
  const [collapsed, setCollapsed] = useAtom(staffNavCollapsedAtom);
  const label = collapsed ? 'باز کردن منوی مدیریت' : 'جمع کردن منوی مدیریت';
  return (
    <aside className="staff-nav" data-testid="staff-nav" data-collapsed={collapsed}>
      <TooltipPrimitive.Provider delayDuration={200}>
        <Tooltip content={label}>
          <IconButton
            variant="ghost"
            color="gray"
            size="2"
            className="staff-nav-toggle"
            aria-label={label}
            aria-expanded={!collapsed}
            aria-controls="staff-nav-links"
            onClick={() => setCollapsed(!collapsed)}
            data-testid="staff-nav-toggle"
          >
            {/* In RTL the navigation sits on the right: it folds towards the right edge. */}
            {collapsed ? <DoubleArrowLeftIcon /> : <DoubleArrowRightIcon />}
          </IconButton>
        </Tooltip>
      </TooltipPrimitive.Provider>
      <nav id="staff-nav-links" aria-label="منوی مدیریت" hidden={collapsed}>
        <NavLink to={pathOf('management')} className="drawer-link" end>
          <span className="drawer-label">
            <DashboardIcon />
            خانه مدیریت
          </span>
        </NavLink>
        {staffPages.map((page) => (
          <NavLink key={page.menu} to={pathOf(page.route)} className="drawer-link" end>
            {page.title}
          </NavLink>
        ))}
      </nav>
    </aside>
  );
}
