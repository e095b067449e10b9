-- Fulfilment: staff carry out a paid request's currency payment (or fail it) and close it. A request's history row
-- keeps the reason the customer is shown; each currency payment made for a request is recorded once.

alter table purchase_state_changes add column reason text;
comment on column purchase_state_changes.reason is 'What the customer is told about this change (why staff failed the request), null otherwise';

create table currency_payments (
  id bigserial primary key,
  purchase_id bigint not null unique references purchases (id),
  currency_id integer not null references currencies (id),
  amount_minor bigint not null check (amount_minor > 0),
  third_party_id integer references third_parties (id),
  payment_method_id integer references payment_methods (id),
  reference text not null,
  receipt_path text,
  real_price bigint not null check (real_price > 0),
  staff_user_id bigint not null references users (id),
  created_at timestamptz not null default now()
);
comment on table currency_payments is 'The foreign payment staff made to fulfil a paid request (one per request)';
comment on column currency_payments.amount_minor is 'Foreign amount paid, in hundredths of the currency';
comment on column currency_payments.reference is 'The payment''s reference at the third party or the bank (tracking number)';
comment on column currency_payments.receipt_path is 'Optional receipt image, an upload of the staff member (storage path)';
comment on column currency_payments.real_price is 'What the request really cost the customer in rial: the currency''s real cost plus the quoted fee, tax and operation cost; at most the expected price';
comment on column currency_payments.staff_user_id is 'Who recorded it';
create index currency_payments_created_idx on currency_payments (created_at desc);
