-- The merchant's own confirmation attached to a finished request (a PDF or an image) is fingerprinted when staff
-- record the currency payment: the proof letter prints the SHA-256 of its bytes, so a reader holding the file can
-- tell it is the one the letter names. Rows written before this migration, and payments without a file, have none.
alter table currency_payments add column receipt_sha256 text;
alter table currency_payments add constraint currency_payments_receipt_sha256_hex
  check (receipt_sha256 is null or receipt_sha256 ~ '^[0-9a-f]{64}$');
comment on column currency_payments.receipt_sha256 is 'SHA-256 (lower-case hex) of the stored receipt file''s bytes; null without a file';
