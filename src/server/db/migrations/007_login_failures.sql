-- Growing waits after wrong passwords (issue 15, point 2), per account and per address, when no Redis is set:
-- one row per key (src/server/lib/rate-limit.ts, databaseFailureBackoff). A row past expires_at counts as none.
create table failure_counters (
  key text primary key,
  failures integer not null default 0,
  locked_until timestamptz,
  expires_at timestamptz not null
);

create index failure_counters_expires_idx on failure_counters (expires_at);

-- The captcha is served as a PNG drawn at creation (its answer is kept only hashed), no longer as SVG markup.
-- Captchas live two minutes: those in flight during the upgrade are dropped.
delete from captchas;

alter table captchas drop column image_svg;

alter table captchas add column image_png bytea not null;
