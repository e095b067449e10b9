import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * react-router 7 points every export condition at its development build (remix-run/react-router#12532, #14102):
 * its dev warnings and checks ran in every customer's browser, in the router's creation at start. The production
 * build it ships beside it is used instead, for `vite build` only (the dev server keeps the warnings).
 */
export function reactRouterProduction(): Plugin {
  const require = createRequire(import.meta.url);
  const dist = path.join(path.dirname(require.resolve('react-router/package.json')), 'dist/production');
  return {
    name: 'arzpay-react-router-production',
    apply: 'build',
    config: () => ({
      resolve: {
        alias: [
          { find: /^react-router$/, replacement: path.join(dist, 'index.mjs') },
          { find: /^react-router\/dom$/, replacement: path.join(dist, 'dom-export.mjs') },
        ],
      },
    }),
  };
}
