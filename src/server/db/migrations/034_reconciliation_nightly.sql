-- The nightly reconciliation (issue 33): each process's timer claims the Tehran day before; only the process whose
-- claim is inserted runs it, so several processes sharing PostgreSQL reconcile a day once. Unmatched rows remember
-- when the staff who hold `reconcile` were told of them, so a later run tells only of rows found since.
create table reconciliation_nightly_claims (
  day date primary key,
  claimed_at timestamptz not null default now()
);
comment on table reconciliation_nightly_claims is 'One row per Tehran day the nightly reconciliation started; the first insert wins';

alter table reconciliation_rows add column notified_at timestamptz;
comment on column reconciliation_rows.notified_at is 'When the staff holding reconcile were told of this unmatched row; null: not yet';
-- Rows found before this migration are not news.
update reconciliation_rows set notified_at = created_at where not matched;
