/**
 * The front door of plans (payment plans a customer keeps): what other modules and the composition may use, and only
 * that (docs/decisions/038-module-front-doors.md). Files inside the module import one another directly.
 */
import type { DB } from '../../db/database';
import type { Catalogue } from '../desks';
import type { RequestDeps } from '../requests';
import { planHandlers } from './handlers';
import { PlanTemplates } from './templates';

/** The module's operations of the contract: app.ts composes every module this one way, `routes(composition)`. */
export const routes = (deps: { db: DB; catalogue: Catalogue; requests: RequestDeps }) =>
  planHandlers({
    db: deps.db,
    templates: new PlanTemplates(deps.catalogue),
    catalogue: deps.catalogue,
    requests: deps.requests,
  });
