-- The form a request was validated against, kept with it: a desk's effective form (schema, UI schema, price
-- inputs, staff-only fields) stored once per version, named by the SHA-256 of its canonical JSON, so a later edit
-- of the form type or the desk never makes an old request unreadable.

create table form_versions (
  hash text primary key,
  desk text not null,
  form_type text not null,
  form json not null,
  created_at timestamptz not null default now()
);
comment on table form_versions is 'Each version of a desk''s effective form that validated a request, by the hash of its JSON';
comment on column form_versions.form is 'schema, uiSchema, priceInputs and staffOnlyFields as the request was validated (json, not jsonb: the order of the fields is kept)';

alter table purchases add column form_version text references form_versions (hash);
comment on column purchases.form_version is 'The form version the request''s fields were validated against (null before migration 018)';
