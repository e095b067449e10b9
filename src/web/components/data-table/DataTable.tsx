/**
 * A list driven by a JSON definition under schemas/tables/ (every management list, the customer's requests):
 * server- or client-side search and paging, rows per page, Persian empty/loading/no-match texts,
 * dates in the chosen calendar, row colours of SPEC section 4, and export through xlsx on demand.
 * The table itself is drawn by TableView, as every table of the app is.
 */
import { AuditChangesView, auditChanges, auditChangesText } from '../audit/AuditChangesView';
import { DownloadIcon, MagnifyingGlassIcon, ReloadIcon } from '@radix-ui/react-icons';
import { Badge, Button, DropdownMenu, Flex, IconButton, Select, Text, TextField } from '@radix-ui/themes';
import { useQuery } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { type ReactNode, useDeferredValue, useEffect, useMemo, useState } from 'react';
import type { DataTable as TableDef } from '../../../generated/schemas/table';
import { displayDate, relativeTime } from '../../../shared/format/dates';
import { formatNumber, formatPhone, toPersianDigits } from '../../../shared/format';
import { Amount } from '../RialText';
import { ApiError, api, FALLBACK_MESSAGE } from '../../lib/api-client';
import { calendarAtom } from '../../lib/calendar';
import { useNow } from '../../lib/useNow';
import { Latin } from '../Latin';
import { showSnackbar } from '../shell/snackbar';
import { type ExportFormat, exportRows } from './export';
import { type Column, TableView } from './TableView';
import { type FieldView, Fields, fieldsText } from '../FieldsView';
import { ToneBadge } from '../ToneBadge';
import { DeadlineCell } from '../deadline/DeadlineCell';

type Row = Record<string, unknown>;

/** A table definition imported from schemas/tables (validated by its meta-schema in CI). */
export const asTableDef = (json: unknown) => json as TableDef;
const PAGE_SIZES = ['10', '25', '50', '100'];
const ROW_BACKGROUND = { red: 'var(--red-3)', green: 'var(--green-3)', grey: 'var(--gray-3)' } as const;

function rowColor(def: TableDef, row: Row): keyof typeof ROW_BACKGROUND | undefined {
  return def.rowColor?.find((r) => Object.entries(r.when).every(([k, v]) => row[k] === v))?.color;
}

async function fetchRows(
  def: TableDef,
  search: string,
  page: number,
  perPage: number,
  filters: Record<string, string>,
): Promise<{ items: Row[]; total: number }> {
  const { path, method, paging, params } = def.source;
  const body =
    paging === 'server' ? { ...(params ?? {}), ...filters, ...(search ? { search } : {}), page, perPage } : params;
  // The path comes from a validated table definition, so the typed client is addressed loosely here.
  const client = api as unknown as Record<
    string,
    (p: string, o?: object) => Promise<{ data?: { data: { items: Row[]; total: number } } }>
  >;
  const result = await client[method === 'get' ? 'GET' : 'POST']!(path, body ? { body } : undefined);
  if (!result.data) throw new ApiError(FALLBACK_MESSAGE, 0, null);
  return result.data.data;
}

export function DataTable({
  def,
  actions,
  refreshKey = 0,
  decorate,
  stackOnMobile = false,
  empty,
  narrowed = false,
}: {
  def: TableDef;
  actions?: (row: Row) => ReactNode;
  /** Changing it fetches again: a counter, or a string naming the filters the rows depend on. */
  refreshKey?: number | string;
  /**
   * Derives fields of the rows from the whole list the server sent, before search and paging (the colours of a
   * transaction depend on the newer ones); its fields may be shown, and matched by rowColor rules.
   */
  decorate?: (items: Row[]) => Row[];
  /** See TableView. */
  stackOnMobile?: boolean;
  /** Drawn instead of the table while the list has nothing in it at all (no search or filter narrowing it). */
  empty?: ReactNode;
  /** The page's own filters (a state, a date range, in the source's parameters) narrow the rows. */
  narrowed?: boolean;
}) {
  const calendar = useAtomValue(calendarAtom);
  const now = useNow();
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(10);
  const serverPaging = def.source.paging === 'server';
  const [filters, setFilters] = useState<Record<string, string>>({});

  useEffect(() => {
    const t = setTimeout(() => {
      setSearch(searchText.trim());
      setPage(1);
    }, 300);
    return () => clearTimeout(t);
  }, [searchText]);

  const fresh = useQuery({
    queryKey: ['table', def.name, serverPaging ? { search, page, perPage, filters } : {}, refreshKey],
    queryFn: () => fetchRows(def, search, page, perPage, filters),
    placeholderData: (previous) => previous,
  });
  // Deferred: an answer arriving re-renders at once (the query's store is read synchronously) with what was shown,
  // and the rows are drawn after, in slices a slow phone can answer input between (one long task before).
  const { data, isPending, isError, error } = fresh;
  const query = useDeferredValue(
    useMemo(() => ({ data, isPending, isError, error }), [data, isPending, isError, error]),
  );

  const { rows, total } = useMemo(() => {
    const received = query.data?.items ?? [];
    const items = decorate ? decorate(received) : received;
    if (serverPaging) return { rows: items, total: query.data?.total ?? 0 };
    const needle = search.toLowerCase();
    const filtered = needle
      ? items.filter((r) =>
          def.columns.some((c) =>
            String(r[c.key] ?? '')
              .toLowerCase()
              .includes(needle),
          ),
        )
      : items;
    return { rows: filtered.slice((page - 1) * perPage, page * perPage), total: filtered.length };
  }, [query.data, serverPaging, search, page, perPage, def.columns, decorate]);

  const pages = Math.max(1, Math.ceil(total / perPage));

  const cell = (col: TableDef['columns'][number], row: Row): ReactNode => {
    const v = row[col.key];
    // A change with nothing after (a removal) still shows what was before.
    if ((v === null || v === undefined || v === '') && col.type !== 'changes') return <Text color="gray">—</Text>;
    const shown = plainCell(col, row, v);
    return col.latin ? <Latin>{shown}</Latin> : shown;
  };

  const plainCell = (col: TableDef['columns'][number], row: Row, v: unknown): ReactNode => {
    switch (col.type) {
      case 'number':
        return <span className="ltr">{formatNumber(v as number)}</span>;
      case 'rial':
        return <Amount value={v as number} />;
      case 'date':
        return <span className="ltr">{displayDate(v as string, 'slashDate', calendar)}</span>;
      case 'dateTime': {
        // A recent event also says how long ago it was, under its date.
        const ago = relativeTime(v as string, now);
        return (
          <>
            <span className="ltr">{displayDate(v as string, 'dateTime', calendar)}</span>
            {ago && (
              <Text as="div" size="1" color="gray" data-testid="relative-time">
                {ago}
              </Text>
            )}
          </>
        );
      }
      case 'boolean':
        return v ? <Badge color="green">بله</Badge> : <Badge color="gray">خیر</Badge>;
      case 'phone':
        return <span className="ltr">{formatPhone(String(v))}</span>;
      case 'badge':
        return (
          <ToneBadge tone={String(row[col.colorKey ?? ''] ?? '')} data-testid="row-badge">
            {col.latin ? String(v) : toPersianDigits(String(v))}
          </ToneBadge>
        );
      case 'deadline':
        return <DeadlineCell value={String(v)} atRisk={col.riskKey ? row[col.riskKey] === true : false} now={now} />;
      case 'list':
        return <span>{formatNumber(Array.isArray(v) ? v.length : 0)}</span>;
      case 'fields':
        return <Fields fields={v as FieldView[]} />;
      case 'changes':
        return <AuditChangesView changes={auditChanges(row[col.beforeKey ?? ''], v, calendar)} />;
      default:
        return String(v);
    }
  };

  const doExport = async (format: ExportFormat) => {
    const exported = await exportRows(
      rows.map((r) =>
        Object.fromEntries(
          def.columns.map((c) => [
            c.title,
            c.type === 'fields'
              ? fieldsText((r[c.key] as FieldView[] | undefined) ?? [])
              : c.type === 'changes'
                ? auditChangesText(r[c.beforeKey ?? ''], r[c.key], calendar)
                : Array.isArray(r[c.key])
                  ? (r[c.key] as unknown[]).length
                  : r[c.key],
          ]),
        ),
      ),
      format,
    );
    if (!exported) showSnackbar('داده‌ای برای خروجی وجود ندارد.', 'orange');
  };

  const columns: Array<Column<Row>> = def.columns.map((col) => ({
    key: col.key,
    title: col.title,
    hideOnMobile: col.hideOnMobile,
    cell: (row) => cell(col, row),
  }));
  if (actions) columns.push({ key: 'actions', title: 'عملیات', cell: actions });

  const filtered = narrowed || Object.keys(filters).length > 0;
  const nothingYet = !query.isPending && !query.isError && total === 0 && !search && !filtered;
  if (empty && nothingYet) {
    return <div data-testid={`table-${def.name}`}>{empty}</div>;
  }

  return (
    <Flex direction="column" gap="3" data-testid={`table-${def.name}`}>
      <Flex gap="2" align="center" wrap="wrap">
        {def.searchable && (
          <TextField.Root
            placeholder="جستجو"
            value={searchText}
            onChange={(e) => setSearchText(e.target.value)}
            aria-label="جستجو"
            style={{ flex: 1, minWidth: 180 }}
          >
            <TextField.Slot>
              <MagnifyingGlassIcon />
            </TextField.Slot>
          </TextField.Root>
        )}
        {(def.filters ?? []).map((filter) => (
          <FilterSelect
            key={filter.key}
            filter={filter}
            value={filters[filter.key] ?? ''}
            onChange={(v) => {
              setFilters((f) => {
                const next = { ...f };
                if (v) next[filter.key] = v;
                else delete next[filter.key];
                return next;
              });
              setPage(1);
            }}
          />
        ))}
        <IconButton variant="soft" onClick={() => void fresh.refetch()} aria-label="بارگذاری دوباره">
          <ReloadIcon />
        </IconButton>
        {def.export && (
          <DropdownMenu.Root>
            <DropdownMenu.Trigger>
              <Button variant="soft">
                <DownloadIcon /> خروجی
              </Button>
            </DropdownMenu.Trigger>
            <DropdownMenu.Content>
              <DropdownMenu.Item onSelect={() => void doExport('xls')}>Excel (xls)</DropdownMenu.Item>
              <DropdownMenu.Item onSelect={() => void doExport('csv')}>CSV</DropdownMenu.Item>
              <DropdownMenu.Item onSelect={() => void doExport('html')}>HTML</DropdownMenu.Item>
            </DropdownMenu.Content>
          </DropdownMenu.Root>
        )}
      </Flex>
      <TableView
        columns={columns}
        rows={rows}
        rowKey={(row) => String(row[def.rowKey])}
        rowProps={(row) => {
          const color = rowColor(def, row);
          return {
            style: { background: color && ROW_BACKGROUND[color] },
            'data-testid': `${def.name}-row`,
            'data-row-color': color,
          };
        }}
        loading={query.isPending}
        error={query.isError ? query.error : undefined}
        emptyText={search ? 'موردی مطابق جستجو یافت نشد' : filtered ? 'موردی با این فیلتر یافت نشد' : def.emptyText}
        variant="surface"
        stackOnMobile={stackOnMobile}
      />
      {/* No pages to turn through an empty list. */}
      {total > 0 && (
        <Flex align="center" justify="between" gap="2" wrap="wrap" data-testid="table-pager">
          <Flex align="center" gap="2">
            <Text size="2">ردیف در هر صفحه:</Text>
            <Select.Root
              value={String(perPage)}
              onValueChange={(v) => {
                setPerPage(Number(v));
                setPage(1);
              }}
              size="1"
            >
              <Select.Trigger aria-label="ردیف در هر صفحه" />
              <Select.Content>
                {PAGE_SIZES.map((s) => (
                  <Select.Item key={s} value={s}>
                    {formatNumber(s)}
                  </Select.Item>
                ))}
              </Select.Content>
            </Select.Root>
          </Flex>
          <Flex align="center" gap="2">
            <Button size="1" variant="soft" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
              قبلی
            </Button>
            <Text size="2" aria-live="polite">
              صفحهٔ {formatNumber(page)} از {formatNumber(pages)} ({formatNumber(total)} مورد)
            </Text>
            <Button size="1" variant="soft" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
              بعدی
            </Button>
          </Flex>
        </Flex>
      )}
    </Flex>
  );
}

type Filter = NonNullable<TableDef['filters']>[number];
const ALL = '__all__';

/** A select whose options come from an API list (e.g. request states). */
function FilterSelect({ filter, value, onChange }: { filter: Filter; value: string; onChange: (v: string) => void }) {
  const options = useQuery({
    queryKey: ['filterOptions', filter.optionsPath],
    queryFn: async () => {
      const client = api as unknown as Record<
        string,
        (p: string, o?: object) => Promise<{ data?: { data: { items: Row[] } } }>
      >;
      const result = await client.POST!(filter.optionsPath, { body: {} });
      return result.data?.data.items ?? [];
    },
  });
  return (
    <Select.Root value={value || ALL} onValueChange={(v) => onChange(v === ALL ? '' : v)}>
      <Select.Trigger aria-label={filter.title} />
      <Select.Content position="popper">
        <Select.Item value={ALL}>{filter.title}: همه</Select.Item>
        {(options.data ?? []).map((o) => (
          <Select.Item key={String(o[filter.valueKey])} value={String(o[filter.valueKey])}>
            {String(o[filter.labelKey])}
          </Select.Item>
        ))}
      </Select.Content>
    </Select.Root>
  );
}
