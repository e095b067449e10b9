/**
 * The entry stylesheet carries only the Radix Themes rules the built app can use (issue 10). Radix ships one
 * stylesheet for every component, every responsive breakpoint and both appearances (~600 kB); after the bundle is
 * written, a rule is dropped when every one of its selectors names a class nothing can produce:
 *  - a component class (`rt-SliderRoot`) whose name appears in no built script;
 *  - a prop class (`rt-r-size-2`, `rt-variant-soft`) none of whose prefixes (`rt-r-size`, `rt-variant`) appears in
 *    a built script (prop classes are composed at run time from such a prefix and the prop's value);
 *  - a responsive class (`md:rt-r-size-2`) for a breakpoint the app never passes (RESPONSIVE_BREAKPOINTS);
 *  - the dark appearance's classes: the app is light only (App.tsx).
 * The trimmed file gets a name from its own content, so a cached copy is never stale (the rules kept depend on the
 * scripts, not only on the stylesheet vite hashed), and index.html and the scripts naming it are rewritten to it.
 * Run before prerendering.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import postcss, { type Rule } from 'postcss';

/** The breakpoints src/web passes in responsive props (`{ initial: '1', xs: '2' }`); a test checks the list. */
export const RESPONSIVE_BREAKPOINTS = ['xs', 'sm'] as const;
const ALL_BREAKPOINTS = /^(xs|sm|md|lg|xl):(.+)$/;
const UNUSED_APPEARANCE = new Set(['dark', 'dark-theme']);

/** Whether the class can appear on a page whose scripts are `scripts`: its rules are kept. Memoised per call. */
export function classUsage(scripts: string): (name: string) => boolean {
  const seen = new Map<string, boolean>();
  const used = (name: string): boolean => {
    const known = seen.get(name);
    if (known !== undefined) return known;
    let result: boolean;
    const responsive = ALL_BREAKPOINTS.exec(name);
    if (responsive) {
      result = (RESPONSIVE_BREAKPOINTS as readonly string[]).includes(responsive[1]!) && used(responsive[2]!);
    } else if (UNUSED_APPEARANCE.has(name)) {
      result = false;
    } else if (!name.startsWith('rt-')) {
      result = true;
    } else if (/^rt-[A-Z]/.test(name)) {
      result = scripts.includes(name);
    } else {
      // `rt-r-` only marks a responsive prop: its prefix is at least `rt-r-<prop>`.
      const parts = name.split('-');
      const shortest = parts[1] === 'r' ? 3 : 2;
      result = false;
      for (let n = parts.length; n >= shortest && !result; n--) result = scripts.includes(parts.slice(0, n).join('-'));
    }
    seen.set(name, result);
    return result;
  };
  return used;
}

const CLASS_IN_SELECTOR = /\.((?:\\.|[\w-])+)/g;
const classesOf = (selector: string) => [...selector.matchAll(CLASS_IN_SELECTOR)].map((m) => m[1]!.replace(/\\/g, ''));

/** The stylesheet without the rules no selector of which can match; keyframes are kept. */
export function trimStylesheet(css: string, scripts: string): string {
  const used = classUsage(scripts);
  const root = postcss.parse(css);
  root.walkRules((rule: Rule) => {
    if (rule.parent?.type === 'atrule' && /keyframes$/.test((rule.parent as { name: string }).name)) return;
    const kept = rule.selectors.filter((selector) => classesOf(selector).every(used));
    if (kept.length === 0) rule.remove();
    else if (kept.length !== rule.selectors.length) rule.selectors = kept;
  });
  // At-rules left empty (a media query whose rules all went), innermost first.
  let emptied = true;
  while (emptied) {
    emptied = false;
    root.walkAtRules((at) => {
      if (at.nodes && at.nodes.length === 0) {
        at.remove();
        emptied = true;
      }
    });
  }
  return root.toString();
}

/** Every script of the build under `outDir`, as one text: what `classUsage` searches. */
export function builtScripts(outDir: string): string {
  const assets = path.join(outDir, 'assets');
  return readdirSync(assets)
    .filter((f) => f.endsWith('.js'))
    .map((f) => readFileSync(path.join(assets, f), 'utf8'))
    .join('\n');
}

/**
 * Lazy chunks that import from the entry chunk list its stylesheet among the files to load first (vite's preload
 * map): they must name the renamed file, or the browser asks for one that is gone.
 */
function relinkInScripts(assets: string, from: string, to: string): void {
  for (const file of readdirSync(assets).filter((f) => f.endsWith('.js'))) {
    const source = readFileSync(path.join(assets, file), 'utf8');
    if (source.includes(from)) writeFileSync(path.join(assets, file), source.replaceAll(from, to));
  }
}

/** Trims every stylesheet index.html links from /assets/, renames it by its new content and relinks it. */
export function trimEntryStylesheets(outDir: string): void {
  const assets = path.join(outDir, 'assets');
  const scripts = builtScripts(outDir);
  const indexFile = path.join(outDir, 'index.html');
  let html = readFileSync(indexFile, 'utf8');
  for (const [, name] of html.matchAll(/href="\/assets\/([\w.-]+\.css)"/g)) {
    const out = trimStylesheet(readFileSync(path.join(assets, name!), 'utf8'), scripts);
    const hash = createHash('sha256').update(out).digest('base64url').slice(0, 8);
    const renamed = `${name!.split('-')[0]}-${hash}.css`;
    writeFileSync(path.join(assets, renamed), out);
    rmSync(path.join(assets, name!));
    html = html.replaceAll(`/assets/${name}`, `/assets/${renamed}`);
    relinkInScripts(assets, name!, renamed);
  }
  writeFileSync(indexFile, html);
}
