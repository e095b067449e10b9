/**
 * The study-abroad plan templates: the files under schemas/plans/ (checked by `npm run schemas:check`, like the
 * desks), read once at start, in their `sortOrder`. Staff change them by editing those files; the catalogue editor
 * does not publish plans yet.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plan } from '../../../generated/schemas/plan';
import { jsonFilesIn } from '../desks/catalogue';

export type PlanTemplate = Plan;
export type PlanTemplateStep = Plan['steps'][number];

export class PlanTemplates {
  private readonly byId: Map<string, PlanTemplate>;

  constructor(readonly all: readonly PlanTemplate[]) {
    this.byId = new Map(all.map((t) => [t.identifier, t]));
  }

  static fromFiles(schemasDir: string): PlanTemplates {
    const dir = path.join(schemasDir, 'plans');
    const plans = existsSync(dir)
      ? jsonFilesIn(dir).map((file) => JSON.parse(readFileSync(file, 'utf8')) as PlanTemplate)
      : [];
    return new PlanTemplates(
      plans
        .map((p) => ({ ...p, steps: [...p.steps].sort((a, b) => a.order - b.order) as PlanTemplate['steps'] }))
        .sort((a, b) => a.sortOrder - b.sortOrder || a.identifier.localeCompare(b.identifier)),
    );
  }

  get(identifier: string): PlanTemplate | undefined {
    return this.byId.get(identifier);
  }
}

/** Every desk a step counts requests at: its own and the ones that do the same step instead. */
export const stepDesks = (step: PlanTemplateStep): string[] => [step.desk, ...(step.otherDesks ?? [])];
