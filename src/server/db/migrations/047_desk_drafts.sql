-- A signed-in customer's half-filled form at a desk, kept on the server as they type (decision 044): one per customer and
-- desk, given back on any device, removed when the request is made or by the customer, and gone after the
-- deskDraftLifetimeDays system parameter. A write-only field (a password) is never stored in it.
create table desk_drafts (
  user_id bigint not null references users (id),
  desk text not null,
  data jsonb not null,
  saved_at timestamptz not null default now(),
  primary key (user_id, desk)
);
create index desk_drafts_saved_at_idx on desk_drafts (saved_at);
comment on table desk_drafts is 'A customer''s unfinished form per desk, saved as they type; never holds a write-only (secret) field';
comment on column desk_drafts.data is 'The form''s values as typed, without write-only fields';
comment on column desk_drafts.saved_at is 'When the draft was last saved; older than deskDraftLifetimeDays it is gone';
