import { Badge, Card, Flex, Heading, Link as RadixLink, Text } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router-dom';
import { formatNumber } from '../../../shared/format';
import { Amount } from '../../components/RialText';
import { type Column, TableView } from '../../components/data-table/TableView';
import { DateText } from '../../components/date/DateText';
import { DeadlineCell } from '../../components/deadline/DeadlineCell';
import { useNow } from '../../lib/useNow';
import { canAtom, staffPagesAtom } from '../../lib/policy';
import { type WaitingWork, waitingWorkQuery } from '../../lib/queries/staff-money';
import { pathOf } from '../../lib/routes';
import { ToneBadge } from '../../components/ToneBadge';
import { SupportSummary } from './support/SupportSummary';
import { durationText } from './support/wait-text';

// Each desk's promises kept and the compensation paid (decision 041): its own chunk, so the home's first load keeps
// its figure.
const PromiseRecordsPanel = lazy(() => import('./PromiseRecordsPanel'));

type PaidRequest = WaitingWork['paidRequests']['items'][number];
type Queue = WaitingWork['queues'][number];

/** The states of a paid request nobody has fulfilled yet: what the paid-requests table counts. */
const UNFULFILLED_STATES = 'paid,inProgress';

/** Where each queue's count leads: the list of exactly what it counts. */
const QUEUE_PATH: Record<Queue['identifier'], string> = {
  withdrawals: `${pathOf('withdrawals')}?state=requested`,
  unconfirmedPayments: pathOf('manualOrderCompletion'),
  // Each compensated request shows its promise and the compensation in its dialog (decision 041).
  compensatedPromises: `${pathOf('requests')}?state=${UNFULFILLED_STATES},purchaseSucceeded`,
};

/** A deadline with the time left counted from now (the minute it is drawn, refreshed each minute). */
function DeadlineNow({ value, atRisk }: { value: string; atRisk: boolean }) {
  return <DeadlineCell value={value} atRisk={atRisk} now={useNow(60_000)} />;
}

const paidColumns: Array<Column<PaidRequest>> = [
  {
    key: 'id',
    title: 'شماره',
    cell: (r) => (
      <RadixLink asChild>
        <Link
          to={`${pathOf('requests')}?open=${r.id}`}
          aria-label={`درخواست شماره ${formatNumber(r.id)}`}
          data-testid={`waiting-request-${r.id}`}
        >
          <span className="ltr">{formatNumber(r.id)}</span>
        </Link>
      </RadixLink>
    ),
  },
  { key: 'customer', title: 'مشتری', cell: (r) => r.customerName },
  { key: 'desk', title: 'خدمت', cell: (r) => r.deskTitle, hideOnMobile: true },
  {
    key: 'price',
    title: 'مبلغ',
    cell: (r) => <Amount value={r.expectedPrice} />,
    hideOnMobile: true,
  },
  { key: 'paidAt', title: 'پرداخت', cell: (r) => <DateText value={r.paidAt} format="dateTime" />, hideOnMobile: true },
  {
    key: 'deadline',
    title: 'مهلت',
    cell: (r) => (r.deadlineAt ? <DeadlineNow value={r.deadlineAt} atRisk={r.deadlineAtRisk} /> : '—'),
  },
  {
    key: 'waited',
    title: 'در انتظار',
    cell: (r) => (
      <Badge color={r.waitingSeconds >= 86_400 ? 'red' : r.waitingSeconds >= 3_600 ? 'orange' : 'gray'}>
        {durationText(r.waitingSeconds)}
      </Badge>
    ),
  },
];

/**
 * What is waiting: open tasks per type in the type's colour, the other queues (withdrawals to pay, payments to
 * complete by hand), and the paid requests nobody has fulfilled yet. Each count opens the list of what it counts,
 * and each paid request opens that request.
 */
function WaitingWorkPanel({ seesRequests }: { seesRequests: boolean }) {
  const work = useQuery(waitingWorkQuery);
  return (
    <Card size="2" data-testid="waiting-work">
      <Flex direction="column" gap="3">
        <Heading size="4" as="h2">
          کارهای در انتظار
        </Heading>
        <Flex gap="2" wrap="wrap" data-testid="waiting-task-types">
          {(work.data?.taskTypes ?? []).map((t) => (
            <RadixLink asChild key={t.identifier} underline="none">
              <Link to={`${pathOf('tasks')}?type=${t.identifier}`} data-testid={`waiting-${t.identifier}`}>
                {/* A type's colour calls for attention; with nothing open the chip stays neutral. */}
                {t.openCount > 0 ? (
                  <ToneBadge size="2" tone={t.color} data-tone="type">
                    {t.title}: {formatNumber(t.openCount)}
                  </ToneBadge>
                ) : (
                  <Badge size="2" color="gray" variant="soft" data-tone="neutral">
                    {t.title}: {formatNumber(t.openCount)}
                  </Badge>
                )}
              </Link>
            </RadixLink>
          ))}
          {(work.data?.queues ?? []).map((q) => (
            <RadixLink asChild key={q.identifier} underline="none">
              <Link to={QUEUE_PATH[q.identifier]} data-testid={`waiting-${q.identifier}`}>
                <Badge size="2" color={q.count > 0 ? 'orange' : 'gray'} data-tone={q.count > 0 ? 'queue' : 'neutral'}>
                  {q.title}: {formatNumber(q.count)}
                </Badge>
              </Link>
            </RadixLink>
          ))}
        </Flex>
        {/* The server lists paid requests only to those who may see or carry them out. */}
        {seesRequests && (
          <>
            <RadixLink asChild size="2" weight="medium">
              <Link to={`${pathOf('requests')}?state=${UNFULFILLED_STATES}`} data-testid="waiting-paid-requests-all">
                درخواست‌های پرداخت‌شده در انتظار انجام ({formatNumber(work.data?.paidRequests.total ?? 0)})
              </Link>
            </RadixLink>
            <TableView
              columns={paidColumns}
              rows={work.data?.paidRequests.items ?? []}
              rowKey={(r) => r.id}
              loading={work.isPending}
              error={work.isError ? work.error : undefined}
              emptyText="درخواستی در انتظار انجام نیست"
              testId="waiting-paid-requests"
            />
          </>
        )}
      </Flex>
    </Card>
  );
}

/**
 * Staff home: what is waiting (for those who see tasks), then one tile per screen this person's actions open
 * (from the server's access object). The route guard shows the no-access state to anyone with none, so this page
 * always has tiles.
 */
export default function ManagementHomePage() {
  const pages = useAtomValue(staffPagesAtom);
  const can = useAtomValue(canAtom);
  return (
    <Flex direction="column" gap="3">
      <Heading size="6">مدیریت</Heading>
      {can('viewTasks') && <WaitingWorkPanel seesRequests={can('viewRequests') || can('manageCurrencyPayments')} />}
      {can('viewRequests') && <SupportSummary />}
      {can('viewRequests') && (
        <Suspense fallback={null}>
          <PromiseRecordsPanel />
        </Suspense>
      )}
      <div className="card-grid" data-testid="management-tiles">
        {pages.map((page) => (
          <Link key={page.menu} to={pathOf(page.route)} className="card-link">
            <Card size="2">
              <Text weight="medium">{page.title}</Text>
            </Card>
          </Link>
        ))}
      </div>
    </Flex>
  );
}
