-- Receipts anyone can verify (issue 34, part 1): every receipt carries a random code (80 bits, Crockford base32) that
-- the public verify page (/verify/<code>, operation verifyReceipt) looks up. A receipt is a collection (money received)
-- or a finished request (what was paid abroad for it); each has at most one code, made when it is first shown or
-- recorded, never changed.
create table receipt_codes (
  code text primary key check (code ~ '^[0-9A-HJKMNP-TV-Z]{16}$'),
  collection_id bigint unique references collections (id),
  purchase_id bigint unique references purchases (id),
  created_at timestamptz not null default now(),
  constraint receipt_codes_one_subject check ((collection_id is null) <> (purchase_id is null))
);
comment on table receipt_codes is 'The verification code of each receipt: a collection''s, or a finished request''s (its currency payment)';
comment on column receipt_codes.code is '16 characters of Crockford base32 (80 random bits), stored without dashes, upper case';
comment on column receipt_codes.collection_id is 'The collection whose receipt carries the code (null for a request''s receipt)';
comment on column receipt_codes.purchase_id is 'The finished request whose receipt carries the code (null for a collection''s receipt)';
