-- A customer's study-abroad plan (issue 35): the plan template chosen (a file under schemas/plans/) and the start
-- date its deadlines count back from. One plan per customer. `chosen_at` is when this template was chosen: the
-- steps' states come from the customer's requests made since then, so requests made before planning do not count;
-- changing only the start date keeps it.
create table customer_plans (
  user_id bigint primary key references users (id),
  plan text not null,
  start_date date not null,
  chosen_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table customer_plans is 'Each customer''s study-abroad plan: the template (schemas/plans identifier) and its start date';
comment on column customer_plans.chosen_at is 'When this template was chosen: requests made since then count for its steps';
