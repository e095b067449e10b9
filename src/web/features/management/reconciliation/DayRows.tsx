/**
 * A reconciled day's unmatched rows (resolved ones stay, marked, with their note, who and when): each with its kind in
 * Persian, the amounts and reference it is about, links to the request, and two dialogs — its evidence (the
 * gateway's or our bank statement's line, the collections, the withdrawals and the ledger's side as the run found them)
 * and its resolution with a required note.
 */
import {
  Badge,
  Button,
  Card,
  DataList,
  Dialog,
  Flex,
  Heading,
  Link as RadixLink,
  Text,
  TextArea,
} from '@radix-ui/themes';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router-dom';
import { toPersianDigits } from '../../../../shared/digits';
import { formatNumber, formatPhone } from '../../../../shared/format';
import { TableView } from '../../../components/data-table/TableView';
import { DateText } from '../../../components/date/DateText';
import { DialogActions } from '../../../components/DialogActions';
import { Latin } from '../../../components/Latin';
import { Amount } from '../../../components/RialText';
import { EmptyState } from '../../../components/states/EmptyState';
import { serverMessage, useDialogAction } from '../../../components/useDialogAction';
import { api } from '../../../lib/api-client';
import { pathOf } from '../../../lib/routes';
import { kindHint, kindLabel } from './kinds';
import { dayQueryKey, type Row } from './day';
import { statementTitle } from './statement-formats';

type Side = Record<string, unknown>;
const sides = (v: unknown): Side[] => (Array.isArray(v) ? (v as Side[]) : []);
const gatewayOf = (row: Row) => (row.evidence.gateway ?? null) as Side | null;
/** The line of our bank account's uploaded statement, on the bank-side rows. */
const bankOf = (row: Row) => (row.evidence.bank ?? null) as Side | null;

/** The staff's page of a request, opened on it. */
const requestPath = (id: number) => `${pathOf('requests')}?open=${id}`;

function RequestLink({ id }: { id: number }) {
  return (
    <RadixLink asChild size="2">
      <Link to={requestPath(id)} data-testid="reconciliation-request-link">
        درخواست {formatNumber(id)}
      </Link>
    </RadixLink>
  );
}

/** Where the row points: the request, the collection and the withdrawal it is about, where they exist. */
function RowLinks({ row }: { row: Row }) {
  return (
    <Flex direction="column" gap="1">
      {row.purchaseId !== null && <RequestLink id={row.purchaseId} />}
      {row.collectionId !== null && (
        <RadixLink asChild size="2">
          <Link to={pathOf('collections')} data-testid="reconciliation-collection-link">
            دریافت {formatNumber(row.collectionId)}
          </Link>
        </RadixLink>
      )}
      {row.withdrawalId !== null && (
        <RadixLink asChild size="2">
          <Link to={`${pathOf('withdrawals')}?state=all`} data-testid="reconciliation-withdrawal-link">
            برداشت {formatNumber(row.withdrawalId)}
          </Link>
        </RadixLink>
      )}
      {row.purchaseId === null && row.collectionId === null && row.withdrawalId === null && <Text color="gray">—</Text>}
    </Flex>
  );
}

/** What the row is about in one line: the bank's reference and amount, else its first collection's or withdrawal's. */
function Subject({ row }: { row: Row }) {
  const gateway = gatewayOf(row);
  const bank = bankOf(row);
  const collection = sides(row.evidence.collections)[0];
  const withdrawal = sides(row.evidence.withdrawals)[0];
  const amount = gateway?.amount ?? bank?.amount ?? collection?.amount ?? withdrawal?.amount;
  const reference =
    gateway?.referenceId ?? bank?.reference ?? collection?.referenceId ?? withdrawal?.bankReference ?? null;
  return (
    <Flex direction="column" gap="1">
      {amount !== undefined && amount !== null && <Amount value={Number(amount)} />}
      {reference !== undefined && reference !== null && (
        <Text size="1" color="gray">
          مرجع <Latin>{toPersianDigits(String(reference))}</Latin>
        </Text>
      )}
    </Flex>
  );
}

/** Staff without a name on file are named by their mobile, read in Persian digits. */
const nameOrMobile = (name: string) => (/^09\d{9}$/.test(name) ? formatPhone(name) : name);

function Resolution({ row }: { row: Row }) {
  if (!row.resolvedAt) {
    return (
      <Badge color="red" data-testid="reconciliation-row-state">
        رسیدگی‌نشده
      </Badge>
    );
  }
  return (
    <Flex direction="column" gap="1" align="start" style={{ maxWidth: 320 }}>
      <Badge color="green" data-testid="reconciliation-row-state">
        رسیدگی‌شده
      </Badge>
      <Text size="2" data-testid="reconciliation-row-note" style={{ overflowWrap: 'anywhere' }}>
        {row.resolvedNote}
      </Text>
      <Text size="1" color="gray">
        {row.resolvedByName ? nameOrMobile(row.resolvedByName) : '—'}،{' '}
        <DateText value={row.resolvedAt} format="dateTime" />
      </Text>
    </Flex>
  );
}

function SideItems({ side, testId }: { side: Side; testId: string }) {
  const shown = (key: string, value: unknown) => {
    if (value === null || value === undefined || value === '') return <Text color="gray">—</Text>;
    if (key === 'amount') return <Amount value={Number(value)} />;
    if (/At$/.test(key)) return <DateText value={String(value)} format="dateTime" />;
    if (typeof value === 'object') return <Latin>{JSON.stringify(value)}</Latin>;
    if (key === 'purchaseId') return <RequestLink id={Number(value)} />;
    if (key === 'direction') return <Text>{value === 'in' ? 'واریز به حساب' : 'برداشت از حساب'}</Text>;
    if (key === 'statement') return <Text>{statementTitle(String(value))}</Text>;
    if (typeof value === 'number') return <Text>{toPersianDigits(value)}</Text>;
    // A file's name and a gateway's authority stay as written; references and card numbers are read in Persian digits.
    if (key === 'fileName' || key === 'authority') return <Latin>{String(value)}</Latin>;
    return <Latin>{toPersianDigits(String(value))}</Latin>;
  };
  const LABELS: Record<string, string> = {
    id: 'شناسه',
    authority: 'شناسهٔ پرداخت',
    referenceId: 'مرجع بانک',
    amount: 'مبلغ',
    cardNo: 'کارت',
    settledAt: 'زمان تسویه',
    createdAt: 'زمان ثبت',
    userId: 'کاربر',
    purchaseId: 'درخواست',
    type: 'نوع تراکنش',
    amounts: 'مبالغ',
    collectionId: 'دریافت',
    statement: 'صورت‌حساب',
    fileName: 'فایل',
    lineNo: 'سطر',
    reference: 'شمارهٔ پیگیری',
    direction: 'جهت',
    description: 'شرح',
    bankReference: 'شمارهٔ پیگیری بانک',
    decidedAt: 'زمان انجام',
  };
  return (
    <Card size="1" data-testid={testId}>
      <DataList.Root size="1">
        {Object.entries(side).map(([key, value]) => (
          <DataList.Item key={key}>
            <DataList.Label minWidth="96px">{LABELS[key] ?? key}</DataList.Label>
            <DataList.Value style={{ overflowWrap: 'anywhere' }}>{shown(key, value)}</DataList.Value>
          </DataList.Item>
        ))}
      </DataList.Root>
    </Card>
  );
}

function EvidenceDialog({ row }: { row: Row }) {
  const gateway = gatewayOf(row);
  const bank = bankOf(row);
  const collections = sides(row.evidence.collections);
  const withdrawals = sides(row.evidence.withdrawals);
  const ledger = sides(row.evidence.ledger);
  // A bank-side row (our account's statement against deposits and withdrawals) never has a gateway line.
  const bankSide = 'bank' in row.evidence;
  // Money in is matched with deposits (collections), money out with withdrawals: show the side that applies.
  const moneyOut = bankSide && (bank ? bank.direction === 'out' : withdrawals.length > 0);
  const section = (title: string, count: number, body: ReactNode, none: string) => (
    <Flex direction="column" gap="2">
      <Heading as="h3" size="2">
        {title} {count > 1 && `(${formatNumber(count)})`}
      </Heading>
      {count === 0 ? <Text color="gray">{none}</Text> : body}
    </Flex>
  );
  return (
    <Dialog.Root>
      <Dialog.Trigger>
        <Button size="1" variant="soft" data-testid="reconciliation-evidence">
          شواهد
        </Button>
      </Dialog.Trigger>
      <Dialog.Content maxWidth="640px" data-testid="reconciliation-evidence-dialog">
        <Dialog.Title>شواهد ردیف {formatNumber(row.id)}</Dialog.Title>
        <Dialog.Description size="2" color="gray">
          {kindLabel(row.kind)} — {kindHint(row.kind)}
        </Dialog.Description>
        <Flex direction="column" gap="3" mt="3">
          {bankSide
            ? section(
                'ردیف صورت‌حساب بانک',
                bank ? 1 : 0,
                bank && <SideItems side={bank} testId="evidence-bank" />,
                'در صورت‌حساب بانکِ بارگذاری‌شده ردیفی برای آن نیست.',
              )
            : section(
                'گزارش تسویهٔ درگاه',
                gateway ? 1 : 0,
                gateway && <SideItems side={gateway} testId="evidence-gateway" />,
                'درگاه این پرداخت را تسویه نکرده است.',
              )}
          {moneyOut
            ? section(
                'برداشت‌ها',
                withdrawals.length,
                withdrawals.map((w, i) => <SideItems key={i} side={w} testId="evidence-withdrawal" />),
                'برداشتی با این شمارهٔ پیگیری ثبت نشده است.',
              )
            : section(
                'دریافت‌ها',
                collections.length,
                collections.map((c, i) => <SideItems key={i} side={c} testId="evidence-collection" />),
                'دریافتی ثبت نشده است.',
              )}
          {section(
            'ثبت‌های دفتر کل',
            ledger.length,
            ledger.map((t, i) => <SideItems key={i} side={t} testId="evidence-ledger" />),
            'تراکنشی در دفتر کل نیست.',
          )}
          {(row.purchaseId !== null || row.collectionId !== null || row.withdrawalId !== null) && (
            <RowLinks row={row} />
          )}
        </Flex>
        <Flex justify="end" mt="4">
          <Dialog.Close>
            <Button variant="soft" color="gray">
              بستن
            </Button>
          </Dialog.Close>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  );
}

function ResolveDialog({ row, day, onResolved }: { row: Row; day: string; onResolved: () => void }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState('');
  const action = useDialogAction();
  const submit = () =>
    void action.run(
      () => serverMessage(api.POST('/api/sys/resolveReconciliationRow', { body: { row: row.id, note: note.trim() } })),
      {
        done: () => {
          setOpen(false);
          void queryClient.invalidateQueries({ queryKey: dayQueryKey(day) });
          onResolved();
        },
      },
    );
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) {
          setNote('');
          action.setError(null);
        }
      }}
    >
      <Dialog.Trigger>
        <Button size="1" data-testid="reconciliation-resolve">
          رسیدگی
        </Button>
      </Dialog.Trigger>
      <Dialog.Content maxWidth="520px" data-testid="reconciliation-resolve-dialog">
        <Dialog.Title>رسیدگی به ردیف {formatNumber(row.id)}</Dialog.Title>
        <Dialog.Description size="2" color="gray">
          {kindLabel(row.kind)}. ردیف حذف نمی‌شود؛ با یادداشت شما رسیدگی‌شده می‌ماند و در رویدادنگار ثبت می‌شود.
        </Dialog.Description>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (note.trim()) submit();
          }}
        >
          <Flex direction="column" gap="1" mt="3">
            <Text as="label" size="2" htmlFor={`resolve-note-${row.id}`}>
              یادداشت رسیدگی
            </Text>
            <TextArea
              id={`resolve-note-${row.id}`}
              value={note}
              onChange={(e) => setNote(e.target.value)}
              maxLength={2000}
              rows={4}
              required
              placeholder="چه بررسی شد و چه شد"
              data-testid="reconciliation-note"
            />
          </Flex>
          <DialogActions
            mt="3"
            error={action.error}
            busy={action.busy !== null}
            submitLabel="ثبت رسیدگی"
            submitDisabled={!note.trim()}
            submitTestId="reconciliation-resolve-submit"
          />
        </form>
      </Dialog.Content>
    </Dialog.Root>
  );
}

export function DayRows({ day, rows, onResolved }: { day: string; rows: Row[]; onResolved: () => void }) {
  const unmatched = rows.filter((r) => !r.matched);
  const matched = rows.length - unmatched.length;
  if (unmatched.length === 0) {
    return (
      <EmptyState title="برای این روز ردیف ناهمخوانی نیست" testId="reconciliation-empty" compact>
        {matched > 0
          ? `همهٔ ${formatNumber(matched)} ردیف این روز با هم می‌خوانند.`
          : 'در این روز پرداختی از درگاه تسویه یا دریافت نشده است.'}
      </EmptyState>
    );
  }
  return (
    <Flex direction="column" gap="2">
      <Text size="2" color="gray">
        {formatNumber(unmatched.length)} ردیف ناهمخوان و {formatNumber(matched)} ردیف همخوان.
      </Text>
      <TableView<Row>
        testId="reconciliation-rows"
        variant="surface"
        stackOnMobile
        rows={unmatched}
        rowKey={(r) => r.id}
        rowProps={(r) => ({
          'data-testid': 'reconciliation-row',
          'data-kind': r.kind,
          'data-resolved': r.resolvedAt ? 'true' : 'false',
        })}
        columns={[
          { key: 'id', title: 'ردیف', cell: (r) => formatNumber(r.id), hideOnMobile: true },
          {
            key: 'kind',
            title: 'نوع',
            rowHeader: true,
            cell: (r) => (
              <Flex direction="column" gap="1" align="start">
                <Text weight="bold">{kindLabel(r.kind)}</Text>
                {!r.current && (
                  <Text size="1" color="gray">
                    در آخرین اجرا دیگر پیدا نشد
                  </Text>
                )}
              </Flex>
            ),
          },
          { key: 'subject', title: 'مبلغ و مرجع', cell: (r) => <Subject row={r} /> },
          { key: 'links', title: 'پیوندها', cell: (r) => <RowLinks row={r} /> },
          { key: 'state', title: 'وضعیت', cell: (r) => <Resolution row={r} /> },
          {
            key: 'actions',
            title: 'عملیات',
            cell: (r) => (
              <Flex gap="2" wrap="wrap">
                <EvidenceDialog row={r} />
                {!r.resolvedAt && <ResolveDialog row={r} day={day} onResolved={onResolved} />}
              </Flex>
            ),
          },
        ]}
      />
    </Flex>
  );
}
