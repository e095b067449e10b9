import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RESPONSIVE_BREAKPOINTS, trimStylesheet } from '../../build/trim-stylesheet';

const css = `
.rt-Badge { display: inline-flex }
.rt-SliderRoot { position: relative }
.rt-SliderRoot, .rt-Badge:where(.rt-variant-soft) { color: red }
.rt-r-size-2 { width: 2px }
.rt-r-gap-3 { gap: 3px }
.rt-Badge:where(.rt-high-contrast) { color: black }
@media (min-width: 520px) { .xs\\:rt-r-size-2 { width: 2px } }
@media (min-width: 1024px) { .md\\:rt-r-size-2 { width: 2px } }
.dark, .dark-theme { --gray-1: #111 }
:root, .light { --gray-1: #fff }
@keyframes rt-fade-in { from { opacity: 0 } to { opacity: 1 } }
.my-own { color: blue }
`;
// What a built script holds: a component class, and prop class prefixes composed at run time.
const scripts = 'className:"rt-Badge",x="rt-r-size",y="rt-variant",z="rt-high-contrast"';

describe('trimStylesheet', () => {
  const out = trimStylesheet(css, scripts);

  it('keeps rules a built script can produce', () => {
    expect(out).toContain('.rt-Badge { display: inline-flex }');
    expect(out).toContain('.rt-r-size-2');
    expect(out).toContain('.rt-Badge:where(.rt-high-contrast)');
    expect(out).toContain('.xs\\:rt-r-size-2');
    expect(out).toContain(':root, .light');
    expect(out).toContain('@keyframes rt-fade-in');
    expect(out).toContain('.my-own');
  });

  it('drops components no script names, prop classes no script composes, unused breakpoints and dark', () => {
    expect(out).not.toContain('.rt-SliderRoot');
    expect(out).not.toContain('.rt-r-gap-3');
    expect(out).not.toContain('md\\:');
    expect(out).not.toContain('1024px');
    expect(out).not.toContain('.dark');
    // A rule with one used selector keeps that one.
    expect(out).toContain('.rt-Badge:where(.rt-variant-soft) { color: red }');
  });

  it('the breakpoints kept are every breakpoint src/web passes in a responsive prop', () => {
    const web = path.resolve(import.meta.dirname, '../../src/web');
    const files = readdirSync(web, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.tsx'));
    const used = new Set<string>();
    for (const file of files) {
      const source = readFileSync(path.join(web, file), 'utf8');
      for (const m of source.matchAll(/\{\{[^}]*\binitial:[^}]*\}\}/g)) {
        for (const bp of m[0].matchAll(/\b(xs|sm|md|lg|xl):/g)) used.add(bp[1]!);
      }
    }
    expect(used.size).toBeGreaterThan(0);
    for (const bp of used) expect(RESPONSIVE_BREAKPOINTS).toContain(bp);
  });
});
