-- Issue 43: the quote and storage-URL signing keys were rows of server_secrets, so a backup made without the field
-- key held them in clear and its holder could sign a quote at any price. They now derive from the field key
-- (FieldCipher.signingSecret), which a backup holds only with --with-key; the table goes with its rows. Quotes and
-- signed addresses issued before this migration stop verifying, as when they expire: a customer is given a fresh quote.
drop table server_secrets;
