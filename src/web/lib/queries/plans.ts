/**
 * Study-abroad plans: the public templates, and the signed-in customer's own plan (its steps' estimates, deadlines
 * and states). The plan sits under the `myPlan` key, which a request's change and a rate's change refresh
 * (lib/realtime.ts); the desk page reads it for a step's prefill.
 */
import type { components } from '../../../generated/api';
import { api, call } from '../api-client';

export type PlanTemplate = components['schemas']['PlanTemplate'];
export type MyPlan = components['schemas']['MyPlan'];
export type MyPlanStep = components['schemas']['MyPlanStep'];
export type PlanStepState = components['schemas']['PlanStepState'];

export const planTemplatesQuery = {
  queryKey: ['public', 'planTemplates'],
  queryFn: () => call<{ items: PlanTemplate[]; total: number }>(api.POST('/api/public/searchPlanTemplates')),
  staleTime: 5 * 60_000,
};

export const myPlanQuery = {
  queryKey: ['myPlan'],
  queryFn: async () => (await call<{ plan: MyPlan | null }>(api.POST('/api/me/fetchMyPlan'))).plan,
};

export const saveMyPlan = async (body: { plan: string; startDate: string }) =>
  (await call<{ plan: MyPlan | null }>(api.POST('/api/me/saveMyPlan', { body }))).plan;

/** The plan's step a desk page opened from the plan (`?planStep=<key>`) fills its form from, if it is this desk's. */
export function planStepFor(plan: MyPlan | null | undefined, key: string | null, desk: string): MyPlanStep | null {
  if (!plan || !key) return null;
  const step = plan.steps.find((s) => s.key === key);
  if (!step || (step.desk !== desk && !step.otherDesks.some((d) => d.desk === desk))) return null;
  return step;
}
