/**
 * The front door of tasks (staff tasks, deadlines and the waiting work): what other modules and the composition may
 * use, and only that (docs/decisions/038-module-front-doors.md). Files inside the module import one another
 * directly.
 */
import type { DB } from '../../db/database';
import { taskHandlers } from './handlers';
import { waitingWorkHandlers, type WorkQueue } from './waiting-work';

export {
  atRiskHours,
  notifyIfDeadlineAtRisk,
  OPEN_PURCHASE_STATES,
  scheduleDeadlineSweep,
  sweepDeadlines,
} from './deadlines';
export {
  announceTaskClaimed,
  claimedByOther,
  claimTask,
  claimTaskAudited,
  closePurchaseTask,
  CURRENCY_PAYMENT_TASK_TYPES,
  decideTask,
  findPendingTask,
  GOOGLE_ADS_CHARGE_TASK_TYPES,
  lockPurchaseTask,
  openBankAccountTask,
  openCardTask,
  openGoogleAdsAccountRequestTask,
  openPurchaseTask,
  openTaskOnce,
  PURCHASE_TASK_TYPES,
  purchaseOfTask,
  toTaskDtos,
} from './service';
export { taskTypeOf, taskTypes } from './task-types';
export { type WorkQueue } from './waiting-work';

/** The module's operations of the contract: app.ts composes every module this one way, `routes(composition)`. */
export const routes = (deps: { db: DB; deskTitle: (desk: string) => string; workQueues: readonly WorkQueue[] }) => ({
  ...taskHandlers(deps.db),
  ...waitingWorkHandlers(deps.db, deps.deskTitle, deps.workQueues),
});
