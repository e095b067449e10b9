/**
 * The bell in the top bar: opens the notifications list (/notifications) and shows how many are unread, in Persian
 * digits. notification.created refreshes the count live (lib/realtime.ts); nothing is shown to a guest.
 */
import { BellIcon } from '@radix-ui/react-icons';
import { IconButton } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { Link } from 'react-router-dom';
import { formatNumber } from '../../../shared/format';
import { unreadNotificationsQuery } from '../../lib/queries/notifications';
import { pathOf } from '../../lib/routes';
import { userAtom } from '../../lib/session';

export function NotificationBell() {
  const signedIn = useAtomValue(userAtom) !== null;
  const { data: unread = 0 } = useQuery({ ...unreadNotificationsQuery, enabled: signedIn });
  if (!signedIn) return null;
  const label = unread > 0 ? `اعلان‌ها، ${formatNumber(unread)} خوانده‌نشده` : 'اعلان‌ها';
  return (
    <IconButton variant="ghost" size="3" asChild aria-label={label} className="notification-bell">
      <Link to={pathOf('notifications')} data-testid="notification-bell">
        <BellIcon width={22} height={22} />
        {unread > 0 && (
          <span className="notification-count" data-testid="notification-count" aria-hidden>
            {unread > 99 ? '۹۹+' : formatNumber(unread)}
          </span>
        )}
      </Link>
    </IconButton>
  );
}
