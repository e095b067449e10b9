-- Issue 43: user_cards.card_hash was the plain SHA-256 of the 16 digits, next to the first six and last four in clear:
-- a backup's holder recovered a number from about 10^5 candidates in seconds. It is now an HMAC under a key derived
-- from the field key, tagged with that key's id (k:<key id>:<hex>); the field key is not in the database, so SQL
-- cannot compute it: the server re-hashes every plain row at its start, right after migrating (cards/reseal.ts),
-- before it serves anyone. The gateway's own card_hash is compared with the opened number at settlement.
alter table user_cards drop constraint user_cards_card_hash_check;
alter table user_cards add constraint user_cards_card_hash_check
  check (card_hash ~ '^k:[A-Za-z0-9_-]{10}:[0-9A-F]{64}$' or card_hash ~ '^[0-9A-F]{64}$');
comment on column user_cards.card_hash is 'HMAC-SHA-256 of the 16-digit card number under a key derived from the field key (k:<key id>:<upper-case hex>); never the plain SHA-256';
