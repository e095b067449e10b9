-- A conversation per request (issue 31): the customer writes to staff, staff answer or leave internal notes the
-- customer never sees. The waiting queue reads each request's last public message; the staff home reads the time
-- from a customer's message to staff's first answer.

create table purchase_messages (
  id bigserial primary key,
  purchase_id bigint not null references purchases (id),
  author_user_id bigint not null references users (id),
  from_staff boolean not null,
  internal boolean not null default false,
  body text not null,
  upload_id bigint references uploads (id),
  created_at timestamptz not null default now(),
  check (not internal or from_staff),
  check (char_length(body) <= 2000)
);
comment on table purchase_messages is 'Messages of a request between its customer and staff, and staff''s internal notes';
comment on column purchase_messages.from_staff is 'Written by staff (shown to the customer as «کارشناس», never by name)';
comment on column purchase_messages.internal is 'A staff note: never shown to the customer by any operation or live event';
comment on column purchase_messages.body is 'Plain text, shown literally (never rendered as HTML or markdown)';
comment on column purchase_messages.upload_id is 'An image the author attached through the upload operation';
create index purchase_messages_purchase_idx on purchase_messages (purchase_id, id);
-- The waiting queue and the answer times: public messages by request and time.
create index purchase_messages_public_idx on purchase_messages (purchase_id, created_at) where not internal;
create index purchase_messages_created_idx on purchase_messages (created_at) where not internal;
