/**
 * The front door of plans (payment plans a customer keeps): what other modules and the composition may use, and only
 * that (docs/decisions/038-module-front-doors.md). Files inside the module import one another directly.
 */
export { planHandlers } from './handlers';
export { PlanTemplates } from './templates';
