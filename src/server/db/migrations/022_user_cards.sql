-- Customers' bank cards, verified as theirs before a gateway payment names one (docs/decisions/024-cards-and-the-card-rule.md).
-- The card number is sealed (decision 021); its mask and SHA-256 (what ZarinPal's verify reports) are kept in clear.
create table user_cards (
  id bigserial primary key,
  user_id bigint not null references users (id),
  card_sealed text not null,
  card_hash text not null check (card_hash ~ '^[0-9A-F]{64}$'),
  masked_pan text not null check (masked_pan ~ '^[0-9]{6}\*{6}[0-9]{4}$'),
  bin text not null check (bin ~ '^[0-9]{6}$'),
  bank_name text not null,
  state text not null default 'pending' check (state in ('pending', 'verified', 'rejected')),
  verified_by text check (verified_by in ('inquiry', 'staff')),
  decided_by bigint references users (id),
  decided_at timestamptz,
  decision_reason text,
  created_at timestamptz not null default now(),
  unique (user_id, card_hash),
  check (state <> 'rejected' or decision_reason is not null),
  check (state <> 'verified' or verified_by is not null)
);
comment on table user_cards is 'A customer''s bank card; a gateway payment names one of their verified cards and the bank takes no other';
comment on column user_cards.card_sealed is 'The 16-digit card number sealed with the field key (enc:v1:…, context user-card:<user id>)';
comment on column user_cards.card_hash is 'SHA-256 of the 16-digit card number, upper-case hex: ZarinPal''s card_hash';
comment on column user_cards.masked_pan is 'First 6 digits, ******, last 4: how banks and verify show the card';
comment on column user_cards.bin is 'The first six digits, which name the issuing bank';
comment on column user_cards.bank_name is 'The issuing bank by its BIN, when the card was saved';
comment on column user_cards.state is 'pending (waiting for the inquiry or staff), verified (the customer''s own), rejected (decision_reason says why)';
comment on column user_cards.verified_by is 'inquiry (the card inquiry service matched the holder) or staff (a review task)';
comment on column user_cards.decided_by is 'The staff member who decided the review task; null for an inquiry''s answer';
comment on column user_cards.decided_at is 'When the card was verified or rejected';
comment on column user_cards.decision_reason is 'Why the card was rejected, shown to the customer';
comment on column user_cards.created_at is 'When the customer saved the card';
-- A card is the verified card of one customer at most.
create unique index user_cards_verified_hash_idx on user_cards (card_hash) where state = 'verified';
create index user_cards_user_idx on user_cards (user_id, id desc);

-- One undecided review task per card (a rejected card saved again is reviewed again).
alter table tasks add column user_card_id bigint references user_cards (id);
comment on column tasks.user_card_id is 'The card an approveUserCardTask reviews';
create unique index tasks_user_card_idx on tasks (type, user_card_id)
  where user_card_id is not null and state in ('open', 'claimed');

-- The card a gateway payment names (ZarinPal's metadata.card_pan); verify's card must be this one.
alter table online_proformas add column user_card_id bigint references user_cards (id);
comment on column online_proformas.user_card_id is 'The customer''s verified card the payment was opened for; null: none named';

-- The sandbox bank in ZarinPal mode honours the card the merchant named.
alter table sandbox_bank_payments add column required_card_hash text;
alter table sandbox_bank_payments add column required_card_mask text;
comment on column sandbox_bank_payments.required_card_hash is 'SHA-256 of metadata.card_pan: only that card may pay (ZarinPal''s payment with a specified card)';
comment on column sandbox_bank_payments.required_card_mask is 'The named card, masked, for the payment page';
