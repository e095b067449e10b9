/**
 * The front door of reference-data (currencies, payment method groups and other reference lists): what other modules
 * and the composition may use, and only that (docs/decisions/038-module-front-doors.md). Files inside the module
 * import one another directly.
 */
export { referenceDataHandlers } from './handlers';
export { referenceHandlers } from './reference-handlers';
export { seedDemoReferenceData } from './seed';
