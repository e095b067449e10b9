-- Price quotes, requests (purchases) with their price summary, idempotency keys and purchase states.
create table purchase_states (
  identifier text primary key,
  title text not null,
  color text not null,
  state_is_final boolean not null default false,
  state_is_failure boolean not null default false,
  sort_order integer not null default 0
);

create table quotes (
  id text primary key,
  user_id bigint not null references users (id),
  desk text not null,
  currency_id integer not null references currencies (id),
  amount_minor bigint not null check (amount_minor > 0),
  rate bigint not null check (rate > 0),
  gross_price bigint not null,
  fee bigint not null,
  tax bigint not null,
  operation_cost bigint not null,
  total_costs bigint not null,
  expected_price bigint not null,
  expires_at timestamptz not null,
  created_at timestamptz not null default now()
);

create table purchases (
  id bigserial primary key,
  user_id bigint not null references users (id),
  desk text not null,
  product_category text not null,
  form_type text not null,
  state text not null references purchase_states (identifier),
  fields jsonb not null,
  quote_id text not null references quotes (id),
  currency_id integer not null references currencies (id),
  amount_minor bigint not null,
  rate bigint not null,
  gross_price bigint not null,
  fee bigint not null,
  tax bigint not null,
  operation_cost bigint not null,
  total_costs bigint not null,
  expected_price bigint not null,
  wallet_amount bigint not null default 0,
  payable_price bigint not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create index purchases_user_idx on purchases (user_id, created_at desc);
create index purchases_state_idx on purchases (state, created_at desc);

create table idempotency_keys (
  user_id bigint not null references users (id),
  key text not null,
  request_hash text not null,
  purchase_id bigint references purchases (id),
  created_at timestamptz not null default now(),
  primary key (user_id, key)
);

insert into purchase_states (identifier, title, color, state_is_final, state_is_failure, sort_order) values
  ('waitingForPayment', 'در انتظار پرداخت', '#fb8c00', false, false, 1),
  ('paid', 'پرداخت شده', '#1e88e5', false, false, 2),
  ('inProgress', 'در حال انجام', '#8e24aa', false, false, 3),
  ('purchaseSucceeded', 'انجام شد', '#43a047', true, false, 4),
  ('purchaseFailed', 'ناموفق', '#e53935', true, true, 5),
  ('purchaseInvalidated', 'باطل شد', '#757575', true, true, 6);

-- Double-entry ledger: every transaction's entries sum to zero; a wallet balance is a sum of its entries.
create table ledger_entries (
  id bigserial primary key,
  transaction_id text not null,
  account text not null,
  user_id bigint references users (id),
  amount bigint not null,
  created_at timestamptz not null default now()
);

create index ledger_entries_account_idx on ledger_entries (account, user_id);
