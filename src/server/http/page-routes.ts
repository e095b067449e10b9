/**
 * Which paths are pages of the web app: the route paths the build wrote to `page-routes.json` (build/page-routes.ts).
 * The history fallback sends the web app's page for any path, and its router draws the not-found page for one it does
 * not know; this says which of them answer 404. Without the file (a stand-in web directory) every path is a page.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A test of a pathname (no query, no trailing slash) against the build's route paths, or null without the file. */
export function loadPageRoutes(webDir: string): ((pathname: string) => boolean) | null {
  const file = path.join(webDir, 'page-routes.json');
  if (!existsSync(file)) return null;
  const paths = JSON.parse(readFileSync(file, 'utf8')) as string[];
  const patterns = paths.map(
    (p) =>
      new RegExp(
        `^${p
          .split('/')
          .map((part) => (part.startsWith(':') ? '[^/]+' : escapeRegExp(part)))
          .join('/')}$`,
      ),
  );
  return (pathname) => patterns.some((re) => re.test(pathname));
}
