-- A request's deadline (issue 31): the date its form type marks `x-deadline` (registration closes, an appointment),
-- stored when it is submitted as the start of that day in Tehran, so the staff queue is ordered by it and a sweep
-- finds the paid requests entering "at risk" without reading every request's fields.
alter table purchases add column deadline_at timestamptz;
comment on column purchases.deadline_at is 'The start (Tehran time) of the date the form''s x-deadline field holds; null when the form has none or it was left empty';
create index purchases_deadline_idx on purchases (deadline_at) where deadline_at is not null and state in ('paid', 'inProgress');
