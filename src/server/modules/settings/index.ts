/**
 * The front door of settings (system parameters): what other modules and the composition may use, and only that
 * (docs/decisions/038-module-front-doors.md). Files inside the module import one another directly.
 */
import type { DB } from '../../db/database';
import { settingsHandlers } from './handlers';

export { readSetting, readSettings, seedSystemParameters, type Settings } from './service';

/** The module's operations of the contract: app.ts composes every module this one way, `routes(composition)`. */
export const routes = (deps: { db: DB; systemParametersUpdated: () => void }) =>
  settingsHandlers(deps.db, { systemParametersUpdated: deps.systemParametersUpdated });
