/**
 * The front door of reference-data (currencies, payment method groups and other reference lists): what other modules
 * and the composition may use, and only that (docs/decisions/038-module-front-doors.md). Files inside the module
 * import one another directly.
 */
import type { DB } from '../../db/database';
import type { Catalogue } from '../desks';
import { referenceDataHandlers, type ReferenceDataEvents } from './handlers';
import { referenceHandlers } from './reference-handlers';

export { seedDemoReferenceData } from './seed';

/** The module's operations of the contract: app.ts composes every module this one way, `routes(composition)`. */
export const routes = (deps: {
  db: DB;
  catalogue: Catalogue;
  currencyUpdated: NonNullable<ReferenceDataEvents['currencyUpdated']>;
}) => ({
  ...referenceDataHandlers(deps.db, { currencyUpdated: deps.currencyUpdated }),
  ...referenceHandlers(deps.db, deps.catalogue),
});
