-- The books close (decision 039): staff correct a wallet only by two people, the gateway's payouts are findings of
-- the reconciliation (which posts transaction_M for each once), and a reconciled day can be closed.
create table wallet_corrections (
  id bigserial primary key,
  user_id bigint not null references users (id),
  direction text not null check (direction in ('up', 'down')),
  amount bigint not null check (amount > 0),
  reason text not null,
  evidence_file text,
  state text not null default 'proposed' check (state in ('proposed', 'approved', 'rejected')),
  proposed_by bigint not null references users (id),
  proposed_at timestamptz not null default now(),
  decided_by bigint references users (id),
  decided_at timestamptz,
  decision_note text,
  trace_code text not null,
  check ((state = 'proposed') = (decided_by is null)),
  check (decided_by is null or decided_by <> proposed_by)
);
comment on table wallet_corrections is 'A staff correction of a customer''s wallet: proposed by one staff member, approved (posting transaction_K or transaction_L) or rejected by another';
comment on column wallet_corrections.evidence_file is 'The storage path of an optional evidence file the proposer uploaded (uploadFile, filePrefix walletCorrection)';
comment on column wallet_corrections.trace_code is 'The trace code its ledger posting carries once approved';
create index wallet_corrections_state_idx on wallet_corrections (state, id);

alter table reconciliation_rows drop constraint reconciliation_rows_kind_check;
alter table reconciliation_rows add constraint reconciliation_rows_kind_check check (kind in ('matched',
  'gatewayWithoutCollection', 'collectionWithoutSettlement', 'amountDiffers', 'settledTwice', 'ledgerWithoutCollection',
  'depositWithoutBankLine', 'withdrawalWithoutBankLine', 'bankLineWithoutRecord', 'collectionWithoutPosting',
  'postingDiffers', 'payoutDiffers', 'payoutMissing'));

alter table reconciliation_runs add column closed_at timestamptz;
alter table reconciliation_runs add column closed_by bigint references users (id);
alter table reconciliation_runs add column reopen_reason text;
alter table reconciliation_runs add column reopen_requested_by bigint references users (id);
alter table reconciliation_runs add column reopen_requested_at timestamptz;
comment on column reconciliation_runs.closed_at is 'When the day was closed: its reconciliation and resolutions no longer change until it is reopened';
comment on column reconciliation_runs.reopen_reason is 'A pending request to reopen the closed day, which a second staff member approves';
