/** Study-abroad plans: the public templates, and the signed-in customer's own plan (never anyone else's). */
import type { Handlers } from '../../contract/handlers';
import { ok } from '../../http/errors';
import { fetchMyPlan, type PlanDeps, saveMyPlan, templateView } from './my-plan';

export function planHandlers(deps: PlanDeps): Pick<Handlers, 'searchPlanTemplates' | 'fetchMyPlan' | 'saveMyPlan'> {
  return {
    searchPlanTemplates: async () => {
      const items = deps.templates.all.map((t) => templateView(deps, t));
      return ok({ items, total: items.length });
    },
    fetchMyPlan: async ({ principal }) => ok({ plan: await fetchMyPlan(deps, principal!.userId) }),
    saveMyPlan: async ({ body, principal }) => ok({ plan: await saveMyPlan(deps, principal!.userId, body) }),
  };
}
