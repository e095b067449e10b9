/**
 * The front door of notifications (notifications to customers and staff, and their SMS delivery): what other modules
 * and the composition may use, and only that (docs/decisions/038-module-front-doors.md). Files inside the module
 * import one another directly.
 */
import type { DB } from '../../db/database';
import { notificationHandlers } from './handlers';

export { startNotificationDelivery } from './delivery';
export { attachStaffHolding, notify, notifyStaff, notifyStaffHolding, type StaffHolding } from './notify';
export type { SmsWorker } from './sms-worker';

/** The module's operations of the contract: app.ts composes every module this one way, `routes(composition)`. */
export const routes = (deps: { db: DB }) => notificationHandlers(deps.db);
