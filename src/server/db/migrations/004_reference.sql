-- Reference data staff pick from: payment methods inside their groups, third parties we pay,
-- our internal bank accounts and per-currency bank accounts.
create table payment_methods (
  id serial primary key,
  group_id integer not null references payment_method_groups (id),
  title text not null,
  is_active boolean not null default true
);

create table third_parties (
  id serial primary key,
  title text not null,
  website text not null default '',
  country text not null default ''
);

create table internal_bank_accounts (
  id serial primary key,
  title text not null,
  bank_name text not null,
  account_no text not null,
  iban text not null default '',
  is_active boolean not null default true
);

create table currency_bank_accounts (
  id serial primary key,
  currency_id integer not null references currencies (id),
  title text not null,
  bank_name text not null,
  account_no text not null,
  swift text not null default '',
  is_active boolean not null default true
);
