-- One spelling per mobile number (issue 15, point 3). Before this, " 09121234567" and "09121234567" were two
-- accounts. Stored numbers are rewritten to 09xxxxxxxxx with the same rule as src/shared/mobile.ts; where two
-- or more accounts share one canonical number, the account that already had the canonical spelling (else the
-- oldest) keeps it, and each other one loses its mobile number (it can still be found by id, e-mail or
-- national code). Nothing is merged automatically: every change is recorded in mobile_no_changes for staff to
-- review and merge by hand. Afterwards users.mobile_no only holds canonical numbers (check constraint), so its
-- existing unique index (users_mobile_no_key) is the unique index on the canonical form.

create table mobile_no_changes (
  user_id bigint primary key references users (id),
  original_mobile_no text not null,
  canonical_mobile_no text,
  outcome text not null check (outcome in ('canonicalised', 'duplicate', 'invalid')),
  kept_by_user_id bigint references users (id),
  created_at timestamptz not null default now()
);

-- Separators (Unicode spaces, bidi and other format marks, dashes, parentheses) removed, Persian and
-- Arabic-Indic digits made ASCII, then +98 / 0098 / 98 / 0 before 9 and nine digits, or nothing.
create temporary table mobile_canonical_005 on commit drop as
select
  id as user_id,
  mobile_no as original,
  created_at,
  substring(
    regexp_replace(
      translate(mobile_no, '۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩', '01234567890123456789'),
      '[\s\u00A0\u00AD\u0600-\u0605\u061C\u06DD\u070F\u1680\u180E\u2000-\u200F\u2010-\u2015\u2028-\u202F\u205F-\u206F\u2212\u3000\uFE58\uFE63\uFEFF\uFF08\uFF09\uFF0D\u058A\u05BE\u1400\u1806\u2E17\u2E1A\u2E3A\u2E3B\u2E40\u301C\u3030\u30A0()-]',
      '',
      'g'
    )
    from '^(?:\+98|0098|98|0)?(9[0-9]{9})$'
  ) as nine
from users
where mobile_no is not null;

-- The account that keeps each canonical number: the one already spelled canonically, else the oldest.
create temporary table mobile_keeper_005 on commit drop as
select distinct on (nine)
  nine,
  user_id as keeper_id
from mobile_canonical_005
where nine is not null
order by nine, (original = ('0' || nine)) desc, created_at, user_id;

insert into mobile_no_changes (user_id, original_mobile_no, canonical_mobile_no, outcome, kept_by_user_id)
select
  c.user_id,
  c.original,
  case when c.nine is null then null else '0' || c.nine end,
  case when c.nine is null then 'invalid' when k.keeper_id = c.user_id then 'canonicalised' else 'duplicate' end,
  case when c.nine is null or k.keeper_id = c.user_id then null else k.keeper_id end
from mobile_canonical_005 c
left join mobile_keeper_005 k on k.nine = c.nine
where c.nine is null or c.original <> ('0' || c.nine) or k.keeper_id <> c.user_id;

-- Free the numbers first, so rewriting the keepers cannot collide with a duplicate's old spelling.
update users
set mobile_no = null, updated_at = now()
where id in (select user_id from mobile_no_changes where outcome in ('duplicate', 'invalid'));

update users
set mobile_no = ch.canonical_mobile_no, updated_at = now()
from mobile_no_changes ch
where ch.user_id = users.id and ch.outcome = 'canonicalised';

alter table users add constraint users_mobile_no_canonical check (mobile_no ~ '^09[0-9]{9}$');
