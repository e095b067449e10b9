/** Tracking codes compared in one canonical form (decision 026): one deposit, whatever way staff type its code. */
import { describe, expect, it } from 'vitest';
import { canonicalTrackingCode } from '../../src/server/modules/payments/tracking-code';

describe('canonicalTrackingCode', () => {
  it('folds letter case, Persian and Arabic-Indic digits, full-width forms, spaces and every dash', () => {
    const one = [
      'TRK-1234',
      'trk-1234',
      'TRK1234',
      ' trk 12 34 ',
      'TRK–12—34',
      'TRK‑12−34',
      'trk۱۲۳۴',
      'TRK-١٢٣٤',
      'ＴＲＫ１２３４',
      'TRK\u200c1234',
      'TRK\u00a012\t34',
    ];
    expect(new Set(one.map(canonicalTrackingCode))).toEqual(new Set(['trk1234']));
  });

  it('keeps what tells codes apart: other letters and digits, their order, underscores and dots', () => {
    const codes = ['TRK1234', 'TRK1243', 'TRX1234', 'TRK_1234', 'TRK.1234', 'TRK12345'];
    expect(new Set(codes.map(canonicalTrackingCode)).size).toBe(codes.length);
  });

  it('leaves nothing of a code made only of spaces and dashes (refused as missing)', () => {
    expect(canonicalTrackingCode(' - – ')).toBe('');
  });
});
