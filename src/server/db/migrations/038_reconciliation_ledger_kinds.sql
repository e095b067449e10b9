-- Issue 43 C: the ledger is a side of the match. A collection the statement and the collections agree on is still
-- unmatched when its ledger posting is missing (collectionWithoutPosting) or moved another amount, or was posted
-- more than once (postingDiffers).
alter table reconciliation_rows drop constraint reconciliation_rows_kind_check;
alter table reconciliation_rows add constraint reconciliation_rows_kind_check check (kind in ('matched',
  'gatewayWithoutCollection', 'collectionWithoutSettlement', 'amountDiffers', 'settledTwice', 'ledgerWithoutCollection',
  'depositWithoutBankLine', 'withdrawalWithoutBankLine', 'bankLineWithoutRecord', 'collectionWithoutPosting',
  'postingDiffers'));
