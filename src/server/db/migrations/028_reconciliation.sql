-- Daily reconciliation (issue 33, point 1): for each Tehran day, the sandbox gateway's settlement statement is matched
-- against the day's online collections and the ledger's postings; every row ends matched or unmatched with a kind.
create table reconciliation_runs (
  day date primary key,
  ran_at timestamptz not null default now(),
  ran_by bigint references users (id),
  gateway_count integer not null default 0,
  gateway_amount bigint not null default 0,
  collection_count integer not null default 0,
  collection_amount bigint not null default 0,
  matched_count integer not null default 0,
  unmatched_count integer not null default 0,
  unresolved_count integer not null default 0
);
comment on table reconciliation_runs is 'The last reconciliation of each Tehran day and its totals';
comment on column reconciliation_runs.day is 'The Gregorian date of the Tehran day reconciled';
comment on column reconciliation_runs.ran_by is 'The staff member who ran it by hand; null for the command line or the nightly run';
comment on column reconciliation_runs.unresolved_count is 'Unmatched rows no one has resolved yet';

create table reconciliation_rows (
  id bigserial primary key,
  day date not null references reconciliation_runs (day),
  row_key text not null,
  kind text not null check (kind in ('matched', 'gatewayWithoutCollection', 'collectionWithoutSettlement',
    'amountDiffers', 'settledTwice', 'ledgerWithoutCollection')),
  matched boolean not null,
  evidence jsonb not null,
  collection_id bigint,
  withdrawal_id bigint,
  ledger_transaction_id bigint,
  purchase_id bigint,
  current boolean not null default true,
  resolved_note text,
  resolved_by bigint references users (id),
  resolved_at timestamptz,
  created_at timestamptz not null default now(),
  constraint reconciliation_rows_key unique (day, row_key)
);
comment on table reconciliation_rows is 'One finding of a day''s reconciliation; never deleted, an unmatched one is resolved with a note';
comment on column reconciliation_rows.row_key is 'What the row is about (kind and reference), stable across runs so a re-run keeps its resolution';
comment on column reconciliation_rows.evidence is 'The gateway''s, the collection''s and the ledger''s side as found';
comment on column reconciliation_rows.current is 'False when the last run of the day no longer found it';
create index reconciliation_rows_open_idx on reconciliation_rows (day) where not matched and resolved_at is null;
