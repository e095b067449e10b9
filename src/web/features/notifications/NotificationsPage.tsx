/**
 * The signed-in person's notifications (/notifications), newest first: unread ones marked, each with its time
 * (relative when recent) and, when it is about a request, a link that opens the request in My requests (a new
 * reconciliation mismatch links to the daily reconciliation). Opening one
 * marks it read; «علامت‌گذاری همه به عنوان خوانده‌شده» marks them all. New ones arrive live (notification.created
 * refreshes the `notifications` queries).
 */
import { Badge, Button, Card, Flex, Heading, Link as RadixLink, Skeleton, Text } from '@radix-ui/themes';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { formatNumber } from '../../../shared/format';
import { DateText } from '../../components/date/DateText';
import { showError } from '../../components/shell/snackbar';
import { EmptyState } from '../../components/states/EmptyState';
import { LoadError } from '../../components/states/LoadError';
import { SignInPrompt } from '../../components/states/SignInPrompt';
import { PageDescription } from '../../components/states/PageDescription';
import {
  markNotificationsRead,
  type Notification,
  NOTIFICATIONS_PER_PAGE,
  notificationsQuery,
} from '../../lib/queries/notifications';
import { PAY_LINK_RETURN_KEY } from '../../lib/payment-links';
import { pathOf } from '../../lib/routes';
import { isNotificationKind, NOTIFICATION_KINDS } from '../../../shared/notifications';
import { userAtom } from '../../lib/session';

/**
 * The request a notification is about: a customer's opens above their list of requests; a staff notification (a
 * deadline at risk) opens it on staff's requests page.
 */
const requestLink = (item: Notification & { purchaseId: number }) =>
  isNotificationKind(item.kind) && NOTIFICATION_KINDS[item.kind].audience === 'staff'
    ? `${pathOf('requests')}?open=${item.purchaseId}`
    : `${pathOf('myRequests')}?purchase=${item.purchaseId}`;

/**
 * The way back to the payment link a payer was waiting on: the link's address is the payer's alone (the server keeps
 * only its hash), so it is offered where this browser remembered it; elsewhere the text sends them to the message
 * they were sent.
 */
function PayLinkLink({ onOpen }: { onOpen: () => void }) {
  const path = localStorage.getItem(PAY_LINK_RETURN_KEY);
  if (!path?.startsWith('/pay/')) return null;
  return (
    <RadixLink asChild size="2">
      <Link to={path} onClick={onOpen} data-testid="notification-pay-link">
        رفتن به پیوند پرداخت
      </Link>
    </RadixLink>
  );
}

function NotificationItem({ item, onRead }: { item: Notification; onRead: (id: number) => void }) {
  return (
    <Card
      size="2"
      className={item.read ? undefined : 'notification-unread'}
      data-testid="notification"
      data-read={item.read}
    >
      <Flex direction="column" gap="2">
        <Flex justify="between" align="center" gap="2" wrap="wrap">
          <Text size="1" color="gray">
            <DateText value={item.createdAt} relative />
          </Text>
          {!item.read && (
            <Badge color="blue" size="1">
              خوانده‌نشده
            </Badge>
          )}
        </Flex>
        <Text as="p" size="3" weight={item.read ? 'regular' : 'bold'}>
          {item.text}
        </Text>
        <Flex gap="3" align="center" wrap="wrap">
          {item.purchaseId !== null && (
            <RadixLink asChild size="2">
              <Link
                to={requestLink({ ...item, purchaseId: item.purchaseId })}
                onClick={() => !item.read && onRead(item.id)}
                data-testid="notification-request"
              >
                دیدن درخواست
              </Link>
            </RadixLink>
          )}
          {item.kind === 'staffReconciliationUnmatched' && (
            <RadixLink asChild size="2">
              <Link
                to={pathOf('reconciliation')}
                onClick={() => !item.read && onRead(item.id)}
                data-testid="notification-reconciliation"
              >
                دیدن تطبیق روزانه
              </Link>
            </RadixLink>
          )}
          {item.kind === 'payLinkPayable' && <PayLinkLink onOpen={() => !item.read && onRead(item.id)} />}
          {!item.read && (
            <Button size="1" variant="ghost" onClick={() => onRead(item.id)} data-testid="notification-mark-read">
              خوانده شد
            </Button>
          )}
        </Flex>
      </Flex>
    </Card>
  );
}

const TITLE = 'اعلان‌ها';
const DESCRIPTION =
  'خبر پرداخت، انجام، بازگشت وجه و پاسخ کارشناس دربارهٔ درخواست‌ها، کیف پول و حساب شما؛ همین خبرها با پیامک هم به شما می‌رسند.';

export default function NotificationsPage() {
  const user = useAtomValue(userAtom);
  const queryClient = useQueryClient();
  const [pages, setPages] = useState(1);
  const [marking, setMarking] = useState(false);
  const { data, isPending, isError, error, refetch, isRefetching } = useQuery({
    ...notificationsQuery(pages),
    enabled: user !== null,
  });
  if (!user) return <SignInPrompt title={TITLE} description={DESCRIPTION} />;

  const mark = async (body: { ids?: number[]; all?: boolean }) => {
    setMarking(true);
    try {
      await markNotificationsRead(body);
      await queryClient.invalidateQueries({ queryKey: ['notifications'] });
    } catch (error) {
      showError(error);
    } finally {
      setMarking(false);
    }
  };

  return (
    <Flex direction="column" gap="3" style={{ maxWidth: 'min(720px, 100%)', marginInline: 'auto', width: '100%' }}>
      <Flex justify="between" align="center" gap="2" wrap="wrap">
        <Heading size="6">{TITLE}</Heading>
        {data && data.unreadCount > 0 && (
          <Button
            variant="soft"
            onClick={() => void mark({ all: true })}
            disabled={marking}
            data-testid="notifications-mark-all"
          >
            علامت‌گذاری همه به عنوان خوانده‌شده
          </Button>
        )}
      </Flex>
      <PageDescription>{DESCRIPTION}</PageDescription>
      {isPending && !isError && (
        <Flex direction="column" gap="3" role="status" aria-label="در حال بارگذاری اعلان‌ها">
          {[0, 1, 2].map((n) => (
            <Skeleton key={n} height="88px" />
          ))}
        </Flex>
      )}
      {isError && (
        <LoadError
          error={error}
          fallback="دریافت اعلان‌ها ممکن نشد."
          onRetry={() => void refetch()}
          retrying={isRefetching}
        />
      )}
      {data && data.total === 0 && (
        <Card size="2">
          <EmptyState title="اعلانی ندارید" testId="notifications-empty">
            خبری هنوز نرسیده است؛ با اولین پرداخت یا درخواست، خبرهایش اینجا دیده می‌شوند.
          </EmptyState>
        </Card>
      )}
      {data && data.total > 0 && (
        <>
          <Text size="2" color="gray" data-testid="notifications-unread">
            {data.unreadCount > 0
              ? `${formatNumber(data.unreadCount)} اعلان خوانده‌نشده`
              : 'همهٔ اعلان‌ها خوانده شده‌اند.'}
          </Text>
          {data.items.map((item) => (
            <NotificationItem key={item.id} item={item} onRead={(id) => void mark({ ids: [id] })} />
          ))}
          {data.items.length < data.total && (
            <Button variant="soft" color="gray" onClick={() => setPages((n) => n + 1)}>
              نمایش {formatNumber(Math.min(NOTIFICATIONS_PER_PAGE, data.total - data.items.length))} اعلان قدیمی‌تر
            </Button>
          )}
        </>
      )}
    </Flex>
  );
}
