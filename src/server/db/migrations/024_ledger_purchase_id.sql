-- The request a ledger transaction belongs to as a real, indexed column (issue 30): how much a request still holds
-- reserved is summed over its transactions, which was a scan of a JSON field (details->>'purchaseId').
-- A stored generated column: it is filled for every existing row when added (ledger rows are append-only, so an
-- UPDATE backfill would have to switch the append-only trigger off) and can never disagree with the details the
-- customer sees. No foreign key: a row naming a request that is gone must not stop this migration, and the ledger
-- refers to requests only through the postings the requests and fulfilment modules make.
alter table ledger_transactions
  add column purchase_id bigint generated always as ((details ->> 'purchaseId')::bigint) stored;
comment on column ledger_transactions.purchase_id is 'The request the transaction belongs to (details.purchaseId), null for none';
create index ledger_transactions_purchase_idx on ledger_transactions (purchase_id, user_id) where purchase_id is not null;
