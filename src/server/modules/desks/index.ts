/**
 * The front door of desks (the live catalogue of desks and their forms): what other modules and the composition may
 * use, and only that (docs/decisions/038-module-front-doors.md). Files inside the module import one another
 * directly.
 */
import type { AppConfig } from '../../config';
import type { DB } from '../../db/database';
import type { RateLimiter } from '../../lib/rate-limit';
import type { Catalogue } from './catalogue';
import { funnelHandlers } from './funnel';
import { catalogueEditorHandlers } from './handlers';
import type { CatalogueSource } from './live-source';
import type { CatalogueKind } from './versions';

export type { Catalogue, CatalogueSnapshot, DeskForm } from './catalogue';
export { FormValidatorModules, registerFormValidators } from './form-validators';
export { recordFunnelPaid } from './funnel';
export { CATALOGUE_PUBLISHED, CatalogueSource } from './live-source';

/** The module's operations of the contract: app.ts composes every module this one way, `routes(composition)`. */
export const routes = (deps: {
  db: DB;
  config: AppConfig;
  catalogue: Catalogue;
  catalogueSource: CatalogueSource;
  rateLimiter: RateLimiter;
  /** Told of each draft that passed the check, so its preview's validators can be served. */
  draftPassed: (kind: CatalogueKind, document: Record<string, unknown>) => void;
}) => ({
  ...catalogueEditorHandlers(deps.db, deps.catalogueSource, deps.draftPassed),
  ...funnelHandlers({
    db: deps.db,
    catalogue: deps.catalogue,
    rateLimiter: deps.rateLimiter,
    limits: deps.config.funnelLimits,
  }),
});
