-- Notes on columns that used to live in the hand-kept src/server/db/schema.ts. The Kysely types are now
-- generated from the migrated database (src/generated/db.ts), which shows each column comment as its doc comment.
comment on column users.deactivated_at is
  'Set when staff deactivate the account (it can no longer log in); null while active.';

comment on column user_tokens.user_agent is
  'The browser (User-Agent, cut to 300 characters) the token was issued to.';

comment on column user_tokens.ip is
  'The client address the token was issued to.';

comment on table mobile_no_changes is
  'Migration 005: each stored mobile number it rewrote or removed, for staff to review (nothing merged).';

comment on column captchas.image_png is
  'The PNG drawn when the captcha was made (node-postgres gives a Buffer, PGlite a Uint8Array).';

comment on column uploads.attached_at is
  'Set by the clean-up once something was found naming the file; null files past the grace period are removed.';

comment on column quotes.payment_method_group_id is
  'The payment method group the quote was priced for (null on quotes made before migration 009).';

comment on column quotes.spent_at is
  'When the request made from this quote was created; a spent quote makes no other request.';
