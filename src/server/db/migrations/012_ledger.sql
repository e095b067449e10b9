-- The double-entry ledger (modules/ledger is its only writer). Amounts are BIGINT rial.
-- 003 made a placeholder `ledger_entries` that nothing ever wrote; the real tables replace it.
drop table ledger_entries;

create table ledger_accounts (
  id bigserial primary key,
  kind text not null,
  user_id bigint references users (id),
  balance bigint not null default 0,
  created_at timestamptz not null default now(),
  -- A customer's wallet or reservation never goes below zero; system accounts may.
  constraint ledger_accounts_customer_not_negative check (user_id is null or balance >= 0)
);
comment on table ledger_accounts is 'Ledger accounts: per customer (user_id set: wallet, reserved) and the business''s own (user_id null)';
comment on column ledger_accounts.kind is 'Account kind from schemas/ledger/transactionTypes.json (wallet, reserved, gatewayClearing, fees, …)';
comment on column ledger_accounts.balance is 'Sum of the account''s entries, kept in step under a row lock by modules/ledger (tests check it)';
create unique index ledger_accounts_customer_idx on ledger_accounts (user_id, kind) where user_id is not null;
create unique index ledger_accounts_system_idx on ledger_accounts (kind) where user_id is null;

insert into ledger_accounts (kind) values
  ('gatewayClearing'), ('bank'), ('fees'), ('tax'), ('operationCosts'), ('currencyPaymentsOut'),
  ('refundsToCard'), ('withdrawalsOut'), ('adjustments');

create table ledger_transactions (
  id bigserial primary key,
  trace_code text not null,
  type text not null,
  user_id bigint references users (id),
  idempotency_key text,
  amounts jsonb not null,
  details jsonb not null default '{}',
  created_at timestamptz not null default now(),
  constraint ledger_transactions_idempotency unique (type, idempotency_key)
);
comment on table ledger_transactions is 'One money movement of a type in schemas/ledger/transactionTypes.json; its entries sum to zero';
comment on column ledger_transactions.trace_code is 'Shared by the transactions of one story (a payment and what follows it)';
comment on column ledger_transactions.user_id is 'The customer whose accounts it moves, null for the business''s own';
comment on column ledger_transactions.amounts is 'The named amounts the legs moved, e.g. {"collectionAmount": 1000}';
comment on column ledger_transactions.details is 'Descriptive fields of SPEC''s Transaction (purchaseId, cause, …)';
create index ledger_transactions_user_idx on ledger_transactions (user_id, id desc);
create index ledger_transactions_trace_idx on ledger_transactions (trace_code);

create table ledger_entries (
  id bigserial primary key,
  transaction_id bigint not null references ledger_transactions (id),
  account_id bigint not null references ledger_accounts (id),
  amount bigint not null check (amount <> 0),
  created_at timestamptz not null default now()
);
comment on table ledger_entries is 'Signed amounts per account; never updated or deleted (a correction is a new transaction)';
create index ledger_entries_transaction_idx on ledger_entries (transaction_id);
create index ledger_entries_account_idx on ledger_entries (account_id);

-- Entries and transactions are append-only: the database itself refuses to change or remove them.
create function ledger_refuse_change() returns trigger language plpgsql as $$
begin
  raise exception 'ledger rows are never updated or deleted (table %)', tg_table_name
    using errcode = 'restrict_violation';
end
$$;
create trigger ledger_entries_append_only before update or delete on ledger_entries
  for each row execute function ledger_refuse_change();
create trigger ledger_entries_no_truncate before truncate on ledger_entries
  for each statement execute function ledger_refuse_change();
create trigger ledger_transactions_append_only before update or delete on ledger_transactions
  for each row execute function ledger_refuse_change();
create trigger ledger_transactions_no_truncate before truncate on ledger_transactions
  for each statement execute function ledger_refuse_change();

-- At commit, the entries of every transaction touched must sum to zero.
create function ledger_check_balanced() returns trigger language plpgsql as $$
declare
  total bigint;
begin
  select coalesce(sum(amount), 0) into total from ledger_entries where transaction_id = new.transaction_id;
  if total <> 0 then
    raise exception 'ledger transaction % does not balance: its entries sum to %', new.transaction_id, total
      using errcode = 'check_violation';
  end if;
  return null;
end
$$;
create constraint trigger ledger_entries_balanced after insert on ledger_entries
  deferrable initially deferred for each row execute function ledger_check_balanced();
