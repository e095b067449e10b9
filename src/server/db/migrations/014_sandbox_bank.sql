-- The sandbox bank (modules/sandbox-bank): a test payment gateway this server serves under /sandbox-bank,
-- speaking ZarinPal's protocol. It plays an outside bank: nothing else reads or writes its table.
create table sandbox_bank_payments (
  authority text primary key,
  merchant_id text not null,
  amount bigint not null check (amount > 0),
  description text not null,
  callback_url text not null,
  payer_mobile text,
  payer_national_code text,
  state text not null default 'new' check (state in ('new', 'paid', 'cancelled', 'verified')),
  card_no text,
  card_hash text,
  holder_national_code text,
  reference_id text unique,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  paid_at timestamptz,
  verified_at timestamptz
);
comment on table sandbox_bank_payments is 'Payments opened at the sandbox bank (a test gateway speaking ZarinPal''s protocol)';
comment on column sandbox_bank_payments.authority is 'The bank''s identifier of the payment: A and 35 random digits, like ZarinPal''s';
comment on column sandbox_bank_payments.payer_national_code is 'The payer''s national code the merchant sent, prefilled as the card holder''s';
comment on column sandbox_bank_payments.state is 'new (the payer has not answered), paid, cancelled (by the payer), verified (by the merchant)';
comment on column sandbox_bank_payments.card_no is 'The paying card, masked: first 6 digits, ******, last 4';
comment on column sandbox_bank_payments.card_hash is 'SHA-256 of the full card number (upper-case hex), as ZarinPal reports it';
comment on column sandbox_bank_payments.holder_national_code is 'The card holder''s national code as the payer typed it on the bank''s page';
comment on column sandbox_bank_payments.reference_id is 'The bank''s reference of a paid payment (ZarinPal''s ref_id)';
comment on column sandbox_bank_payments.expires_at is 'The payer must answer on the bank''s page before this (15 minutes after the request)';
