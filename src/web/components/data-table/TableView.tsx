/**
 * How every table is drawn: a header from the columns, one row per item, and a single row across the table
 * while loading, after a failed load (the server's Persian message) or when there is nothing to show. DataTable
 * feeds it from a definition under schemas/tables; a page with rows of its own (rates, currencies, system
 * parameters) gives it those rows and its columns. Columns marked hideOnMobile are left out on a phone; with
 * stackOnMobile, a phone shows each row as a card of "title: value" lines.
 */
import { Callout, Table, Text } from '@radix-ui/themes';
import type { ComponentProps, Key, ReactNode } from 'react';
import { digMessage, FALLBACK_MESSAGE } from '../../lib/api-client';

export interface Column<Row> {
  key: string;
  title: ReactNode;
  cell: (row: Row) => ReactNode;
  hideOnMobile?: boolean | undefined;
  /** The cell that names its row (a row header for screen readers). */
  rowHeader?: boolean;
  /** data-testid of the column's cell in a row. */
  testId?: (row: Row) => string;
}

type RowProps = ComponentProps<typeof Table.Row> & { [data: `data-${string}`]: string | undefined };

export function TableView<Row>({
  columns,
  rows,
  rowKey,
  rowProps,
  loading = false,
  error,
  emptyText = 'داده‌ای موجود نیست',
  variant = 'ghost',
  testId,
  stackOnMobile = false,
}: {
  columns: ReadonlyArray<Column<Row>>;
  rows: readonly Row[];
  rowKey: (row: Row) => Key;
  /** Attributes of a row (its test id, a background colour). */
  rowProps?: (row: Row) => RowProps;
  loading?: boolean;
  /** A failed load: shown in place of the rows, with the server's message when there is one. */
  error?: unknown;
  emptyText?: string;
  variant?: 'surface' | 'ghost';
  testId?: string;
  /** On a phone each row is a card of label and value lines instead of a row to scroll sideways. */
  stackOnMobile?: boolean;
}) {
  const mobile = (column: Column<Row>) => (column.hideOnMobile ? 'hide-mobile' : undefined);
  const status = (content: ReactNode) => (
    <Table.Row>
      <Table.Cell colSpan={columns.length}>{content}</Table.Cell>
    </Table.Row>
  );
  const note = (text: string) => (
    <Text color="gray" as="p" align="center" my="3">
      {text}
    </Text>
  );

  let body: ReactNode;
  if (loading) body = status(note('در حال بارگذاری...'));
  else if (error !== undefined && error !== null) {
    body = status(
      <Callout.Root color="red">
        <Callout.Text>{digMessage(error) ?? FALLBACK_MESSAGE}</Callout.Text>
      </Callout.Root>,
    );
  } else if (rows.length === 0) body = status(note(emptyText));
  else {
    body = rows.map((row) => (
      <Table.Row key={rowKey(row)} {...rowProps?.(row)}>
        {columns.map((column) => {
          const Cell = column.rowHeader ? Table.RowHeaderCell : Table.Cell;
          return (
            <Cell
              key={column.key}
              className={mobile(column)}
              data-testid={column.testId?.(row)}
              data-label={typeof column.title === 'string' ? column.title : undefined}
            >
              {column.cell(row)}
            </Cell>
          );
        })}
      </Table.Row>
    ));
  }

  return (
    <div className={stackOnMobile ? 'table-scroll table-stack' : 'table-scroll'}>
      <Table.Root variant={variant} data-testid={testId}>
        <Table.Header>
          <Table.Row>
            {columns.map((column) => (
              <Table.ColumnHeaderCell key={column.key} className={mobile(column)}>
                {column.title}
              </Table.ColumnHeaderCell>
            ))}
          </Table.Row>
        </Table.Header>
        <Table.Body>{body}</Table.Body>
      </Table.Root>
    </div>
  );
}
