-- Users, tokens, one-time codes, captchas, access control (groups, actions), tasks and uploads.
create table users (
  id bigserial primary key,
  uid text not null unique,
  mobile_no text unique,
  email text unique,
  password_hash text,
  first_name text,
  last_name text,
  national_code text unique,
  date_of_birth date,
  national_card_image_address text,
  approved_level integer not null default 0,
  max_unrejected_level integer not null default 1,
  profile_rejection_reason text,
  is_staff boolean not null default false,
  meta_data jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table user_policy_approvals (
  user_id bigint not null references users (id),
  product_category text not null,
  approved_at timestamptz not null default now(),
  primary key (user_id, product_category)
);

create table user_tokens (
  id bigserial primary key,
  user_id bigint not null references users (id),
  token_hash text not null unique,
  created_at timestamptz not null default now(),
  last_used_at timestamptz not null default now(),
  revoked_at timestamptz
);

create index user_tokens_user_idx on user_tokens (user_id);

create table mobile_validation_codes (
  id bigserial primary key,
  mobile_no text not null,
  code_hash text not null,
  expires_at timestamptz not null,
  failed_attempts integer not null default 0,
  used_at timestamptz,
  burned_at timestamptz,
  created_at timestamptz not null default now()
);

create index mobile_validation_codes_mobile_idx on mobile_validation_codes (mobile_no, created_at desc);

create table captchas (
  id text primary key,
  answer_hash text not null,
  image_svg text not null,
  expires_at timestamptz not null,
  used_at timestamptz
);

create table rate_limit_hits (
  key text not null,
  window_start timestamptz not null,
  hits integer not null default 0,
  primary key (key, window_start)
);

create table actions (
  id serial primary key,
  name text not null unique,
  title text not null,
  description text not null default ''
);

create table groups (
  id serial primary key,
  name text not null unique,
  title text not null
);

create table group_users (
  group_id integer not null references groups (id) on delete cascade,
  user_id bigint not null references users (id),
  primary key (group_id, user_id)
);

create table group_actions (
  group_id integer not null references groups (id) on delete cascade,
  action_id integer not null references actions (id) on delete cascade,
  primary key (group_id, action_id)
);

create table tasks (
  id bigserial primary key,
  type text not null,
  subject_user_id bigint references users (id),
  payload jsonb not null default '{}'::jsonb,
  state text not null default 'open' check (state in ('open', 'claimed', 'approved', 'rejected', 'done')),
  claimed_by bigint references users (id),
  claimed_at timestamptz,
  decided_by bigint references users (id),
  decided_at timestamptz,
  decision_reason text,
  created_at timestamptz not null default now()
);

create index tasks_open_idx on tasks (state, type, created_at);

create table uploads (
  id bigserial primary key,
  owner_user_id bigint not null references users (id),
  path text not null unique,
  purpose text not null,
  mime text not null,
  size_bytes integer not null,
  is_private boolean not null default true,
  created_at timestamptz not null default now()
);

-- Secrets every process must share (e.g. the storage URL signing key), generated once.
create table server_secrets (
  name text primary key,
  value text not null
);
