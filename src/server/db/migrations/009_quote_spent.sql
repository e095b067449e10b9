-- A quote is spent by the one request made from it, and remembers the payment method group it was priced for:
-- a second request from the same quote, or one naming another group, is refused.
alter table quotes add column payment_method_group_id integer references payment_method_groups (id);

alter table quotes add column spent_at timestamptz;

-- Quotes that already made a request (before this rule) are spent by their first one.
update quotes set spent_at = (
  select min(purchases.created_at) from purchases where purchases.quote_id = quotes.id
)
where exists (select 1 from purchases where purchases.quote_id = quotes.id);
