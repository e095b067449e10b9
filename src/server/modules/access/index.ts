/**
 * The front door of access (staff groups, their actions and users, the menu and the audit trail): what other modules
 * and the composition may use, and only that (docs/decisions/038-module-front-doors.md). Files inside the module
 * import one another directly.
 */
export { accessHandlers } from './handlers';
export { seedAccess } from './seed';
