/**
 * The front door of desks (the live catalogue of desks and their forms): what other modules and the composition may
 * use, and only that (docs/decisions/038-module-front-doors.md). Files inside the module import one another
 * directly.
 */
export type { Catalogue, CatalogueSnapshot, DeskForm } from './catalogue';
export { FormValidatorModules, registerFormValidators } from './form-validators';
export { catalogueEditorHandlers } from './handlers';
export { CATALOGUE_PUBLISHED, CatalogueSource } from './live-source';
