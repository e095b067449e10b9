/**
 * The account page's choices per notification kind and channel (in the app, SMS), saved at each change. Security
 * notices are shown locked: always on, on both channels (the server refuses turning them off too).
 */
import { LockClosedIcon } from '@radix-ui/react-icons';
import { Card, Flex, Heading, Skeleton, Switch, Table, Text } from '@radix-ui/themes';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { isNotificationKind, NOTIFICATION_KINDS } from '../../../shared/notifications';
import { showError, showSnackbar } from '../../components/shell/snackbar';
import { LoadError } from '../../components/states/LoadError';
import {
  type NotificationPreference,
  notificationPreferencesQuery,
  saveNotificationPreferences,
} from '../../lib/queries/notifications';

const labelOf = (kind: string) => (isNotificationKind(kind) ? NOTIFICATION_KINDS[kind].label : kind);

export function NotificationPreferences() {
  const queryClient = useQueryClient();
  const { data, isPending, isError, error, refetch, isRefetching } = useQuery(notificationPreferencesQuery);
  const [saving, setSaving] = useState<string | null>(null);

  const change = async (pref: NotificationPreference, channel: 'inApp' | 'sms', on: boolean) => {
    setSaving(`${pref.kind}:${channel}`);
    try {
      const saved = await saveNotificationPreferences([
        { kind: pref.kind, inApp: pref.inApp, sms: pref.sms, [channel]: on },
      ]);
      queryClient.setQueryData(notificationPreferencesQuery.queryKey, saved);
      showSnackbar('تنظیمات اعلان‌ها ذخیره شد.', 'green');
    } catch (e) {
      showError(e);
    } finally {
      setSaving(null);
    }
  };

  return (
    <Card size="3" data-testid="notification-preferences">
      <Flex direction="column" gap="3">
        <Heading size="5">اعلان‌ها</Heading>
        <Text size="2" color="gray">
          برای هر نوع اعلان انتخاب کنید که در برنامه و با پیامک به شما برسد یا نه. پیامک‌ها بین ساعت ۲۲ تا ۸ صبح فرستاده
          نمی‌شوند و ساعت ۸ می‌رسند؛ اعلان‌های امنیتی همیشه و بی‌درنگ فرستاده می‌شوند.
        </Text>
        {isPending && <Skeleton height="200px" />}
        {isError && (
          <LoadError
            error={error}
            fallback="دریافت تنظیمات اعلان‌ها ممکن نشد."
            onRetry={() => void refetch()}
            retrying={isRefetching}
          />
        )}
        {data && (
          <Table.Root size="1">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeaderCell>نوع اعلان</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell justify="center">در برنامه</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell justify="center">پیامک</Table.ColumnHeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {data.items.map((pref) => (
                <Table.Row key={pref.kind} data-testid={`preference-${pref.kind}`}>
                  <Table.RowHeaderCell>
                    <Flex align="center" gap="1">
                      {pref.locked && <LockClosedIcon aria-label="امنیتی، همیشه روشن" />}
                      <Text>{labelOf(pref.kind)}</Text>
                    </Flex>
                  </Table.RowHeaderCell>
                  {(['inApp', 'sms'] as const).map((channel) => (
                    <Table.Cell key={channel} justify="center">
                      <Switch
                        checked={pref[channel]}
                        disabled={pref.locked || saving !== null}
                        onCheckedChange={(on) => void change(pref, channel, on)}
                        aria-label={`${labelOf(pref.kind)}، ${channel === 'inApp' ? 'در برنامه' : 'پیامک'}`}
                        data-testid={`preference-${pref.kind}-${channel}`}
                      />
                    </Table.Cell>
                  ))}
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        )}
      </Flex>
    </Card>
  );
}
