-- Customers' own bank accounts (by IBAN), reviewed by staff for ownership, and withdrawals from the wallet to an
-- approved one (docs/decisions/011-withdrawals.md).

create table user_bank_accounts (
  id bigserial primary key,
  user_id bigint not null references users (id),
  iban text not null check (iban ~ '^IR[0-9]{24}$'),
  bank_code text not null,
  bank_name text not null,
  owner_name text not null,
  ownership_approved smallint check (ownership_approved in (0, 1)),
  decided_by bigint references users (id),
  decided_at timestamptz,
  decision_reason text,
  created_at timestamptz not null default now(),
  unique (user_id, iban)
);
comment on table user_bank_accounts is 'A customer''s bank account by IBAN (شبا); withdrawals go only to one whose ownership staff approved';
comment on column user_bank_accounts.iban is 'Canonical: IR and 24 digits, the mod-97 check passed';
comment on column user_bank_accounts.bank_code is 'The three digits after the check digits that name the bank';
comment on column user_bank_accounts.owner_name is 'The holder''s name as the customer stated it (their own name)';
comment on column user_bank_accounts.ownership_approved is 'null: waiting for staff; 1: approved; 0: rejected (decision_reason says why)';

-- One undecided review task per bank account (a rejected account saved again is reviewed again).
alter table tasks add column user_bank_account_id bigint references user_bank_accounts (id);
create unique index tasks_user_bank_account_idx on tasks (type, user_bank_account_id)
  where user_bank_account_id is not null and state in ('open', 'claimed');

create table withdrawals (
  id bigserial primary key,
  user_id bigint not null references users (id),
  user_bank_account_id bigint not null references user_bank_accounts (id),
  amount bigint not null check (amount > 0),
  state text not null default 'requested' check (state in ('requested', 'done', 'refused')),
  idempotency_key text not null,
  trace_code text not null,
  bank_reference text,
  decided_by bigint references users (id),
  decided_at timestamptz,
  decision_reason text,
  created_at timestamptz not null default now(),
  unique (user_id, idempotency_key),
  check (state <> 'done' or bank_reference is not null),
  check (state <> 'refused' or decision_reason is not null)
);
comment on table withdrawals is 'Money a customer asked to move from the wallet to an approved bank account; it leaves the wallet when asked';
comment on column withdrawals.state is 'requested (the amount has left the wallet), done (staff transferred it) or refused (it went back to the wallet)';
comment on column withdrawals.idempotency_key is 'The client''s Idempotency-Key: a replay answers with this same withdrawal';
comment on column withdrawals.trace_code is 'Shared by the withdrawal''s ledger transactions';
comment on column withdrawals.bank_reference is 'The bank transfer''s reference staff recorded when done';
create index withdrawals_user_idx on withdrawals (user_id, id desc);
create index withdrawals_state_idx on withdrawals (state, id);
