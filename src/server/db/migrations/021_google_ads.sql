-- Google Ads (issue 11): the company's manager (MCC) panels, customers' requests for a new account, the accounts
-- staff created under a panel for a customer, and each recharge staff made for a paid googleAdsAccountCr request.
-- Google's own API is out of reach: staff record what they did in Google's console (docs/decisions/018-google-ads-operations.md).

create table google_mcc_accounts (
  id serial primary key,
  title text not null,
  google_customer_id text not null unique check (google_customer_id ~ '^[0-9]{3}-[0-9]{3}-[0-9]{4}$'),
  currency_id integer not null references currencies (id),
  status text not null default 'active' check (status in ('active', 'inactive')),
  notes text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table google_mcc_accounts is 'A manager (MCC) panel of the company in Google Ads, under which customers'' accounts are made';
comment on column google_mcc_accounts.google_customer_id is 'Google''s customer id of the panel, as 123-456-7890';
comment on column google_mcc_accounts.currency_id is 'The panel''s billing currency';
comment on column google_mcc_accounts.status is 'active: new accounts may be made under it; inactive: kept for its accounts only';

create table google_ads_account_requests (
  id bigserial primary key,
  user_id bigint not null references users (id),
  account_currency_id integer not null references currencies (id),
  customer_website text not null,
  customer_business_title text not null,
  requested_customer_standard_users text not null,
  requested_customer_readonly_users text not null default '',
  state text not null default 'requested' check (state in ('requested', 'created', 'rejected')),
  decision_reason text,
  decided_by bigint references users (id),
  decided_at timestamptz,
  created_at timestamptz not null default now(),
  check (state <> 'rejected' or decision_reason is not null)
);
comment on table google_ads_account_requests is 'A customer''s request for a new Google Ads account (api/me/createGoogleAdsAccount), decided by staff through makeGoogleAdsAccountTask';
comment on column google_ads_account_requests.requested_customer_standard_users is 'E-mails to get full access, comma-separated as the customer typed them (checked)';
comment on column google_ads_account_requests.requested_customer_readonly_users is 'E-mails to get read-only access, comma-separated; empty when none';
comment on column google_ads_account_requests.state is 'requested (waiting for staff), created (an account was made for it) or rejected (decision_reason says why)';
create index google_ads_account_requests_user_idx on google_ads_account_requests (user_id, id desc);

create table google_ads_accounts (
  id bigserial primary key,
  google_customer_id text not null unique check (google_customer_id ~ '^[0-9]{3}-[0-9]{3}-[0-9]{4}$'),
  google_mcc_account_id integer not null references google_mcc_accounts (id),
  user_id bigint not null references users (id),
  currency_id integer not null references currencies (id),
  title text not null,
  status text not null default 'active' check (status in ('active', 'suspended')),
  ownership_approved smallint not null default 0 check (ownership_approved in (0, 1)),
  request_id bigint unique references google_ads_account_requests (id),
  notes text,
  created_by bigint references users (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table google_ads_accounts is 'A Google Ads account made under one of our MCC panels for a customer; only its customer may charge it';
comment on column google_ads_accounts.google_customer_id is 'Google''s customer id of the account, as 123-456-7890';
comment on column google_ads_accounts.currency_id is 'The account''s base currency: its recharges are priced in it';
comment on column google_ads_accounts.title is 'A name for the account (the customer''s business subject unless staff changed it)';
comment on column google_ads_accounts.status is 'active, or suspended (it cannot be charged)';
comment on column google_ads_accounts.ownership_approved is '1 once the customer accepted the account''s ownership invitation, else 0';
comment on column google_ads_accounts.request_id is 'The customer''s request the account was made for (null when staff recorded one directly)';
comment on column google_ads_accounts.created_by is 'The staff member who recorded the account';
create index google_ads_accounts_user_idx on google_ads_accounts (user_id, id desc);
create index google_ads_accounts_mcc_idx on google_ads_accounts (google_mcc_account_id);

create table google_ads_charges (
  id bigserial primary key,
  purchase_id bigint not null unique references purchases (id),
  google_ads_account_id bigint not null references google_ads_accounts (id),
  currency_id integer not null references currencies (id),
  amount_minor bigint not null check (amount_minor > 0),
  charge_reference text not null,
  staff_user_id bigint not null references users (id),
  created_at timestamptz not null default now()
);
comment on table google_ads_charges is 'A recharge of a Google Ads account staff made for a paid googleAdsAccountCr request (one per request)';
comment on column google_ads_charges.amount_minor is 'The amount charged, in hundredths of the account''s currency';
comment on column google_ads_charges.charge_reference is 'The charge''s reference (Google''s or the payment''s) staff recorded';
create index google_ads_charges_account_idx on google_ads_charges (google_ads_account_id, id desc);

-- One undecided make-account task per request.
alter table tasks add column google_ads_account_request_id bigint references google_ads_account_requests (id);
comment on column tasks.google_ads_account_request_id is 'The customer''s Google Ads account request a makeGoogleAdsAccountTask decides';
create unique index tasks_google_ads_account_request_idx on tasks (type, google_ads_account_request_id)
  where google_ads_account_request_id is not null;
