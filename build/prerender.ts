/**
 * Prerenders the public pages after the client build (issue 10): home, the service lists, every desk page and the
 * customer's own pages, as a guest sees them, from the same React components (src/web/app/prerender.tsx, built here for Node). The catalogue
 * is data (schemas/), so a desk added as JSON is prerendered on the next build. Each page is written as
 * `pages/<path>.html` beside the client build, from the built index.html with the page's HTML in #root and the
 * catalogue it was drawn with as JSON (not a script: the CSP runs no inline script); index.html stays the empty shell
 * for every other path. The server sends the prerendered file when there is one (src/server/app.ts).
 */
// Before the built module is imported: its chunks are evaluated before its entry's first line, and a chunk may read
// localStorage as it loads (the session's stored token).
import '../src/web/app/ssr-globals';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { Catalogue } from '../src/server/modules/desks/catalogue';
import { escapeHtml } from '../src/shared/escape-html';
import type { CatalogueData } from '../src/web/lib/queries/catalogue';

/** Where a prerendered page lives in the build, by its path (`/` → pages/index.html). */
export function prerenderedFile(urlPath: string): string {
  const clean = urlPath.replace(/\/+$/, '');
  return `pages${clean === '' ? '/index' : clean}.html`;
}

/**
 * The customer's own pages, as a guest sees them (what they are, and the log-in). Someone signed in never sees this
 * HTML: main.tsx empties it and draws their page.
 */
const GUEST_VIEWS = [
  '/request/myRequests',
  '/request/myWallet',
  '/request/myProfile',
  '/request/myAccount',
  '/myGoogleAdsAccounts',
  '/request/termsAndConditions',
];

/**
 * The customer's own pages as a returning customer's browser draws them first (the hint cookie says a session is
 * held): the page's frame and heading while their person is read, written to `frames/<path>.html`. The app then
 * draws the page anew (start.tsx) in the same place; the heading is on screen from the first paint.
 */
export const SIGNED_IN_FRAMES = [
  '/request/myRequests',
  '/request/myWallet',
  '/request/myProfile',
  '/request/myAccount',
  '/myGoogleAdsAccounts',
  '/notifications',
];

/** Where a signed-in frame lives in the build, by its path. */
export function signedInFrameFile(urlPath: string): string {
  return `frames${urlPath.replace(/\/+$/, '')}.html`;
}

/** The paths prerendered: home, the service lists, each desk open to requests, and the guest views above. */
export function publicPaths(catalogue: CatalogueData): string[] {
  return [
    '/',
    '/services',
    ...catalogue.categories.map((c) => `/services/${c.key}`),
    ...catalogue.desks.filter((d) => !d.underConstruction).map((d) => `/desks/${d.identifier}`),
    ...GUEST_VIEWS,
  ];
}

const escapeJson = (json: string) => json.replace(/</g, '\\u003c');

export async function prerenderPages(repoRoot: string, outDir: string): Promise<string[]> {
  const loaded = Catalogue.load(path.join(repoRoot, 'schemas'));
  // A form's own test cases are for schemas:check and publishing, never drawn: every prerendered page carries the
  // catalogue, so they stay out of it.
  const forms = loaded.forms.map((form) => ({ ...form, cases: undefined }));
  const catalogue = { categories: loaded.categories, desks: loaded.desks, forms } as CatalogueData;
  // Inside the repository, so the built module finds its dependencies in node_modules.
  mkdirSync(path.join(repoRoot, 'node_modules/.cache'), { recursive: true });
  const ssrDir = mkdtempSync(path.join(repoRoot, 'node_modules/.cache/arzpay-prerender-'));
  try {
    await build({
      configFile: false,
      logLevel: 'warn',
      root: path.join(repoRoot, 'src/web'),
      plugins: [react()],
      build: { ssr: path.join(repoRoot, 'src/web/app/prerender.tsx'), outDir: ssrDir, emptyOutDir: true },
    });
    const entry = (await import(pathToFileURL(path.join(ssrDir, 'prerender.js')).href)) as {
      renderPage: (url: string, catalogue: CatalogueData, signedIn?: boolean) => Promise<string>;
      titleOf: (url: string, catalogue: CatalogueData) => string;
      PRERENDER_DATA_ID: string;
    };
    const shell = readFileSync(path.join(outDir, 'index.html'), 'utf8');
    if (!shell.includes('<div id="root"></div>')) {
      throw new Error('index.html has no empty <div id="root"></div> to prerender into');
    }
    const data = `<script type="application/json" id="${entry.PRERENDER_DATA_ID}">${escapeJson(JSON.stringify(catalogue))}</script>`;
    const written: string[] = [];
    for (const urlPath of publicPaths(catalogue)) {
      const html = await entry.renderPage(urlPath, catalogue);
      const page = shell
        // Replaced by functions: a `$` in the page's text is not a replacement pattern.
        .replace('<div id="root"></div>', () => `<div id="root">${html}</div>${data}`)
        .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(entry.titleOf(urlPath, catalogue))}</title>`);
      const file = path.join(outDir, prerenderedFile(urlPath));
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, page);
      written.push(urlPath);
    }
    // No catalogue data beside a frame: start.tsx draws the app anew over it rather than hydrating it.
    for (const urlPath of SIGNED_IN_FRAMES) {
      const html = await entry.renderPage(urlPath, catalogue, true);
      const page = shell
        .replace('<div id="root"></div>', () => `<div id="root" data-signed-in-frame="">${html}</div>`)
        .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(entry.titleOf(urlPath, catalogue))}</title>`);
      const file = path.join(outDir, signedInFrameFile(urlPath));
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, page);
    }
    return written;
  } finally {
    rmSync(ssrDir, { recursive: true, force: true });
  }
}
