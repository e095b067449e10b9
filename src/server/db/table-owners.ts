/**
 * Which part of the server writes each table: the only one that inserts, updates or deletes its rows
 * (docs/decisions/007-table-ownership.md). Any other module reads the table freely but changes it only through
 * the owner's service, whose functions take the database or a transaction first.
 *
 * An owner is a module (`modules/<name>`, every file under it) or, for infrastructure, one file under
 * src/server. tests/unit/table-owners.test.ts reads every insertInto/updateTable/deleteFrom call and every SQL
 * text under src/server, fails on a write outside the owner and on a table without one, and checks that
 * docs/architecture.md lists this same map. A new table gets its line here in the change that creates it.
 */
export const TABLE_OWNERS = {
  // Who may do what on the staff side: named permissions, groups and both join tables.
  actions: 'modules/access',
  groups: 'modules/access',
  group_users: 'modules/access',
  group_actions: 'modules/access',

  // People and how they prove who they are.
  users: 'modules/identity',
  user_policy_approvals: 'modules/identity',
  user_tokens: 'modules/identity',
  mobile_validation_codes: 'modules/identity',
  captchas: 'modules/identity',
  mobile_no_changes: 'modules/identity',

  // The staff work queue.
  tasks: 'modules/tasks',

  // What can be bought and paid with, and the demo data seeded into an empty database.
  currencies: 'modules/reference-data',
  payment_method_groups: 'modules/reference-data',
  payment_methods: 'modules/reference-data',
  third_parties: 'modules/reference-data',
  internal_bank_accounts: 'modules/reference-data',
  currency_bank_accounts: 'modules/reference-data',

  // Fees, limits and lifetimes staff tune.
  system_parameters: 'modules/settings',

  // Quotes and requests made at a desk.
  purchase_states: 'modules/requests',
  quotes: 'modules/requests',
  purchases: 'modules/requests',
  idempotency_keys: 'modules/requests',
  purchase_state_changes: 'modules/requests',
  form_versions: 'modules/requests',
  purchase_messages: 'modules/requests',
  desk_drafts: 'modules/requests',

  // Versions of desks and form types published from the staff catalogue page.
  catalogue_versions: 'modules/desks',
  // Where customers give up at a desk: counts per visit and day, never a value or a person (decision 046).
  desk_funnel_visits: 'modules/desks',
  desk_funnel_paid: 'modules/desks',

  // Paying requests: online payments at a bank gateway, their idempotency keys, and receipts of money received.
  online_proformas: 'modules/payments',
  pay_requests: 'modules/payments',
  collections: 'modules/payments',
  payment_links: 'modules/payments',
  payment_link_waiting_payers: 'modules/payments',
  receipt_codes: 'modules/payments',

  // Fulfilling paid requests: the currency payment staff made for each.
  currency_payments: 'modules/fulfilment',

  // Customers' bank accounts (by IBAN, ownership reviewed by staff) and withdrawals from the wallet to them.
  user_bank_accounts: 'modules/bank-accounts',
  withdrawals: 'modules/bank-accounts',
  wallet_corrections: 'modules/bank-accounts',

  // Customers' bank cards, verified as theirs before a gateway payment names one.
  user_cards: 'modules/cards',

  // Google Ads: manager panels, customers' requests for accounts, the accounts, and the charges staff made.
  google_mcc_accounts: 'modules/google-ads',
  google_ads_account_requests: 'modules/google-ads',
  google_ads_accounts: 'modules/google-ads',
  google_ads_charges: 'modules/google-ads',

  // Money: the ledger module is the only writer of accounts, entries and balances.
  ledger_accounts: 'modules/ledger',
  ledger_transactions: 'modules/ledger',
  ledger_entries: 'modules/ledger',

  // What the product tells people: notifications, their SMS outbox and each person's choices.
  notifications: 'modules/notifications',
  notification_sms: 'modules/notifications',
  notification_preferences: 'modules/notifications',

  // Uploaded files.
  uploads: 'modules/storage',

  // The sandbox bank, a test gateway this server serves: it plays an outside bank.
  sandbox_bank_payments: 'modules/sandbox-bank',

  // Rate history and customers' rate alerts: written with the rate save that makes them.
  currency_rate_history: 'modules/reference-data',
  rate_alerts: 'modules/reference-data',

  // The daily reconciliation of the gateway's statement, the collections and the ledger.
  reconciliation_runs: 'modules/reconciliation',
  reconciliation_rows: 'modules/reconciliation',
  reconciliation_statement_lines: 'modules/reconciliation',
  reconciliation_nightly_claims: 'modules/reconciliation',

  // Customers' study-abroad plans (the template chosen and its start date).
  customer_plans: 'modules/plans',

  // Infrastructure every module calls.
  audit_log: 'lib/audit.ts',
  rate_limit_hits: 'lib/rate-limit.ts',
  failure_counters: 'lib/rate-limit.ts',
  kysely_migration: 'db/migrate.ts',
  migration_checksums: 'db/migrate.ts',
} as const satisfies Record<string, string>;

export type TableName = keyof typeof TABLE_OWNERS;
