-- Uploads: a per-user daily quota reads a user's recent uploads by time, and a periodic clean-up removes files
-- that nothing names (no profile, request or audit record) after a grace period. A file found attached is
-- marked once (attached_at), so later runs look only at new, unattached ones.
alter table uploads add column attached_at timestamptz;

create index uploads_owner_created_idx on uploads (owner_user_id, created_at);

create index uploads_unattached_idx on uploads (created_at) where attached_at is null;
