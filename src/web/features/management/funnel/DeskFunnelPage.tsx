/**
 * Where customers give up, /management/funnel (action manageCatalogue, decision 046): each desk's funnel over a period
 * of days chosen in the calendar of the page (the last 30 days at first): visits that opened the desk, began filling
 * its form, reached each step, submitted the request, and requests paid; beside each stage its share of the stage
 * before, in Persian digits; and for the visits that left, the fields they touched last, by their titles. Counts
 * only: the server keeps no value and no person with them. One card per desk, so a phone reads it without scrolling
 * sideways.
 */
import { Badge, Callout, Card, Flex, Grid, Heading, Skeleton, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import type { components } from '../../../../generated/api';
import { addTehranDays, tehranToday } from '../../../../shared/calendar/tehran-day';
import { formatNumber, toPersianDigits } from '../../../../shared/format';
import { dateBound, JalaliDateInput } from '../../../components/date/JalaliDateInput';
import { LoadError } from '../../../components/states/LoadError';
import { api, call } from '../../../lib/api-client';
import { calendarAtom } from '../../../lib/calendar';

type DeskFunnel = components['schemas']['DeskFunnel'];

// Inline, not in the global stylesheet: every page, the home page too, loads that one.
const LIST = { listStyle: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: 10 } as const;
const BAR = { height: 6, borderRadius: 3, background: 'var(--gray-a3)', overflow: 'hidden' } as const;
const FILL = { height: '100%', background: 'var(--accent-9)' } as const;

/** `part` as a share of `whole`, in Persian digits ('۶۷٪'); a dash when there is no whole. */
const share = (part: number, whole: number) =>
  whole > 0 ? `${toPersianDigits(Math.round((part / whole) * 100))}٪` : '—';

function Stage({ title, count, before, opened }: { title: string; count: number; before: number; opened: number }) {
  const width = opened > 0 ? Math.max(2, Math.round((count / opened) * 100)) : 0;
  return (
    <li data-testid="funnel-stage">
      <Flex justify="between" gap="2" align="baseline">
        <Text size="2">{title}</Text>
        <Text size="2" weight="bold" data-testid="funnel-count">
          {formatNumber(count)}
        </Text>
      </Flex>
      <div style={BAR} aria-hidden="true">
        <div style={{ ...FILL, width: `${width}%` }} />
      </div>
      <Text size="1" color="gray">
        {share(count, before)} از مرحلهٔ قبل
      </Text>
    </li>
  );
}

function FunnelCard({ funnel }: { funnel: DeskFunnel }) {
  const stages: Array<{ title: string; count: number }> = [
    { title: 'شروع پر کردن فرم', count: funnel.firstInput },
    ...funnel.steps.map((step) => ({
      title: `مرحلهٔ ${toPersianDigits(step.index + 1)}: ${step.title}`,
      count: step.reached,
    })),
    { title: 'ثبت درخواست', count: funnel.submitted },
    { title: 'پرداخت', count: funnel.paid },
  ];
  return (
    <Card size="2" data-testid="funnel-desk" asChild>
      <section aria-labelledby={`funnel-${funnel.desk}`}>
        <Flex direction="column" gap="3">
          <Flex justify="between" align="center" gap="2" wrap="wrap">
            <Heading size="4" as="h2" id={`funnel-${funnel.desk}`}>
              {funnel.title}
            </Heading>
            <Badge color="gray">تبدیل کل: {share(funnel.paid, funnel.opened)}</Badge>
          </Flex>
          <ol style={LIST}>
            <li data-testid="funnel-stage">
              <Flex justify="between" gap="2" align="baseline">
                <Text size="2">باز کردن خدمت</Text>
                <Text size="2" weight="bold" data-testid="funnel-count">
                  {formatNumber(funnel.opened)}
                </Text>
              </Flex>
              <div style={BAR} aria-hidden="true">
                <div style={{ ...FILL, width: funnel.opened > 0 ? '100%' : '0' }} />
              </div>
            </li>
            {stages.map((stage, i) => (
              <Stage
                key={stage.title}
                title={stage.title}
                count={stage.count}
                before={i === 0 ? funnel.opened : stages[i - 1]!.count}
                opened={funnel.opened}
              />
            ))}
          </ol>
          <Flex direction="column" gap="1" data-testid="funnel-left">
            <Text size="2" weight="bold">
              ترک کردند: {formatNumber(funnel.left)}
            </Text>
            {funnel.leftAt.length > 0 ? (
              <>
                <Text size="1" color="gray">
                  آخرین فیلدی که پیش از ترک لمس کردند:
                </Text>
                <ul style={{ ...LIST, gap: 4 }}>
                  {funnel.leftAt.map((field) => (
                    <li key={field.field} data-testid="funnel-left-field">
                      <Flex justify="between" gap="2">
                        <Text size="2">{field.title}</Text>
                        <Text size="2">{formatNumber(field.visits)}</Text>
                      </Flex>
                    </li>
                  ))}
                </ul>
              </>
            ) : funnel.left > 0 ? (
              <Text size="1" color="gray">
                پیش از ترک، فیلدی را لمس نکردند.
              </Text>
            ) : null}
          </Flex>
        </Flex>
      </section>
    </Card>
  );
}

export default function DeskFunnelPage() {
  const calendar = useAtomValue(calendarAtom);
  const today = tehranToday();
  const [from, setFrom] = useState(() => addTehranDays(today, -29));
  const [to, setTo] = useState(today);
  const first = dateBound(from);
  const last = dateBound(to);
  const ordered = Boolean(first && last && first <= last);
  const funnels = useQuery({
    queryKey: ['deskFunnels', first, last],
    queryFn: () =>
      call<{ desks: DeskFunnel[] }>(api.POST('/api/sys/fetchDeskFunnels', { body: { from: first!, to: last! } })),
    enabled: ordered,
  });
  return (
    <Flex direction="column" gap="3">
      <Heading size="6">قیف خدمت‌ها</Heading>
      <Text size="2" color="gray">
        هر بازدید از صفحهٔ یک خدمت تا کجا پیش رفته است؛ فقط شمارش‌ها نگه داشته می‌شوند، نه آنچه مشتریان نوشته‌اند.
        بازدیدی که ثبت نشده و ۳۰ دقیقه از آن گذشته، ترک‌شده به حساب می‌آید.
      </Text>
      <Card size="2">
        <Flex gap="3" wrap="wrap" align="end">
          <Flex direction="column" gap="1" style={{ minWidth: 150 }}>
            <Text as="label" size="2" htmlFor="funnel-from">
              از تاریخ
            </Text>
            <JalaliDateInput id="funnel-from" value={from} onChange={setFrom} calendar={calendar} />
          </Flex>
          <Flex direction="column" gap="1" style={{ minWidth: 150 }}>
            <Text as="label" size="2" htmlFor="funnel-to">
              تا تاریخ
            </Text>
            <JalaliDateInput id="funnel-to" value={to} onChange={setTo} calendar={calendar} />
          </Flex>
        </Flex>
      </Card>
      {first && last && !ordered ? (
        <Callout.Root color="orange" role="alert">
          <Callout.Text>تاریخ شروع نباید بعد از تاریخ پایان باشد.</Callout.Text>
        </Callout.Root>
      ) : funnels.isError ? (
        <LoadError
          error={funnels.error}
          fallback="دریافت قیف خدمت‌ها ممکن نشد."
          onRetry={() => void funnels.refetch()}
          retrying={funnels.isFetching}
        />
      ) : !funnels.data ? (
        <Skeleton height="240px" />
      ) : funnels.data.desks.length === 0 ? (
        <Callout.Root color="gray" data-testid="funnel-empty">
          <Callout.Text>در این بازه کسی صفحهٔ خدمتی را باز نکرده و درخواستی پرداخت نشده است.</Callout.Text>
        </Callout.Root>
      ) : (
        <Grid columns={{ initial: '1', sm: '2' }} gap="3">
          {funnels.data.desks.map((funnel) => (
            <FunnelCard key={funnel.desk} funnel={funnel} />
          ))}
        </Grid>
      )}
    </Flex>
  );
}
