/** Kysely table types (camelCase; the CamelCasePlugin maps them to the snake_case columns of the migrations). */
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface CurrenciesTable {
  id: Generated<number>;
  title: string;
  code: string;
  rate: number;
  rateUpdatedAt: Timestamp;
  useForUafCpr: Generated<boolean>;
  useForGoogleAdsAccountCr: Generated<boolean>;
  sortOrder: Generated<number>;
  createdAt: Timestamp;
}

export interface PaymentMethodGroupsTable {
  id: Generated<number>;
  title: string;
  description: Generated<string>;
  isCash: Generated<boolean>;
  sortOrder: Generated<number>;
}

export interface SystemParametersTable {
  key: string;
  value: ColumnType<unknown, string, string>;
  isPublic: Generated<boolean>;
  updatedAt: Timestamp;
}

export interface AuditLogTable {
  id: Generated<number>;
  actorUserId: number | null;
  action: string;
  entity: string;
  entityId: string | null;
  before: ColumnType<unknown, string | null, string | null>;
  after: ColumnType<unknown, string | null, string | null>;
  createdAt: Timestamp;
}

export interface UsersTable {
  id: Generated<number>;
  uid: string;
  mobileNo: string | null;
  email: string | null;
  passwordHash: string | null;
  firstName: string | null;
  lastName: string | null;
  nationalCode: string | null;
  dateOfBirth: ColumnType<string | null, string | null | undefined, string | null>;
  nationalCardImageAddress: string | null;
  approvedLevel: Generated<number>;
  maxUnrejectedLevel: Generated<number>;
  profileRejectionReason: string | null;
  isStaff: Generated<boolean>;
  /** Set when staff deactivate the account (it can no longer log in); null while active. */
  deactivatedAt: ColumnType<Date | null, Date | null | undefined, Date | null>;
  metaData: ColumnType<Record<string, unknown>, string | undefined, string>;
  createdAt: Generated<Date>;
  updatedAt: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface UserPolicyApprovalsTable {
  userId: number;
  productCategory: string;
  approvedAt: Generated<Date>;
}

export interface UserTokensTable {
  id: Generated<number>;
  userId: number;
  tokenHash: string;
  createdAt: Generated<Date>;
  lastUsedAt: ColumnType<Date, Date | string | undefined, Date | string>;
  revokedAt: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The browser (User-Agent, cut to 300 characters) and address a token was issued to (migration 006_sessions). */
  userAgent: string | null;
  ip: string | null;
}

/** Migration 005: each stored mobile number it rewrote or removed, for staff to review (nothing merged). */
export interface MobileNoChangesTable {
  userId: number;
  originalMobileNo: string;
  canonicalMobileNo: string | null;
  outcome: 'canonicalised' | 'duplicate' | 'invalid';
  keptByUserId: number | null;
  createdAt: Generated<Date>;
}

export interface MobileValidationCodesTable {
  id: Generated<number>;
  mobileNo: string;
  codeHash: string;
  expiresAt: ColumnType<Date, Date | string, Date | string>;
  failedAttempts: Generated<number>;
  usedAt: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  burnedAt: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  createdAt: Generated<Date>;
}

export interface CaptchasTable {
  id: string;
  answerHash: string;
  /** The PNG drawn when the captcha was made (node-postgres gives a Buffer, PGlite a Uint8Array). */
  imagePng: Uint8Array;
  expiresAt: ColumnType<Date, Date | string, Date | string>;
  usedAt: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface RateLimitHitsTable {
  key: string;
  windowStart: ColumnType<Date, Date | string, Date | string>;
  hits: Generated<number>;
}

export interface FailureCountersTable {
  key: string;
  failures: Generated<number>;
  lockedUntil: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  expiresAt: ColumnType<Date, Date | string, Date | string>;
}

export interface ActionsTable {
  id: Generated<number>;
  name: string;
  title: string;
  description: Generated<string>;
}

export interface GroupsTable {
  id: Generated<number>;
  name: string;
  title: string;
}

export interface GroupUsersTable {
  groupId: number;
  userId: number;
}

export interface GroupActionsTable {
  groupId: number;
  actionId: number;
}

export type TaskState = 'open' | 'claimed' | 'approved' | 'rejected' | 'done';

export interface TasksTable {
  id: Generated<number>;
  type: string;
  subjectUserId: number | null;
  payload: ColumnType<Record<string, unknown>, string | undefined, string>;
  state: ColumnType<TaskState, TaskState | undefined, TaskState>;
  claimedBy: number | null;
  claimedAt: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  decidedBy: number | null;
  decidedAt: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  decisionReason: string | null;
  createdAt: Generated<Date>;
}

export interface UploadsTable {
  id: Generated<number>;
  ownerUserId: number;
  path: string;
  purpose: string;
  mime: string;
  sizeBytes: number;
  isPrivate: Generated<boolean>;
  /** Set by the clean-up once something was found naming the file; null files past the grace period go. */
  attachedAt: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  createdAt: Generated<Date>;
}

export interface ServerSecretsTable {
  name: string;
  value: string;
}

export interface PurchaseStatesTable {
  identifier: string;
  title: string;
  color: string;
  stateIsFinal: boolean;
  stateIsFailure: boolean;
  sortOrder: number;
}

export interface QuotesTable {
  id: string;
  userId: number;
  desk: string;
  currencyId: number;
  amountMinor: number;
  rate: number;
  grossPrice: number;
  fee: number;
  tax: number;
  operationCost: number;
  totalCosts: number;
  expectedPrice: number;
  expiresAt: ColumnType<Date, Date | string, Date | string>;
  /** The payment method group the quote was priced for (null on quotes made before migration 009). */
  paymentMethodGroupId: number | null;
  /** When the request made from this quote was created; a spent quote makes no other request. */
  spentAt: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  createdAt: Generated<Date>;
}

export interface PurchasesTable {
  id: Generated<number>;
  userId: number;
  desk: string;
  productCategory: string;
  formType: string;
  state: string;
  fields: ColumnType<Record<string, unknown>, string, string>;
  quoteId: string;
  currencyId: number;
  amountMinor: number;
  rate: number;
  grossPrice: number;
  fee: number;
  tax: number;
  operationCost: number;
  totalCosts: number;
  expectedPrice: number;
  walletAmount: Generated<number>;
  payablePrice: number;
  createdAt: Generated<Date>;
  updatedAt: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface IdempotencyKeysTable {
  userId: number;
  key: string;
  requestHash: string;
  purchaseId: number | null;
  createdAt: Generated<Date>;
}

export interface LedgerEntriesTable {
  id: Generated<number>;
  transactionId: string;
  account: string;
  userId: number | null;
  amount: number;
  createdAt: Generated<Date>;
}

export interface PaymentMethodsTable {
  id: Generated<number>;
  groupId: number;
  title: string;
  isActive: Generated<boolean>;
}

export interface ThirdPartiesTable {
  id: Generated<number>;
  title: string;
  website: Generated<string>;
  country: Generated<string>;
}

export interface InternalBankAccountsTable {
  id: Generated<number>;
  title: string;
  bankName: string;
  accountNo: string;
  iban: Generated<string>;
  isActive: Generated<boolean>;
}

export interface CurrencyBankAccountsTable {
  id: Generated<number>;
  currencyId: number;
  title: string;
  bankName: string;
  accountNo: string;
  swift: Generated<string>;
  isActive: Generated<boolean>;
}

export interface Database {
  paymentMethods: PaymentMethodsTable;
  thirdParties: ThirdPartiesTable;
  internalBankAccounts: InternalBankAccountsTable;
  currencyBankAccounts: CurrencyBankAccountsTable;
  purchaseStates: PurchaseStatesTable;
  quotes: QuotesTable;
  purchases: PurchasesTable;
  idempotencyKeys: IdempotencyKeysTable;
  ledgerEntries: LedgerEntriesTable;
  currencies: CurrenciesTable;
  paymentMethodGroups: PaymentMethodGroupsTable;
  systemParameters: SystemParametersTable;
  auditLog: AuditLogTable;
  users: UsersTable;
  userPolicyApprovals: UserPolicyApprovalsTable;
  userTokens: UserTokensTable;
  mobileValidationCodes: MobileValidationCodesTable;
  mobileNoChanges: MobileNoChangesTable;
  captchas: CaptchasTable;
  rateLimitHits: RateLimitHitsTable;
  failureCounters: FailureCountersTable;
  actions: ActionsTable;
  groups: GroupsTable;
  groupUsers: GroupUsersTable;
  groupActions: GroupActionsTable;
  tasks: TasksTable;
  uploads: UploadsTable;
  serverSecrets: ServerSecretsTable;
}
