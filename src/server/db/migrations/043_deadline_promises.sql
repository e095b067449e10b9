-- The promise at the quote and its compensation (decision 041). A request at a desk that declares its lead time and
-- has a deadline keeps, from its submission, until when it had to be paid (promise_pay_by) and by when it would then
-- be done (promise_done_by); paid in time, it is promised (promised_by). A promised request still not done when its
-- promise passes is compensated once (promise_compensated_at, promise_compensation: rial to the payer's wallet).
alter table purchases add column promise_pay_by timestamptz;
alter table purchases add column promise_done_by timestamptz;
alter table purchases add column promised_by timestamptz;
alter table purchases add column promise_compensated_at timestamptz;
alter table purchases add column promise_compensation bigint;
comment on column purchases.promise_pay_by is 'Paid by then, the request is promised (null: its desk promises nothing or it has no deadline)';
comment on column purchases.promise_done_by is 'When the request would be done if paid by promise_pay_by';
comment on column purchases.promised_by is 'The promise made at payment: done before it, or compensated (null: no promise)';
comment on column purchases.promise_compensated_at is 'When the missed promise was compensated (once)';
comment on column purchases.promise_compensation is 'The compensation paid to the payer''s wallet, in rial';
-- The compensation sweep reads the promises still open.
create index purchases_open_promises_idx on purchases (promised_by) where promised_by is not null and promise_compensated_at is null;

-- Working calendars (schemas/calendars) are published from the catalogue editor like desks, forms and plans.
alter table catalogue_versions drop constraint catalogue_versions_kind_check;
alter table catalogue_versions add constraint catalogue_versions_kind_check check (kind in ('desk', 'form', 'plan', 'calendar'));
comment on column catalogue_versions.kind is 'desk (schemas/catalogue/desks), form (schemas/forms), plan (schemas/plans) or calendar (schemas/calendars)';
comment on table catalogue_versions is 'Published versions of desks, form types, plan templates and working calendars; the newest per kind and identifier is live';
