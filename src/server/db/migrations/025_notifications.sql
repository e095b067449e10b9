-- What the product tells people (issue 31): a notification per event, shown in the app, and an outbox of SMS a
-- worker sends (claimed with FOR UPDATE SKIP LOCKED so several processes send each one once).

create table notifications (
  id bigserial primary key,
  user_id bigint not null references users (id),
  kind text not null,
  purchase_id bigint references purchases (id),
  params jsonb not null default '{}'::jsonb,
  text text not null,
  event_key text not null unique,
  in_app boolean not null default true,
  created_at timestamptz not null default now(),
  read_at timestamptz
);
comment on table notifications is 'One notification per event and person; written in the transaction of the change it reports';
comment on column notifications.kind is 'A kind of src/shared/notifications.ts (purchasePaid, staffReply, …)';
comment on column notifications.text is 'The Persian text, rendered once when written';
comment on column notifications.in_app is 'false: the person turned this kind off in the app; the row stays as the record its SMS hangs from';
comment on column notifications.event_key is 'Names the event (kind, person and what changed): the same event never notifies twice';
create index notifications_user_idx on notifications (user_id, id desc) where in_app;
create index notifications_unread_idx on notifications (user_id) where in_app and read_at is null;

create table notification_sms (
  id bigserial primary key,
  notification_id bigint not null unique references notifications (id),
  mobile_no text not null,
  text text not null,
  state text not null default 'pending' check (state in ('pending', 'sent', 'failed')),
  due_at timestamptz not null default now(),
  leased_until timestamptz,
  attempts integer not null default 0,
  last_error text,
  driver_answer text,
  sent_at timestamptz,
  created_at timestamptz not null default now()
);
comment on table notification_sms is 'The SMS outbox: at most one SMS per notification';
comment on column notification_sms.due_at is 'Not sent before: quiet hours (22:00–08:00 Tehran) hold it until 08:00; a failed try moves it by the backoff';
comment on column notification_sms.leased_until is 'A worker claimed it until then; a crashed worker''s claim runs out and another sends it';
comment on column notification_sms.state is 'pending: waiting or retrying; sent: the driver accepted it; failed: gave up after the last try';
create index notification_sms_due_idx on notification_sms (due_at) where state = 'pending';

create table notification_preferences (
  user_id bigint not null references users (id),
  kind text not null,
  channel text not null check (channel in ('inApp', 'sms')),
  enabled boolean not null,
  primary key (user_id, kind, channel)
);
comment on table notification_preferences is 'A person''s choice per kind and channel; no row means on. Security notices ignore it';
