/**
 * «برنامه من» (decision 033): which step each of the customer's requests counts for — one step per request,
 * a step's own desk first — and a plan's steps in deadline order, numbered as shown.
 */
import { describe, expect, it } from 'vitest';
import { assignRequests } from '../../src/server/modules/plans/my-plan';
import { inDeadlineOrder, type PlanTemplateStep } from '../../src/server/modules/plans/templates';

const step = (key: string, order: number, desk: string, extra: Partial<PlanTemplateStep> = {}) =>
  ({ key, order, title: key, desk, fee: { currency: 'USD', amountMinor: 100 }, ...extra }) as PlanTemplateStep;

const ids = (map: Map<string, Array<{ id: number }>>) =>
  Object.fromEntries([...map].map(([k, v]) => [k, v.map((p) => p.id)]));

describe('assignRequests', () => {
  const steps = [
    step('english', 1, 'toefl', { otherDesks: ['ielts'] }),
    step('ieltsAgain', 2, 'ielts'),
    step('deposit', 3, 'deposit'),
  ];

  it('gives each request to one step, a step its own desk first, the furthest state first', () => {
    const map = assignRequests(steps, [
      { id: 1, desk: 'ielts', state: 'paid' },
      { id: 2, desk: 'toefl', state: 'waitingForPayment' },
      { id: 3, desk: 'toefl', state: 'purchaseSucceeded' },
      { id: 4, desk: 'deposit', state: 'failed' },
    ]);
    // TOEFL's done request shows the English step; the IELTS one its own step, not both; the waiting TOEFL one
    // is a second request towards the English step; a failed one counts nowhere.
    expect(ids(map)).toEqual({ english: [3, 2], ieltsAgain: [1], deposit: [] });
  });

  it('lets a step take a request at its other desks when none is at its own', () => {
    const map = assignRequests(steps, [
      { id: 7, desk: 'ielts', state: 'paid' },
      { id: 8, desk: 'ielts', state: 'waitingForPayment' },
    ]);
    expect(ids(map)).toEqual({ english: [8], ieltsAgain: [7], deposit: [] });
  });
});

describe('inDeadlineOrder', () => {
  it('puts steps with deadlines earliest first, keeps steps without one in place, numbers them 1, 2, 3…', () => {
    const ordered = inDeadlineOrder([
      step('application', 1, 'a', { deadlineDaysBeforeStart: 240 }),
      step('english', 2, 'b', { deadlineDaysBeforeStart: 270 }),
      step('note', 3, 'c'),
      step('deposit', 4, 'd', { deadlineDaysBeforeStart: 60 }),
      step('gre', 5, 'e', { deadlineDaysBeforeStart: 270 }),
    ]);
    expect(ordered.map((s) => [s.order, s.key])).toEqual([
      [1, 'english'],
      [2, 'gre'],
      [3, 'note'],
      [4, 'application'],
      [5, 'deposit'],
    ]);
  });
});
