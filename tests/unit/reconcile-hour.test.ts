/** RECONCILE_HOUR: the Tehran time of the nightly reconciliation (modules/reconciliation/nightly.ts). */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config';

describe('RECONCILE_HOUR', () => {
  it('is 02:30 Tehran time unless set, takes an hour or hour:minute, and off', () => {
    expect(loadConfig({}).nightlyReconciliation).toEqual({ hour: 2, minute: 30 });
    expect(loadConfig({ RECONCILE_HOUR: '3' }).nightlyReconciliation).toEqual({ hour: 3, minute: 0 });
    expect(loadConfig({ RECONCILE_HOUR: '23:45' }).nightlyReconciliation).toEqual({ hour: 23, minute: 45 });
    expect(loadConfig({ RECONCILE_HOUR: 'off' }).nightlyReconciliation).toBeNull();
  });

  it('refuses a time that is not one', () => {
    for (const bad of ['24', '2:60', 'night', '2:3']) {
      expect(() => loadConfig({ RECONCILE_HOUR: bad }), bad).toThrow(ConfigError);
    }
  });
});
