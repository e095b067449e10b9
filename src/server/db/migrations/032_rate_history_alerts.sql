-- Rate history and rate alerts (issue 35). Every saved rate of a currency is a row of currency_rate_history, written
-- by reference-data in the same transaction as the save, so the public chart reads it without digging through the
-- audit log. A customer's rate alert fires once each time a saved rate crosses its threshold.
create table currency_rate_history (
  id bigserial primary key,
  currency_id integer not null references currencies (id),
  rate bigint not null check (rate > 0),
  changed_at timestamptz not null default now(),
  changed_by bigint references users (id)
);
comment on table currency_rate_history is 'Each rate a currency has had, from the moment it was saved; the newest row equals currencies.rate';
comment on column currency_rate_history.rate is 'Rial for one unit of the currency';
comment on column currency_rate_history.changed_by is 'The staff member who saved it; null for seeded rates and rates recovered without an author';
create index currency_rate_history_currency_idx on currency_rate_history (currency_id, changed_at, id);

-- Backfill from the audit log, which records each saveCurrency with the values before and after: each creation and
-- each save that changed the rate is a point at the time it was audited.
insert into currency_rate_history (currency_id, rate, changed_at, changed_by)
select c.id, (a.after ->> 'rate')::bigint, a.created_at, u.id
from audit_log a
join currencies c on c.id::text = a.entity_id
left join users u on u.id = a.actor_user_id
where a.entity = 'currency'
  and a.action = 'saveCurrency'
  and a.after ->> 'rate' is not null
  and (a.before is null or (a.before ->> 'rate') is distinct from (a.after ->> 'rate'))
order by a.id;

-- A currency not created through saveCurrency (the demo seed) starts with the rate it had before its first audited
-- change, or its current rate when it never changed, at the time it was created.
insert into currency_rate_history (currency_id, rate, changed_at)
select c.id,
       coalesce(
         (select (a.before ->> 'rate')::bigint
            from audit_log a
           where a.entity = 'currency' and a.action = 'saveCurrency' and a.entity_id = c.id::text
             and a.before ->> 'rate' is not null
           order by a.id
           limit 1),
         c.rate),
       least(c.created_at, c.rate_updated_at)
from currencies c
where not exists (
  select 1 from audit_log a
   where a.entity = 'currency' and a.action = 'saveCurrency' and a.entity_id = c.id::text and a.before is null
);

create table rate_alerts (
  id bigserial primary key,
  user_id bigint not null references users (id),
  currency_id integer not null references currencies (id),
  direction text not null check (direction in ('below', 'above')),
  threshold bigint not null check (threshold > 0),
  paused boolean not null default false,
  beyond boolean not null default false,
  fired_count integer not null default 0,
  last_fired_at timestamptz,
  created_at timestamptz not null default now()
);
comment on table rate_alerts is 'A customer''s «tell me when the rate reaches …»; expires 90 days after created_at (src/shared/rate-alerts.ts)';
comment on column rate_alerts.direction is 'below: the rate at or under the threshold; above: at or over it';
comment on column rate_alerts.threshold is 'Rial for one unit of the currency';
comment on column rate_alerts.beyond is 'The last saved rate met the condition: the alert fired (or was set or paused there) and waits for the rate to come back before it fires again';
create index rate_alerts_currency_idx on rate_alerts (currency_id);
create index rate_alerts_user_idx on rate_alerts (user_id);
