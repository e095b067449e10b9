-- Offline deposits' tracking codes compared in one canonical form (issue 30): `TRK-12` and `trk12` are one deposit.
-- The form is modules/payments/tracking-code.ts's: NFKC, lower case, Persian and Arabic-Indic digits made Latin,
-- whitespace, zero-width characters and dashes removed. New rows get it from that function; the rows stored before
-- this migration get it here, from the same rules in SQL (they agree on every code a bank issues: Latin letters,
-- digits in any of the three scripts, spaces and dashes).
--
-- Codes stored before may already collide in that form (the same deposit credited twice, once per spelling). A
-- migration must not fail on data in production, and deleting or moving money belongs to staff, not to a migration:
-- every row is kept, the first of each colliding group (lowest id) stays the code's owner, and each later one names
-- it in tracking_code_duplicate_of. That column is the report (`select … where tracking_code_duplicate_of is not
-- null` lists each doubled deposit beside the first), and a NOTICE gives the count to whoever runs
-- the migration by hand (the server's runner does not print notices; the column is what stays). The unique
-- index covers the owners only, so a code is refused in any spelling from now on, including one already doubled.
alter table collections add column tracking_code_canonical text;
alter table collections add column tracking_code_duplicate_of bigint references collections (id);
comment on column collections.tracking_code_canonical is 'The tracking code in its canonical form (payments/tracking-code.ts): what makes a deposit recorded once';
comment on column collections.tracking_code_duplicate_of is 'Set by migration 023 on a deposit recorded before it whose code equals an earlier one''s in canonical form: that earlier collection (a doubled deposit for staff to review)';

update collections
set tracking_code_canonical = regexp_replace(
  lower(translate(normalize(tracking_code, NFKC), '۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩', '01234567890123456789')),
  '[[:space:]' || chr(8203) || '-' || chr(8207) || chr(8288) || chr(65279) || chr(8208) || '-' || chr(8213)
    || chr(8722) || '-]',
  '',
  'g'
)
where tracking_code is not null;

update collections c
set tracking_code_duplicate_of = first.id
from (
  select tracking_code_canonical, min(id) as id
  from collections
  where tracking_code_canonical is not null
  group by tracking_code_canonical
  having count(*) > 1
) first
where c.tracking_code_canonical = first.tracking_code_canonical and c.id <> first.id;

alter table collections add constraint collections_tracking_code_canonical check (
  (tracking_code is null) = (tracking_code_canonical is null)
);
create unique index collections_tracking_code_canonical_idx on collections (tracking_code_canonical)
  where tracking_code_canonical is not null and tracking_code_duplicate_of is null;

do $$
declare
  doubled integer;
begin
  select count(*) into doubled from collections where tracking_code_duplicate_of is not null;
  if doubled > 0 then
    raise notice 'migration 023: % offline collection(s) repeat an earlier tracking code in another spelling; see collections.tracking_code_duplicate_of', doubled;
  end if;
end
$$;
