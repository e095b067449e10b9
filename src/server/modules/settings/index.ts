/**
 * The front door of settings (system parameters): what other modules and the composition may use, and only that
 * (docs/decisions/038-module-front-doors.md). Files inside the module import one another directly.
 */
export { settingsHandlers } from './handlers';
export { readSetting, readSettings, seedSystemParameters, type Settings } from './service';
