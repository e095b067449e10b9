-- Sessions a customer can see and end (issue 15, point 4): each token remembers the browser and address it
-- was issued to. Idle and absolute lifetimes are checked against last_used_at and created_at (configuration),
-- so no column is needed for them. Listing a user's live sessions reads this index.
alter table user_tokens add column user_agent text;

alter table user_tokens add column ip text;

create index user_tokens_live_idx on user_tokens (user_id, last_used_at desc) where revoked_at is null;
