-- Manual (offline) collections: money a customer deposited to one of our bank accounts, recorded by staff
-- (api/sys/payOffline). The bank's tracking code is used once; the source and destination accounts are kept.

alter table collections add column tracking_code text;
alter table collections add column source_account_no text;
alter table collections add column internal_bank_account_id integer references internal_bank_accounts (id);
alter table collections add column recorded_by bigint references users (id);
comment on column collections.tracking_code is 'The bank''s tracking code of a deposit recorded by staff; unique, so one deposit is recorded once';
comment on column collections.source_account_no is 'The account or card the customer deposited from, as staff typed it';
comment on column collections.internal_bank_account_id is 'Our bank account the deposit arrived in';
comment on column collections.recorded_by is 'The staff member who recorded an offline collection';
alter table collections add constraint collections_offline_fields check (
  source = 'online'
  or (tracking_code is not null and source_account_no is not null and internal_bank_account_id is not null
      and recorded_by is not null)
);
create unique index collections_tracking_code_idx on collections (tracking_code) where tracking_code is not null;
create index collections_created_idx on collections (created_at desc, id desc);
