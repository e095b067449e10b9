-- Credentials at rest (issue 12, decision 021). A request's write-only fields (the target page's password) are now
-- stored sealed with AES-256-GCM; the server seals the plain values left from before at its next start, since the
-- key never reaches SQL. What SQL can do is here: an idempotent submission kept a plain SHA-256 of its body, which
-- holds the password and is guessed offline for a short one; the server now keeps a keyed hash, and the old plain
-- hashes are replaced by a marker (such a key is replayed on the key alone).

update idempotency_keys set request_hash = 'cleared-020';

comment on column idempotency_keys.request_hash is 'HMAC-SHA-256 (key derived from the field key) of the desk and the canonical body; cleared-020 for keys from before migration 020';
comment on column purchases.fields is 'The submitted form values; write-only fields (the target page''s password) sealed as enc:v1:<key id>:<iv>:<ciphertext>:<tag> (decision 021)';
