/**
 * The checks every page gets on the one page walk (tests/e2e/page-walk.test.ts, decision 036): axe's serious and
 * critical violations, Latin digits where a person reads a number, the test instance's banner, and the class names
 * drawn (for the trimmed stylesheet). Each takes the page as it is now and says what it found.
 */
import AxeBuilder from '@axe-core/playwright';
import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { AA_TEXT, contrastRatio } from '../../src/shared/color/contrast';
import { LATIN_ATTRIBUTE, LATIN_EXEMPT } from '../../src/shared/format/latin';

export const BANNER_TEXT = 'درگاه آزمایشی: پولی جابه‌جا نمی‌شود';

export interface AxeFinding {
  rule: string;
  impact: string | null | undefined;
  help: string;
  targets: string[];
}

interface AxeRule {
  id: string;
  impact?: string;
}

/**
 * The rules whose every violation is minor or moderate (axe gives a violation its rule's impact), so they can never
 * give what the walk asserts; every other rule axe runs by default still runs. Read off axe-core itself, so a rule
 * that becomes serious in a later axe runs again by itself.
 */
export const NEVER_SERIOUS: readonly string[] = (axe as unknown as { _audit: { rules: AxeRule[] } })._audit.rules
  .filter((rule) => rule.impact === 'minor' || rule.impact === 'moderate')
  .map((rule) => rule.id);

const axeOptions = {
  rules: Object.fromEntries(NEVER_SERIOUS.map((id) => [id, { enabled: false }])),
  // Only violations are read: passes and the rest come back with one node each instead of all of them.
  resultTypes: ['violations'] as const,
};

/**
 * axe-core on the page as drawn now: its serious and critical violations. axe is put into a document once and run
 * there again on each call (a tab moving in the app keeps its document), instead of @axe-core/playwright's way of
 * evaluating the 1.5 MB script twice and opening a blank tab to finish each run; a page with frames (none in this app
 * today) goes through @axe-core/playwright, which puts axe into each frame.
 */
export async function seriousViolations(page: Page): Promise<AxeFinding[]> {
  let violations: axe.Result[];
  if (page.frames().length > 1) {
    const builder = new AxeBuilder({ page }).disableRules([...NEVER_SERIOUS]);
    violations = (await builder.analyze()).violations;
  } else {
    if (!(await page.evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function'))) {
      await page.evaluate(axe.source);
    }
    violations = await page.evaluate(
      (options) =>
        (window as unknown as { axe: typeof axe }).axe
          .run(document, { ...options, resultTypes: [...options.resultTypes] })
          .then((result) => result.violations),
      axeOptions,
    );
  }
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
    }));
}

/**
 * Visible text nodes holding a Latin digit outside the exceptions (shared/format/latin.ts), with a little context,
 * and visible fields whose placeholder (the example of what to type) holds one outside text Latin by nature; and
 * how many text nodes hold Persian ones.
 */
export function latinDigits(page: Page): Promise<{ found: string[]; persian: number }> {
  return page.evaluate(
    ([exempt, latinByNature]) => {
      const found: string[] = [];
      let persian = 0;
      for (const field of document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>(
        'input[placeholder], textarea[placeholder]',
      )) {
        if (!/[0-9]/.test(field.placeholder) || field.closest(latinByNature)) continue;
        if (!field.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
        found.push(`placeholder of ${field.id || field.name || field.tagName.toLowerCase()}: ${field.placeholder}`);
      }
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) {
        const node = walker.currentNode as Text;
        if (/[۰-۹]/.test(node.data)) persian++;
        if (!/[0-9]/.test(node.data)) continue;
        const element = node.parentElement;
        if (!element || element.closest(exempt)) continue;
        if (!element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        if (range.getClientRects().length === 0) continue;
        const where = element.closest('[data-testid]')?.getAttribute('data-testid') ?? element.tagName.toLowerCase();
        found.push(`${where}: ${node.data.trim().slice(0, 80)}`);
      }
      return { found, persian };
    },
    [LATIN_EXEMPT, `[${LATIN_ATTRIBUTE}]`] as const,
  );
}

/** Every class name on the page now (elements of open dialogs included). */
export function classNames(page: Page): Promise<string[]> {
  return page.evaluate(() => [...new Set([...document.querySelectorAll('*')].flatMap((e) => [...e.classList]))]);
}

const hex = (rgb: string) =>
  `#${(rgb.match(/\d+/g) ?? [])
    .slice(0, 3)
    .map((n) => Number(n).toString(16).padStart(2, '0'))
    .join('')}`;

/** The banner on the page now: there, whole, first at the top, covered by nothing and covering nothing, readable. */
export async function expectBanner(page: Page, where: string): Promise<void> {
  // One round trip to the page, when the banner shows and the header and the main part are drawn (a walk makes it
  // on every visit; six separate waits and reads cost more than the check).
  const answer = await page.waitForFunction(() => {
    const element = document.getElementById('test-instance-banner');
    const headerElement = document.querySelector('.app-header');
    const mainElement = document.querySelector('#main, .app-main');
    if (!element || !headerElement || !mainElement) return null;
    const shown = element.getBoundingClientRect();
    if (shown.width === 0 || shown.height === 0 || getComputedStyle(element).visibility === 'hidden') return null;
    window.scrollTo(0, 0);
    const box = element.getBoundingClientRect();
    const header = headerElement.getBoundingClientRect();
    const main = document.querySelector('.app-main')!.getBoundingClientRect();
    const style = getComputedStyle(element);
    return {
      text: element.innerText,
      top: box.top,
      bottom: box.bottom,
      left: box.left,
      right: box.right,
      headerTop: header.top,
      mainTop: main.top,
      // Whatever is drawn at the banner's middle and near each end: the banner itself (true), else what covers it.
      onTop: [0.05, 0.5, 0.95].map((x) => {
        const hit = document.elementFromPoint(box.left + box.width * x, box.top + box.height / 2);
        return hit === element || element.contains(hit) ? true : (hit?.outerHTML.slice(0, 200) ?? 'nothing');
      }),
      width: innerWidth,
      // The banner's text wraps within it (the page's own width is the page's business).
      overflows: element.scrollWidth > element.clientWidth,
      direction: style.direction,
      color: style.color,
      background: style.backgroundColor,
      fontSize: parseFloat(style.fontSize),
      firstInBody: document.body.firstElementChild === element,
    };
  });
  const seen = (await answer.jsonValue())!;
  await answer.dispose();
  expect(seen.text, where).toBe(BANNER_TEXT);
  expect(seen.firstInBody, where).toBe(true);
  expect(seen.top, where).toBe(0);
  expect([seen.left, seen.right], where).toEqual([0, seen.width]);
  expect(seen.bottom, where).toBeGreaterThan(20);
  expect(seen.headerTop, where).toBeGreaterThanOrEqual(seen.bottom - 0.5);
  expect(seen.mainTop, where).toBeGreaterThanOrEqual(seen.bottom - 0.5);
  expect(seen.onTop, where).toEqual([true, true, true]);
  expect(seen.overflows, where).toBe(false);
  expect(seen.direction, where).toBe('rtl');
  expect(seen.fontSize, where).toBeGreaterThanOrEqual(14);
  expect(contrastRatio(hex(seen.color), hex(seen.background)), where).toBeGreaterThanOrEqual(AA_TEXT);
}
