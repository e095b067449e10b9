-- A gateway's payout report (issue 46, point 1; decision 042): staff upload ZarinPal's settlement (تسویه) report, one
-- line per payout paid into our bank account (its reference, amount, when it was paid and the days whose takings it
-- covers), stored beside the statements' lines under the source 'payout'. The reconciliation matches each payout with
-- its line on our bank statement and posts transaction_M once per payout (decision 039).
alter table reconciliation_statement_lines drop constraint reconciliation_statement_lines_source_check;
alter table reconciliation_statement_lines add constraint reconciliation_statement_lines_source_check
  check (source in ('gateway', 'bank', 'payout'));
alter table reconciliation_statement_lines drop constraint reconciliation_statement_lines_check;
alter table reconciliation_statement_lines add constraint reconciliation_statement_lines_check
  check ((source in ('gateway', 'payout')) = (gateway is not null));
alter table reconciliation_statement_lines add column covers_from date;
alter table reconciliation_statement_lines add column covers_to date;
alter table reconciliation_statement_lines add constraint reconciliation_statement_lines_covers_check
  check ((source = 'payout') = (covers_from is not null and covers_to is not null) and covers_from <= covers_to);
comment on column reconciliation_statement_lines.covers_from is 'For a payout line: the first Tehran day whose takings it pays';
comment on column reconciliation_statement_lines.covers_to is 'For a payout line: the last Tehran day whose takings it pays';
