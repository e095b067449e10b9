/**
 * The daily reconciliation, /management/reconciliation (action reconcile; decision 026): the reconciled days with their
 * totals (schemas/tables/reconciliationDays.json), a day picked there or typed in the chosen calendar (`?day=`), the
 * day run again by hand, its totals, and its unmatched rows, each with its kind, its evidence (the gateway's, the
 * collections' and the ledger's side) in a dialog, links to the request, and its resolution: resolved with a required
 * note, the row stays, showing the note, who and when. The day's rows export to xlsx (loaded on demand).
 */
import { DownloadIcon, ReloadIcon } from '@radix-ui/react-icons';
import { Badge, Button, Callout, Card, Flex, Grid, Heading, Skeleton, Text } from '@radix-ui/themes';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { type ReactNode, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import daysTable from '../../../../../schemas/tables/reconciliationDays.json';
import { gregorianToJalali } from '../../../../shared/calendar';
import { addTehranDays, tehranToday } from '../../../../shared/calendar/tehran-day';
import { formatNumber } from '../../../../shared/format';
import { displayDate } from '../../../../shared/format/dates';
import { asTableDef, DataTable } from '../../../components/data-table/DataTable';
import { exportRows } from '../../../components/data-table/export';
import { DateText } from '../../../components/date/DateText';
import { dateBound, JalaliDateInput } from '../../../components/date/JalaliDateInput';
import { Amount } from '../../../components/RialText';
import { showError, showSnackbar } from '../../../components/shell/snackbar';
import { LoadError } from '../../../components/states/LoadError';
import { ApiError, api, call } from '../../../lib/api-client';
import { calendarAtom } from '../../../lib/calendar';
import { type Day, dayQueryKey, type Row } from './day';
import { DayClosing } from './DayClosing';
import { DayRows } from './DayRows';
import { kindLabel } from './kinds';
import { StatementUpload } from './StatementUpload';
import { fetchTrialBalance, TrialBalanceView } from './TrialBalanceView';

const TABLE = asTableDef(daysTable);

/** The Tehran day before today (Gregorian YYYY-MM-DD): what the nightly run reconciles, and the page opens on. */
const yesterday = () => addTehranDays(tehranToday(), -1);
const isDay = (text: string | null): text is string => !!text && /^\d{4}-\d{2}-\d{2}$/.test(text);

/** The day and its rows, or null when it was never run (the server's 404). */
async function fetchDay(day: string): Promise<{ day: Day; rows: Row[] } | null> {
  try {
    return await call<{ day: Day; rows: Row[] }>(api.POST('/api/sys/fetchReconciliationDay', { body: { day } }));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

function Total({ label, children, testId }: { label: string; children: ReactNode; testId: string }) {
  return (
    <Flex direction="column" gap="1" data-testid={testId}>
      <Text size="1" color="gray">
        {label}
      </Text>
      <Text size="3" weight="bold">
        {children}
      </Text>
    </Flex>
  );
}

function Totals({ day }: { day: Day }) {
  return (
    <Grid columns={{ initial: '2', sm: '3' }} gap="3" data-testid="reconciliation-totals">
      <Total label="تسویهٔ درگاه" testId="total-gateway">
        {formatNumber(day.gatewayCount)} مورد، <Amount value={day.gatewayAmount} />
      </Total>
      <Total label="دریافت‌های آنلاین" testId="total-collections">
        {formatNumber(day.collectionCount)} مورد، <Amount value={day.collectionAmount} />
      </Total>
      <Total label="ردیف‌های صورت‌حساب بانک" testId="total-bank">
        {formatNumber(day.bankCount)} ردیف، واریز <Amount value={day.bankInAmount} />، برداشت{' '}
        <Amount value={day.bankOutAmount} />
      </Total>
      <Total label="ثبت‌های دفتر کل" testId="total-ledger">
        {formatNumber(day.ledgerCount)} تراکنش
      </Total>
      <Total label="ردیف‌های همخوان" testId="total-matched">
        {formatNumber(day.matchedCount)}
      </Total>
      <Total label="ردیف‌های ناهمخوان" testId="total-unmatched">
        {formatNumber(day.unmatchedCount)}
      </Total>
      <Total label="رسیدگی‌نشده" testId="total-unresolved">
        <Text color={day.unresolvedCount > 0 ? 'red' : undefined}>{formatNumber(day.unresolvedCount)}</Text>
      </Total>
    </Grid>
  );
}

/** The trial balance as spreadsheet rows: each account, the totals, then our bank account beside its statements. */
function trialBalanceRows(t: Awaited<ReturnType<typeof fetchTrialBalance>>): Array<Record<string, unknown>> {
  const line = (title: string, v: { opening: number; debits: number; credits: number; closing: number }) => ({
    حساب: title,
    'ماندهٔ اول روز (ریال)': v.opening,
    'بدهکار (ریال)': v.debits,
    'بستانکار (ریال)': v.credits,
    'ماندهٔ پایان روز (ریال)': v.closing,
  });
  const note = (title: string, amount: number | null) => ({ حساب: title, 'ماندهٔ پایان روز (ریال)': amount ?? '' });
  return [
    ...t.accounts.map((a) => line(a.title, a)),
    line('جمع', t.totals),
    note('حساب بانکی در دفتر کل', t.bank.ledgerClosing),
    note('صورت‌حساب بانک', t.bank.statementClosing),
    note('اختلاف', t.bank.difference),
    ...t.bank.explained.map((p) => note(p.title, p.amount)),
  ];
}

/** The day's rows as a spreadsheet (a second sheet: the day's trial balance): every row the last run found, matched ones too, with its resolution. */
async function exportDay(day: Day, rows: Row[], jalali: string): Promise<void> {
  const list = (v: unknown) => (Array.isArray(v) ? (v as Array<Record<string, unknown>>) : []);
  const exported = await exportRows(
    rows.map((r) => {
      const gateway = r.evidence.gateway as Record<string, unknown> | null | undefined;
      return {
        'شماره ردیف': r.id,
        روز: jalali,
        نوع: kindLabel(r.kind),
        'مرجع بانک': gateway ? String(gateway.referenceId ?? '') : '',
        'مبلغ تسویهٔ درگاه (ریال)': gateway ? Number(gateway.amount) : '',
        دریافت‌ها: list(r.evidence.collections)
          .map((c) => `${String(c.id)}: ${String(c.amount)}`)
          .join('، '),
        'تراکنش‌های دفتر': list(r.evidence.ledger)
          .map((t) => String(t.id))
          .join('، '),
        درخواست: r.purchaseId ?? '',
        وضعیت: r.matched ? 'همخوان' : r.resolvedAt ? 'رسیدگی‌شده' : 'رسیدگی‌نشده',
        'یادداشت رسیدگی': r.resolvedNote ?? '',
        رسیدگی‌کننده: r.resolvedByName ?? '',
        'زمان رسیدگی': r.resolvedAt ? displayDate(r.resolvedAt, 'dateTime', 'fa') : '',
      };
    }),
    'xlsx',
    `reconciliation-${day.day}.xlsx`,
    'reconciliation',
    [{ name: 'trial-balance', rows: trialBalanceRows(await fetchTrialBalance(day.day)) }],
  );
  if (!exported) showSnackbar('داده‌ای برای خروجی وجود ندارد.', 'orange');
}

function DayView({ day, onRan }: { day: string; onRan: () => void }) {
  const queryClient = useQueryClient();
  const calendar = useAtomValue(calendarAtom);
  const [running, setRunning] = useState(false);
  const query = useQuery({ queryKey: dayQueryKey(day), queryFn: () => fetchDay(day) });
  const jalali = gregorianToJalali(day);
  const shownDay = displayDate(day, 'slashDate', calendar);

  const run = async () => {
    setRunning(true);
    try {
      const answer = await api.POST('/api/sys/runReconciliation', { body: { day } });
      showSnackbar(answer.data?.msg || 'تطبیق روز اجرا شد.', 'green');
      await queryClient.invalidateQueries({ queryKey: dayQueryKey(day) });
      // A run may post the gateway's payouts: the trial balance moves with it.
      await queryClient.invalidateQueries({ queryKey: ['reconciliation', 'trialBalance'] });
      onRan();
    } catch (error) {
      showError(error);
    } finally {
      setRunning(false);
    }
  };

  const data = query.data;
  return (
    <Card size="2" data-testid="reconciliation-day" data-day={day}>
      <Flex direction="column" gap="3">
        <Flex justify="between" align="center" gap="2" wrap="wrap">
          <Heading as="h2" size="4">
            روز <span className="ltr">{shownDay}</span>
          </Heading>
          <Flex gap="2" wrap="wrap">
            <Button onClick={() => void run()} loading={running} data-testid="reconciliation-run">
              <ReloadIcon /> {data === null ? 'اجرای تطبیق' : 'اجرای دوباره'}
            </Button>
            {data && (
              <Button
                variant="soft"
                onClick={() => void exportDay(data.day, data.rows, jalali)}
                data-testid="reconciliation-export"
              >
                <DownloadIcon /> خروجی xlsx
              </Button>
            )}
            {data && <DayClosing day={data.day} />}
          </Flex>
        </Flex>
        {query.isPending && (
          <Flex direction="column" gap="2" role="status" aria-label="در حال بارگذاری روز">
            <Skeleton height="56px" />
            <Skeleton height="120px" />
          </Flex>
        )}
        {query.isError && (
          <LoadError
            error={query.error}
            fallback="دریافت تطبیق این روز ممکن نشد."
            onRetry={() => void query.refetch()}
            retrying={query.isRefetching}
          />
        )}
        {data === null && (
          <Callout.Root color="gray" data-testid="reconciliation-not-run">
            <Callout.Text>
              تطبیق این روز هنوز اجرا نشده است؛ با «اجرای تطبیق» آمار درگاه، دریافت‌ها و دفتر کل این روز با هم مقایسه
              می‌شود.
            </Callout.Text>
          </Callout.Root>
        )}
        {data && (
          <>
            <Totals day={data.day} />
            <TrialBalanceView day={day} />
            <Text size="1" color="gray">
              آخرین اجرا: <DateText value={data.day.ranAt} format="dateTime" />
              {Object.entries(data.day.unmatchedByKind).length > 0 && (
                <>
                  {' — '}
                  {Object.entries(data.day.unmatchedByKind).map(([kind, count]) => (
                    <Badge key={kind} color="red" variant="soft" ml="1">
                      {kindLabel(kind)}: {formatNumber(count)}
                    </Badge>
                  ))}
                </>
              )}
            </Text>
            <DayRows day={day} rows={data.rows} onResolved={onRan} />
          </>
        )}
      </Flex>
    </Card>
  );
}

/** After a statement upload, the days it covers are reconciled again so their rows take the new lines in. */
async function runDays(days: string[]): Promise<void> {
  for (const day of days) await call(api.POST('/api/sys/runReconciliation', { body: { day } }));
}

export default function ReconciliationPage() {
  const calendar = useAtomValue(calendarAtom);
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const asked = params.get('day');
  const day = isDay(asked) ? asked : yesterday();
  const [typed, setTyped] = useState(day);
  const [refresh, setRefresh] = useState(0);
  const choose = (next: string) => {
    setTyped(next);
    setParams({ day: next }, { replace: true });
  };

  return (
    <Flex direction="column" gap="3">
      <Heading size="6">تطبیق روزانه</Heading>
      <Text size="2" color="gray">
        هر شب روز قبل خودکار تطبیق می‌شود: گزارش تسویهٔ درگاه، دریافت‌های آنلاین و ثبت‌های دفتر کل، و صورت‌حساب‌های بانکِ
        بارگذاری‌شده با واریزهای دستی و برداشت‌ها. ردیف‌های ناهمخوان را بررسی و با یادداشت رسیدگی کنید.
      </Text>
      <Card size="2">
        <Flex gap="3" align="end" wrap="wrap">
          <Flex direction="column" gap="1">
            <Text as="label" size="2" htmlFor="reconciliation-day-input">
              روز
            </Text>
            <JalaliDateInput
              id="reconciliation-day-input"
              value={typed}
              calendar={calendar}
              onChange={(stored) => {
                setTyped(stored);
                const bound = dateBound(stored);
                if (bound) setParams({ day: bound }, { replace: true });
              }}
            />
          </Flex>
        </Flex>
      </Card>
      <StatementUpload
        onUploaded={(days) => {
          void runDays(days)
            .then(() => queryClient.invalidateQueries({ queryKey: ['reconciliation', 'day'] }))
            .then(() => setRefresh((n) => n + 1))
            .catch(showError);
        }}
      />
      <DayView key={day} day={day} onRan={() => setRefresh((n) => n + 1)} />
      <Card size="2">
        <Flex direction="column" gap="3">
          <Heading as="h2" size="4">
            {TABLE.title}
          </Heading>
          <DataTable
            def={TABLE}
            refreshKey={refresh}
            stackOnMobile
            actions={(row) => (
              <Button
                size="1"
                variant={row.day === day ? 'solid' : 'soft'}
                onClick={() => choose(String(row.day))}
                aria-label={`دیدن روز ${displayDate(String(row.day), 'slashDate', calendar)}`}
                data-testid="reconciliation-open-day"
              >
                دیدن
              </Button>
            )}
          />
        </Flex>
      </Card>
    </Flex>
  );
}
