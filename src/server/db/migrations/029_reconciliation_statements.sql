-- Statements staff upload for the daily reconciliation (issue 33, point 1): a PSP's settlement statement (source
-- gateway, matched like the sandbox bank's own) and our internal bank accounts' statements (source bank, matched
-- against offline deposits and withdrawals marked done). One row per statement line, on the Tehran day it settled.
-- A line is stored once per source and reference, so uploading the same file again adds nothing.
create table reconciliation_statement_lines (
  id bigserial primary key,
  day date not null,
  source text not null check (source in ('gateway', 'bank')),
  statement text not null,
  gateway text,
  reference text not null,
  reference_canonical text not null,
  direction text check (direction in ('in', 'out')),
  amount bigint not null check (amount > 0),
  card_no text,
  settled_at timestamptz not null,
  description text,
  file_name text not null,
  line_no integer not null,
  uploaded_by bigint not null references users (id),
  uploaded_at timestamptz not null default now(),
  check ((source = 'gateway') = (gateway is not null)),
  check ((source = 'bank') = (direction is not null)),
  constraint reconciliation_statement_lines_reference unique (source, reference_canonical)
);
comment on table reconciliation_statement_lines is 'Lines of PSP and bank statements staff uploaded for the reconciliation';
comment on column reconciliation_statement_lines.day is 'The Gregorian date of the Tehran day the line settled on';
comment on column reconciliation_statement_lines.statement is 'The mapping it was read with (schemas/reconciliation/statements/<name>.json)';
comment on column reconciliation_statement_lines.gateway is 'For a gateway line: the gateway name collections carry (sandbox, zarinpal)';
comment on column reconciliation_statement_lines.reference_canonical is 'The reference as tracking codes are compared (modules/payments/tracking-code.ts)';
comment on column reconciliation_statement_lines.direction is 'For a bank line: in (a deposit to our account) or out (a transfer from it)';
comment on column reconciliation_statement_lines.line_no is 'The line of the uploaded file (header is line 1)';
create index reconciliation_statement_lines_day_idx on reconciliation_statement_lines (day, source);

alter table reconciliation_rows drop constraint reconciliation_rows_kind_check;
alter table reconciliation_rows add constraint reconciliation_rows_kind_check check (kind in ('matched',
  'gatewayWithoutCollection', 'collectionWithoutSettlement', 'amountDiffers', 'settledTwice', 'ledgerWithoutCollection',
  'depositWithoutBankLine', 'withdrawalWithoutBankLine', 'bankLineWithoutRecord'));

alter table reconciliation_runs add column bank_count integer not null default 0;
alter table reconciliation_runs add column bank_in_amount bigint not null default 0;
alter table reconciliation_runs add column bank_out_amount bigint not null default 0;
comment on column reconciliation_runs.bank_count is 'Lines of our bank accounts'' statements on the day';
