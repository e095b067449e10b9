/**
 * The front door of tasks (staff tasks, deadlines and the waiting work): what other modules and the composition may
 * use, and only that (docs/decisions/038-module-front-doors.md). Files inside the module import one another
 * directly.
 */
export {
  atRiskHours,
  notifyIfDeadlineAtRisk,
  OPEN_PURCHASE_STATES,
  scheduleDeadlineSweep,
  sweepDeadlines,
} from './deadlines';
export { taskHandlers } from './handlers';
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
  toTaskDtos,
} from './service';
export { taskTypeOf, taskTypes } from './task-types';
export { waitingWorkHandlers, type WorkQueue } from './waiting-work';
