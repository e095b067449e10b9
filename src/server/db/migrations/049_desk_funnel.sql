-- Where customers give up at a desk (decision 046): counts only, never a value typed, a user or an address. A visit
-- is one opening of a desk's page under a random id the page makes (not tied to the person); it keeps what the
-- funnel counts once each (first input, the steps reached as bits, submitted) and the name of the last field touched
-- until it is submitted. A visit not submitted some minutes after it was last seen counts as left, with that field.
create table desk_funnel_visits (
  visit_id uuid primary key,
  desk text not null,
  day date not null,
  last_seen_at timestamptz not null default now(),
  first_input boolean not null default false,
  steps_reached integer not null default 0,
  last_field text,
  submitted boolean not null default false
);
create index desk_funnel_visits_day_idx on desk_funnel_visits (day, desk);
comment on table desk_funnel_visits is 'One opening of a desk page under a random id: what the funnel counts once per visit, never a value or a person';
comment on column desk_funnel_visits.day is 'The Tehran day the visit opened the desk: every stage of the visit counts on it';
comment on column desk_funnel_visits.steps_reached is 'The form''s steps this visit reached, bit i for step i';
comment on column desk_funnel_visits.last_field is 'The name (never the value) of the form field last touched; cleared on submit';

-- Requests of a desk paid, per Tehran day: written by the server when a request moves to paid.
create table desk_funnel_paid (
  desk text not null,
  day date not null,
  paid integer not null default 0,
  primary key (desk, day)
);
comment on table desk_funnel_paid is 'How many requests of each desk were paid on each Tehran day (the funnel''s last stage)';
