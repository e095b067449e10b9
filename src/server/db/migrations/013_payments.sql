-- Paying requests: the customer's cancel state, each request's state history, online payments through a bank
-- gateway (online proformas), collections (the receipts of money received) and the staff task per paid request.

insert into purchase_states (identifier, title, color, state_is_final, state_is_failure, sort_order) values
  ('cancelled', 'لغو شد', '#9e9e9e', true, false, 7);

-- The story of a request: its ledger transactions share this trace code.
alter table purchases add column trace_code text;
comment on column purchases.trace_code is 'Trace code its ledger transactions share (set when it is first paid for)';
alter table purchases add column paid_at timestamptz;

create table purchase_state_changes (
  id bigserial primary key,
  purchase_id bigint not null references purchases (id),
  state text not null references purchase_states (identifier),
  cause text,
  actor_user_id bigint references users (id),
  created_at timestamptz not null default now()
);
comment on table purchase_state_changes is 'Every state a request entered, when and why (submitted, paidFromWallet, paidOnline, …)';
create index purchase_state_changes_purchase_idx on purchase_state_changes (purchase_id, id);

-- Requests made before this migration entered waitingForPayment when they were made.
insert into purchase_state_changes (purchase_id, state, cause, created_at)
  select id, 'waitingForPayment', 'submitted', created_at from purchases;

create table online_proformas (
  id bigserial primary key,
  user_id bigint not null references users (id),
  purchase_id bigint references purchases (id),
  amount bigint not null check (amount > 0),
  gateway text not null,
  authority text,
  callback_token text not null unique,
  state text not null default 'new'
    check (state in ('new', 'pending', 'settled', 'cancelled', 'failed', 'cardMismatch')),
  verified jsonb,
  created_at timestamptz not null default now(),
  settled_at timestamptz
);
comment on table online_proformas is 'A payment opened at a bank gateway for the part of a request the wallet does not cover';
comment on column online_proformas.authority is 'The gateway''s identifier of the payment';
comment on column online_proformas.callback_token is 'Random; names the payment in the callback URL the gateway sends the browser back to';
comment on column online_proformas.state is 'new (not yet at the gateway), pending, settled or cardMismatch (final: money received), cancelled or failed (a later verified success still settles)';
comment on column online_proformas.verified is 'What the gateway reported when verified (reference, masked card, holder)';
create unique index online_proformas_authority_idx on online_proformas (gateway, authority) where authority is not null;
create index online_proformas_purchase_idx on online_proformas (purchase_id);

create table pay_requests (
  user_id bigint not null references users (id),
  key text not null,
  request_hash text not null,
  result jsonb,
  created_at timestamptz not null default now(),
  primary key (user_id, key)
);
comment on table pay_requests is 'Idempotency keys of payPurchase: a replay answers with the stored first result';

create table collections (
  id bigserial primary key,
  user_id bigint not null references users (id),
  source text not null check (source in ('online', 'offline')),
  online_proforma_id bigint unique references online_proformas (id),
  purchase_id bigint references purchases (id),
  amount bigint not null check (amount > 0),
  gateway text,
  reference_id text,
  card_no text,
  refunded_to_card boolean not null default false,
  cause text check (cause is null or cause = 'cardMismatch'),
  trace_code text not null,
  created_at timestamptz not null default now()
);
comment on table collections is 'Money received from a customer (a receipt): online through a gateway, or offline recorded by staff';
comment on column collections.refunded_to_card is 'The paying card was not the customer''s: the money goes back to that card, never to the wallet';
create index collections_user_idx on collections (user_id, id desc);

-- One fulfilment task per paid request.
alter table tasks add column purchase_id bigint references purchases (id);
create unique index tasks_purchase_idx on tasks (type, purchase_id) where purchase_id is not null;
