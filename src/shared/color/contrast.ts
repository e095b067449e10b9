/**
 * WCAG 2 contrast for colours the product does not choose itself: state and task colours come from the database
 * (SPEC gives them, staff may change them) and are drawn behind white text. Many of them (#fb8c00, #43a047) are
 * too light for white text; `readableBehindWhite` darkens such a colour just enough, keeping its hue, so every
 * badge meets AA (4.5:1) whatever colour it was given.
 */

/** The AA minimum for normal-size text. */
export const AA_TEXT = 4.5;

type Rgb = readonly [number, number, number];

/** `#rgb` or `#rrggbb` to channels 0–255; anything else is null. */
export function parseHex(colour: string): Rgb | null {
  const hex = colour.trim().replace(/^#/, '');
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  if (!/^[0-9a-f]{6}$/i.test(full)) return null;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as unknown as Rgb;
}

const toHex = (rgb: Rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

function relativeLuminance([r, g, b]: Rgb): number {
  const linear = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** The WCAG contrast ratio of two colours (1 to 21); NaN when either is not a hex colour. */
export function contrastRatio(a: string, b: string): number {
  const ca = parseHex(a);
  const cb = parseHex(b);
  if (!ca || !cb) return NaN;
  const [hi, lo] = [relativeLuminance(ca), relativeLuminance(cb)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * `colour` itself when white text on it reaches `minimum`; otherwise the same hue darkened in small steps until it
 * does (black at the end reaches 21:1). A value that is not a hex colour (a CSS variable, a name) is returned
 * unchanged: those are ours and checked where they are defined.
 */
export function readableBehindWhite(colour: string, minimum = AA_TEXT): string {
  const rgb = parseHex(colour);
  if (!rgb) return colour;
  for (let keep = 1; keep > 0; keep -= 0.02) {
    const candidate = toHex(rgb.map((c) => c * keep) as unknown as Rgb);
    if (contrastRatio(candidate, '#ffffff') >= minimum) return keep === 1 ? colour : candidate;
  }
  return '#000000';
}
