-- Catalogue versions published from the staff catalogue page: each publish (or return to an earlier version) of a
-- desk or form type is a new row, never changed. The newest row of a desk or form type is what the server serves;
-- a row without a document returns it to its reviewed file under schemas/. Files stay the defaults CI validates.

create table catalogue_versions (
  id serial primary key,
  kind text not null check (kind in ('desk', 'form')),
  identifier text not null,
  version integer not null check (version > 0),
  document json,
  author_user_id bigint references users (id),
  reverted_to integer references catalogue_versions (id),
  created_at timestamptz not null default now(),
  unique (kind, identifier, version)
);
comment on table catalogue_versions is 'Published versions of desks and form types; the newest per kind and identifier is live';
comment on column catalogue_versions.kind is 'desk (schemas/catalogue/desks) or form (schemas/forms)';
comment on column catalogue_versions.identifier is 'The desk identifier or the form type name';
comment on column catalogue_versions.version is '1, 2, … per kind and identifier';
comment on column catalogue_versions.document is 'The JSON file as published (json, not jsonb: the order of the keys is kept); null returns to the file under schemas/';
comment on column catalogue_versions.author_user_id is 'The staff member who published it';
comment on column catalogue_versions.reverted_to is 'The earlier version this one returned to, when it was a return';
