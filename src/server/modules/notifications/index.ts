/**
 * The front door of notifications (notifications to customers and staff, and their SMS delivery): what other modules
 * and the composition may use, and only that (docs/decisions/038-module-front-doors.md). Files inside the module
 * import one another directly.
 */
export { startNotificationDelivery } from './delivery';
export { notificationHandlers } from './handlers';
export { notify, notifyStaffHolding } from './notify';
export type { SmsWorker } from './sms-worker';
