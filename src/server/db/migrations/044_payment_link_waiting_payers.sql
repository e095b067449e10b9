-- A payer who opened a payment link before their identity was approved (decision 028): remembered per link, so that
-- when staff approve them they are told the request is now theirs to pay, with its title, whose it is and how much.
create table payment_link_waiting_payers (
  link_id bigint not null references payment_links (id),
  user_id bigint not null references users (id),
  since timestamptz not null default now(),
  told_at timestamptz,
  primary key (link_id, user_id)
);
create index payment_link_waiting_payers_user_idx on payment_link_waiting_payers (user_id);
comment on table payment_link_waiting_payers is 'Who opened a live payment link while their profile was not yet approved; told once when it is';
comment on column payment_link_waiting_payers.told_at is 'When the payer was told their approval lets them pay this link; null until then';
