/**
 * What a desk's funnel may count, read from a form (src/shared/funnel.ts, decision 046): the fields a visit may name
 * (conditional ones too, by title), the steps a form declares, and the drawn field an rjsf id belongs to.
 */
import { describe, expect, it } from 'vitest';
import { FUNNEL_MAX_STEPS, funnelFieldOfId, funnelFieldsOf, funnelStepsOf } from '../../src/shared/funnel';

describe('desk funnel fields and steps', () => {
  it('names every top-level field the form can draw, conditional ones included, never a field inside a field', () => {
    const schema = {
      type: 'object',
      properties: {
        amount: { type: 'number', title: 'مبلغ' },
        guardian: { type: 'object', title: 'سرپرست', properties: { guardianName: { type: 'string' } } },
        minor: { type: 'boolean' },
      },
      allOf: [{ if: { properties: { minor: { const: true } } }, then: { properties: { school: { title: 'مدرسه' } } } }],
      dependencies: { amount: { properties: { note: { type: 'string', title: 'توضیح' } } } },
    };
    expect(Object.fromEntries(funnelFieldsOf(schema))).toEqual({
      amount: 'مبلغ',
      guardian: 'سرپرست',
      minor: 'minor',
      school: 'مدرسه',
      note: 'توضیح',
    });
  });

  it('reads the steps of a form, none for a one-page form, at most the funnel limit', () => {
    expect(funnelStepsOf({})).toEqual([]);
    expect(funnelStepsOf({ 'ui:steps': [{ title: 'هویت', fields: ['a'] }, { fields: ['b'] }] })).toEqual(['هویت', '2']);
    const many = Array.from({ length: 40 }, (_, i) => ({ title: `مرحله ${i}`, fields: [] }));
    expect(funnelStepsOf({ 'ui:steps': many })).toHaveLength(FUNNEL_MAX_STEPS);
  });

  it('finds the top-level field of a drawn id, the longest name first', () => {
    const fields = ['target', 'targetPageAddress', 'attendees'];
    expect(funnelFieldOfId('root_targetPageAddress', fields)).toBe('targetPageAddress');
    expect(funnelFieldOfId('root_target', fields)).toBe('target');
    expect(funnelFieldOfId('root_attendees_0_name', fields)).toBe('attendees');
    expect(funnelFieldOfId('root_unknown', fields)).toBeNull();
    expect(funnelFieldOfId('submit', fields)).toBeNull();
  });
});
