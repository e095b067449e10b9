/**
 * The study-abroad plan templates: the live catalogue's plans (decision 014 via 030): the files under schemas/plans/
 * (checked by `npm run schemas:check`, like the desks) overridden by the versions staff published from the
 * catalogue editor, in their `sortOrder`. Read per use, so a publish shows at once without a restart; the ordered
 * list is kept per snapshot.
 */
import type { Plan } from '../../../generated/schemas/plan';
import type { Catalogue, CatalogueSnapshot } from '../desks';

export type PlanTemplate = Plan;
export type PlanTemplateStep = Plan['steps'][number];

/**
 * A plan's steps in their order, the ones with a deadline rearranged among their places so that deadlines come
 * earliest first (decision 033: a template may list the English test after the application it must precede), then
 * numbered 1, 2, 3… as shown.
 */
export function inDeadlineOrder(steps: readonly PlanTemplateStep[]): PlanTemplateStep[] {
  const byOrder = [...steps].sort((a, b) => a.order - b.order);
  const dated = byOrder
    .filter((s) => s.deadlineDaysBeforeStart !== undefined)
    .sort((a, b) => b.deadlineDaysBeforeStart! - a.deadlineDaysBeforeStart! || a.order - b.order);
  let next = 0;
  return byOrder
    .map((s) => (s.deadlineDaysBeforeStart === undefined ? s : dated[next++]!))
    .map((s, i) => ({ ...s, order: i + 1 }));
}

const ordered = (plans: readonly Plan[]): PlanTemplate[] =>
  plans
    .map((p) => ({ ...p, steps: inDeadlineOrder(p.steps) as PlanTemplate['steps'] }))
    .sort((a, b) => a.sortOrder - b.sortOrder || a.identifier.localeCompare(b.identifier));

export class PlanTemplates {
  private builtFrom: CatalogueSnapshot | null = null;
  private list: PlanTemplate[] = [];
  private byId = new Map<string, PlanTemplate>();

  constructor(private readonly catalogue: Catalogue) {}

  private current(): void {
    const snapshot = this.catalogue.snapshot;
    if (snapshot === this.builtFrom) return;
    this.list = ordered(snapshot.plans);
    this.byId = new Map(this.list.map((t) => [t.identifier, t]));
    this.builtFrom = snapshot;
  }

  get all(): readonly PlanTemplate[] {
    this.current();
    return this.list;
  }

  get(identifier: string): PlanTemplate | undefined {
    this.current();
    return this.byId.get(identifier);
  }
}

/** Every desk a step counts requests at: its own and the ones that do the same step instead. */
export const stepDesks = (step: PlanTemplateStep): string[] => [step.desk, ...(step.otherDesks ?? [])];
