import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AA_TEXT, contrastRatio, parseHex, readableBehindWhite } from '../../src/shared/color/contrast';
import { TRACE_PALETTE } from '../../src/shared/transaction-tones';

describe('colour contrast', () => {
  it('computes the WCAG ratio', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#fff', '#ffffff')).toBe(1);
    // Radix's teal-9 behind white text: the figure axe reported.
    expect(contrastRatio('#12a594', '#ffffff')).toBeCloseTo(3.07, 2);
    expect(contrastRatio('var(--red-9)', '#ffffff')).toBeNaN();
  });

  it('parses only hex colours', () => {
    expect(parseHex('#1E88E5')).toEqual([30, 136, 229]);
    expect(parseHex('abc')).toEqual([170, 187, 204]);
    expect(parseHex('red')).toBeNull();
    expect(parseHex('#12345')).toBeNull();
  });

  it('keeps a colour that is already readable and darkens one that is not, just enough', () => {
    expect(readableBehindWhite('#1565c0')).toBe('#1565c0');
    for (const light of ['#fb8c00', '#43a047', '#1e88e5', '#ffffff', '#ffeb3b']) {
      const dark = readableBehindWhite(light);
      expect(dark).not.toBe(light);
      expect(contrastRatio(dark, '#ffffff')).toBeGreaterThanOrEqual(AA_TEXT);
      // Not darker than needed: one step lighter would fail.
      const [r, g, b] = parseHex(dark)!;
      const lighter = `#${[r, g, b]
        .map((c) =>
          Math.min(255, Math.round(c * 1.03))
            .toString(16)
            .padStart(2, '0'),
        )
        .join('')}`;
      expect(contrastRatio(lighter, '#ffffff')).toBeLessThan(AA_TEXT + 0.5);
    }
    expect(readableBehindWhite('var(--accent-9)')).toBe('var(--accent-9)');
  });

  it('makes any hex colour readable behind white text', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffff }), (n) => {
        const colour = `#${n.toString(16).padStart(6, '0')}`;
        expect(contrastRatio(readableBehindWhite(colour), '#ffffff')).toBeGreaterThanOrEqual(AA_TEXT);
      }),
      { numRuns: 2000 },
    );
  });

  it('the trace palette is readable as it stands', () => {
    for (const colour of TRACE_PALETTE) expect(readableBehindWhite(colour)).toBe(colour);
  });
});
