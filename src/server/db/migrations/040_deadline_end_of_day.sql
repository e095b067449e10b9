-- A deadline day is the customer's until it ends (issue 44): purchases.deadline_at moves from the first second of the
-- form's date in Tehran to its last (23:59:59), so the countdown, the at-risk flag and the queue order all read the
-- whole day. Rows written before this migration held the day's start.
update purchases set deadline_at = deadline_at + interval '86399 seconds' where deadline_at is not null;
comment on column purchases.deadline_at is 'The last second (23:59:59 Tehran time) of the date the form''s x-deadline field holds; null when the form has none or it was left empty';
