/**
 * The signed-in user's live sessions (decision 004): browser and system, address, log-in and last-use
 * dates in the chosen calendar, "this device" for the current one; any other one can be ended, or all of them.
 * One column of cards, so it reads on a 390px phone as well as on a desk.
 */
import { DesktopIcon, MobileIcon } from '@radix-ui/react-icons';
import { Badge, Button, Callout, Card, Flex, Heading, Spinner, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { components } from '../../../generated/api';
import { toPersianDigits } from '../../../shared/format';
import { DateText } from '../../components/date/DateText';
import { showSnackbar } from '../../components/shell/snackbar';
import { api, call, digMessage, FALLBACK_MESSAGE } from '../../lib/api-client';
import { queryClient } from '../../lib/query';
import { Latin } from '../../components/Latin';

type Session = components['schemas']['Session'];

const SESSIONS_KEY = ['me', 'sessions'];

/** "Chrome 124 روی Android 14", each Latin name isolated so the Persian sentence keeps its order. */
function DeviceName({ session }: { session: Session }) {
  const { browser, os } = session;
  if (!browser && !os) return <>مرورگر ناشناخته</>;
  if (!browser || !os) return <bdi>{browser ?? os}</bdi>;
  return (
    <>
      <bdi>{browser}</bdi> روی <bdi>{os}</bdi>
    </>
  );
}

function SessionCard({ session, busy, onEnd }: { session: Session; busy: boolean; onEnd: () => void }) {
  const Icon = session.deviceType === 'mobile' || session.deviceType === 'tablet' ? MobileIcon : DesktopIcon;
  return (
    <Card data-testid="session" data-current={session.current} data-id={session.id}>
      <Flex gap="3" align="start" wrap="wrap">
        <Icon width={22} height={22} aria-hidden style={{ marginTop: 2, flexShrink: 0 }} />
        <Flex direction="column" gap="1" style={{ flex: '1 1 12rem', minWidth: 0 }}>
          <Flex gap="2" align="center" wrap="wrap">
            <Text weight="bold" style={{ overflowWrap: 'anywhere' }}>
              <DeviceName session={session} />
            </Text>
            {session.current && (
              <Badge color="green" data-testid="current-session">
                این دستگاه
              </Badge>
            )}
          </Flex>
          <Text size="2" color="gray">
            ورود: <DateText value={session.createdAt} format="longDateTime" />
          </Text>
          <Text size="2" color="gray">
            آخرین استفاده: <DateText value={session.lastUsedAt} relative />
          </Text>
          {session.ip && (
            <Text size="2" color="gray">
              نشانی: <Latin>{session.ip}</Latin>
            </Text>
          )}
        </Flex>
        {!session.current && (
          <Button color="red" variant="soft" onClick={onEnd} loading={busy} data-testid="end-session">
            پایان نشست
          </Button>
        )}
      </Flex>
    </Card>
  );
}

export function SessionsPanel() {
  const [busyId, setBusyId] = useState<number | 'others' | null>(null);
  const sessions = useQuery({
    queryKey: SESSIONS_KEY,
    queryFn: () => call<{ items: Session[] }>(api.POST('/api/me/searchSessions')).then((d) => d.items),
    staleTime: 0,
  });

  const run = async (id: number | 'others', request: () => Promise<unknown>) => {
    setBusyId(id);
    try {
      const result = (await request()) as { data?: unknown; error?: unknown };
      if (result.error) throw result.error;
      showSnackbar(digMessage(result.data) ?? 'انجام شد.', 'green');
    } catch (error) {
      showSnackbar(digMessage(error) ?? FALLBACK_MESSAGE, 'red');
    } finally {
      setBusyId(null);
      await queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
    }
  };

  const items = sessions.data ?? [];
  const others = items.filter((s) => !s.current).length;
  return (
    <Flex direction="column" gap="3" data-testid="sessions-panel">
      <Flex align="center" justify="between" gap="2" wrap="wrap">
        <Heading size="4" as="h2">
          نشست‌های فعال
        </Heading>
        {others > 0 && (
          <Button
            color="red"
            variant="outline"
            loading={busyId === 'others'}
            onClick={() => void run('others', () => api.POST('/api/me/revokeOtherSessions'))}
            data-testid="end-other-sessions"
          >
            پایان همه نشست‌های دیگر
          </Button>
        )}
      </Flex>
      <Text size="2" color="gray">
        هر ورود به حساب شما یک نشست است. نشستی را که نمی‌شناسید پایان دهید و رمز عبور خود را تغییر دهید.
      </Text>
      {sessions.isPending && <Spinner aria-label="در حال بارگذاری نشست‌ها" />}
      {sessions.isError && (
        <Callout.Root color="red" role="alert">
          <Callout.Text>{digMessage(sessions.error) ?? FALLBACK_MESSAGE}</Callout.Text>
        </Callout.Root>
      )}
      {sessions.isSuccess && (
        <Text size="2" data-testid="session-count">
          {toPersianDigits(items.length)} نشست فعال
        </Text>
      )}
      {items.map((session) => (
        <SessionCard
          key={session.id}
          session={session}
          busy={busyId === session.id}
          onEnd={() => void run(session.id, () => api.POST('/api/me/revokeSession', { body: { id: session.id } }))}
        />
      ))}
    </Flex>
  );
}
