-- Staff deactivate an account instead of deleting it (issue 15, point 14): requests, ledger entries, tasks and the
-- audit log keep pointing at the user. A deactivated account cannot log in; null means active.
alter table users add column deactivated_at timestamptz;
