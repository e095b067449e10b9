-- Paying for someone else (issue 34 part 2, decision 028). A customer makes a payment link for a request waiting for
-- payment; the token is shown once and kept only as its SHA-256; the first verified person who pays through it is its
-- payer, and from then on that person's accounts hold the request's money: the reservation, and every refund.
create table payment_links (
  id bigserial primary key,
  purchase_id bigint not null references purchases (id),
  created_by bigint not null references users (id),
  token_hash text not null unique,
  expires_at timestamptz not null,
  revoked_at timestamptz,
  payer_user_id bigint references users (id),
  paid_at timestamptz,
  created_at timestamptz not null default now()
);
create index payment_links_purchase_idx on payment_links (purchase_id, id desc);
comment on column payment_links.token_hash is 'SHA-256 (hex) of the link''s random token; the token itself is never stored';
comment on column payment_links.payer_user_id is 'The first verified person who started paying through the link; no one else may pay through it';

-- Whose accounts hold a request's money when someone other than its customer paid it (null: the customer).
alter table purchases add column payer_user_id bigint references users (id);
comment on column purchases.payer_user_id is 'Who paid the request through a payment link; its reservation and refunds are this user''s (decision 028)';

-- The link an online payment was opened through: settling it pays the request for the link's payer.
alter table online_proformas add column payment_link_id bigint references payment_links (id);
