/**
 * Writes `page-routes.json` beside the client build: the path of every route of the web app (src/web/lib/routes.ts,
 * `:name` for a parameter). The server answers a path none of them matches with the web app's page and status 404
 * (src/server/http/page-routes.ts), so the route table stays in one place.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { routes } from '../src/web/lib/routes';

export const PAGE_ROUTES_FILE = 'page-routes.json';

export function writePageRoutes(outDir: string): void {
  writeFileSync(path.join(outDir, PAGE_ROUTES_FILE), JSON.stringify(routes.map((r) => r.path)));
}
