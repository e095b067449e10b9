-- Currencies, payment method groups, system parameters and the audit log.
create table currencies (
  id serial primary key,
  title text not null,
  code char(3) not null unique,
  rate bigint not null check (rate > 0),
  rate_updated_at timestamptz not null default now(),
  use_for_uaf_cpr boolean not null default false,
  use_for_google_ads_account_cr boolean not null default false,
  sort_order integer not null default 0,
  created_at timestamptz not null default now()
);

create table payment_method_groups (
  id serial primary key,
  title text not null,
  description text not null default '',
  is_cash boolean not null default false,
  sort_order integer not null default 0
);

create table system_parameters (
  key text primary key,
  value jsonb not null,
  is_public boolean not null default false,
  updated_at timestamptz not null default now()
);

create table audit_log (
  id bigserial primary key,
  actor_user_id bigint,
  action text not null,
  entity text not null,
  entity_id text,
  before jsonb,
  after jsonb,
  created_at timestamptz not null default now()
);

create index audit_log_entity_idx on audit_log (entity, entity_id);
