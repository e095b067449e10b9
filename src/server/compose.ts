/**
 * How app.ts hands the modules to the contract (docs/decisions/038-module-front-doors.md): every module with
 * operations offers `routes(deps)` at its front door, each taking the slice it needs of one `Composition`, and
 * their handlers together must cover every operation of the contract (checked here by the compiler, and by the
 * router at start).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './config';
import type { Handlers } from './contract/handlers';
import type { DB } from './db/database';
import type { FieldCipher } from './lib/field-cipher';
import type { RateLimiter } from './lib/rate-limit';
import * as access from './modules/access';
import * as bankAccounts from './modules/bank-accounts';
import { countRequestedWithdrawals } from './modules/bank-accounts';
import * as cards from './modules/cards';
import type { CardOwnerInquiry } from './modules/cards';
import * as desks from './modules/desks';
import type { Catalogue, CatalogueSource } from './modules/desks';
import * as fulfilment from './modules/fulfilment';
import type { FulfilmentDeps } from './modules/fulfilment';
import * as googleAds from './modules/google-ads';
import type { GoogleAdsOperations } from './modules/google-ads';
import * as identity from './modules/identity';
import type { LoginGuard, ProfileApproved, ProfileRejected, SmsSender } from './modules/identity';
import * as ledger from './modules/ledger';
import * as notifications from './modules/notifications';
import * as payments from './modules/payments';
import type { PaymentDeps } from './modules/payments';
import { countUnconfirmedPayments } from './modules/payments';
import * as plans from './modules/plans';
import * as reconciliation from './modules/reconciliation';
import * as referenceData from './modules/reference-data';
import * as requests from './modules/requests';
import type { RequestDeps } from './modules/requests';
import * as settings from './modules/settings';
import type { Storage } from './modules/storage';
import * as tasks from './modules/tasks';
import type { WorkQueue } from './modules/tasks';
import type { LiveEvents } from './realtime/events';

/** Everything a module's routes may ask for, under one name each. */
export interface Composition {
  config: AppConfig;
  db: DB;
  log: FastifyBaseLogger;
  live: LiveEvents;
  storage: Storage;
  cipher: FieldCipher;
  catalogue: Catalogue;
  catalogueSource: CatalogueSource;
  requests: RequestDeps;
  payments: PaymentDeps;
  fulfilment: FulfilmentDeps;
  gateway: { name: string; title: string };
  gatewayNeedsCard: boolean;
  cardInquiry: CardOwnerInquiry | null;
  googleAds: GoogleAdsOperations;
  sms: SmsSender;
  loginGuard: LoginGuard;
  rateLimiter: RateLimiter;
  deskTitle: (desk: string) => string;
  actionsUsedByContract: ReadonlySet<string>;
  workQueues: readonly WorkQueue[];
  // Ports lower modules offer and the composition fills.
  currencyUpdated: Parameters<typeof referenceData.routes>[0]['currencyUpdated'];
  systemParametersUpdated: () => void;
  profileRejected: ProfileRejected;
  profileApproved: ProfileApproved;
  fileFieldLimits: Parameters<typeof identity.routes>[0]['fileFieldLimits'];
  draftPassed: Parameters<typeof desks.routes>[0]['draftPassed'];
}

/** Every module with operations of the contract, lowest floor first. */
export const MODULES = [
  ledger,
  settings,
  notifications,
  tasks,
  identity,
  access,
  cards,
  desks,
  referenceData,
  requests,
  fulfilment,
  plans,
  payments,
  googleAds,
  bankAccounts,
  reconciliation,
] as const satisfies ReadonlyArray<{ routes: (deps: Composition) => Partial<Handlers> }>;

/** The queues of waiting work the staff home counts besides tasks and paid requests (modules/tasks/waiting-work). */
export const WORK_QUEUES: readonly WorkQueue[] = [
  {
    identifier: 'withdrawals',
    title: 'برداشت‌های در انتظار واریز',
    action: 'manageWithdrawals',
    count: countRequestedWithdrawals,
  },
  {
    identifier: 'unconfirmedPayments',
    title: 'پرداخت‌های تاییدنشده برای تکمیل دستی',
    action: 'manageCollections',
    count: countUnconfirmedPayments,
  },
  {
    identifier: 'compensatedPromises',
    title: 'قول‌های جبران‌شده در ۳۰ روز گذشته',
    action: 'viewRequests',
    count: (db) => requests.countCompensatedPromises(db),
  },
];

type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
type Served = Intersection<ReturnType<(typeof MODULES)[number]['routes']>>;
/** Operations the composition answers itself (the health checks). */
export type OwnOperations = Pick<Handlers, 'getHealth' | 'getLiveness'>;

/** Every module's routes from one composition, and the composition's own: the whole contract, or no compile. */
export function composeHandlers(composition: Composition, own: OwnOperations): Handlers {
  const handlers: Record<string, unknown> = { ...own };
  for (const module of MODULES) {
    for (const [operation, handler] of Object.entries(module.routes(composition))) {
      // One owner per operation: a second module answering it would silently replace the first.
      if (operation in handlers) throw new Error(`operation ${operation} is answered by two modules`);
      handlers[operation] = handler;
    }
  }
  return handlers as Served & OwnOperations satisfies Handlers;
}
