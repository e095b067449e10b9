// Lint rules for the whole repository (run by `npm test`); formatting is prettier's job.
import boundaries from '@boundaries/eslint-plugin';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The walls (docs/decisions/006-web-layers.md): server and web never import each other and shared imports
 * neither; inside the web lib < components < features < app, each importing only downward, no feature area
 * importing another (imports inside one area are its own business), and nothing importing app.
 */
const elements = [
  { type: 'module', pattern: 'src/server/modules/*', capture: ['module'] },
  { type: 'floor', pattern: 'src/server/{lib,db,http,contract,realtime}' },
  { type: 'server', pattern: 'src/server' },
  { type: 'shared', pattern: 'src/shared' },
  { type: 'lib', pattern: 'src/web/lib' },
  { type: 'components', pattern: 'src/web/components' },
  { type: 'feature', pattern: 'src/web/features/*', capture: ['area'] },
  { type: 'app', pattern: 'src/web/app' },
];
const web = ['lib', 'components', 'feature', 'app'];
const server = ['module', 'floor', 'server'];

/**
 * The server's modules in one direction (docs/architecture.md, "The module order"): each floor imports only the
 * floors below it, never a module of its own floor or above; a lower module that must react to a higher one offers
 * a port the composition (app.ts) fills. Imports inside one module are its own business.
 */
export const MODULE_FLOORS = [
  ['ledger', 'settings', 'storage', 'sandbox-bank', 'notifications'],
  ['tasks'],
  ['identity'],
  ['access', 'cards', 'desks'],
  ['reference-data', 'requests'],
  ['fulfilment', 'plans'],
  ['payments', 'google-ads', 'bank-accounts', 'reconciliation'],
];
const moduleOrder = MODULE_FLOORS.flatMap((floor, level) =>
  floor.map((name) => {
    const below = MODULE_FLOORS.slice(0, level).flat();
    const refused = MODULE_FLOORS.slice(level)
      .flat()
      .filter((other) => other !== name);
    return {
      from: { element: { types: ['module'], captured: { module: name } } },
      disallow: { to: { element: { types: ['module'], captured: { module: refused } } } },
      message:
        `Server modules import only lower floors (docs/architecture.md): ${name} may import ` +
        `${below.length ? below.join(', ') : 'no module'}; a lower module offers a port that app.ts fills.`,
    };
  }),
);
const disallow = (from, to, message) => ({
  from: { element: { types: from } },
  disallow: { to: { element: { types: to } } },
  message,
});
/**
 * Front doors (docs/decisions/038-module-front-doors.md): from outside a module, only its index.ts may be imported.
 * Policies are last-match-wins, so these two come first and the floors below still refuse a door on a higher floor.
 */
const frontDoors = [
  {
    to: { element: { types: ['module'] } },
    disallow: { to: { element: { types: ['module'] } } },
    message:
      'Import another module through its front door (its index.ts): `../ledger`, not `../ledger/service`; ' +
      'export from that index what other modules may use (docs/decisions/038-module-front-doors.md).',
  },
  {
    to: { element: { types: ['module'] } },
    allow: { to: { element: { types: ['module'], fileInternalPath: 'index.ts' } } },
  },
];
const layers = [
  ...frontDoors,
  disallow(server, web, 'The server does not import the web; what both need lives in src/shared.'),
  disallow(web, server, 'The web does not import the server; what both need lives in src/shared.'),
  disallow(['shared'], [...server, ...web], 'src/shared imports neither the server nor the web.'),
  disallow(
    ['floor'],
    ['module', 'server'],
    "The server's lower floors (lib, db, http, contract, realtime) import no module and not the composition: " +
      'app.ts hands them what they need.',
  ),
  ...moduleOrder,
  disallow(
    ['lib'],
    ['components', 'feature', 'app'],
    'lib is the bottom of the web: it imports no component, feature or app.',
  ),
  disallow(['components'], ['feature', 'app'], 'Components know no feature: take what they need as props or from lib.'),
  disallow(['feature'], ['feature'], 'Features never import each other: move what both need to components/ or lib/.'),
  disallow(['feature'], ['app'], 'Nothing imports app.'),
];

/**
 * API tests read answers through the typed client (tests/support/typed-api.ts), never by casting a response body:
 * a cast says what the test hopes the server sent, the client's types say what the contract lets it send.
 */
export const RESPONSE_CASTS = [
  {
    selector: "TSAsExpression > MemberExpression.expression[property.name='data']",
    message: 'Read the answer through the typed client (tests/support/typed-api.ts), not `….data as …`.',
  },
  {
    selector: "TSAsExpression > MemberExpression.expression[property.name='body']",
    message: 'Read the answer through the typed client (tests/support/typed-api.ts), not `….body as …`.',
  },
  {
    selector: "TSAsExpression > AwaitExpression > CallExpression[callee.property.name='json']",
    message: 'Read the answer through the typed client (tests/support/typed-api.ts), not `(await res.json()) as …`.',
  },
];

/**
 * The API tests written before the typed client, which still cast response bodies. The list only shrinks: a file
 * converted leaves it (tests/unit/response-casts.test.ts fails while a listed file has no cast left), and a new
 * file never joins it.
 */
export const LEGACY_UNTYPED_API_TESTS = [
  'tests/api/access.test.ts',
  'tests/api/accounts.test.ts',
  'tests/api/amount-limits.test.ts',
  'tests/api/audit-log.test.ts',
  'tests/api/card-rule.test.ts',
  'tests/api/catalogue.test.ts',
  'tests/api/conversations.test.ts',
  'tests/api/crash-safety.test.ts',
  'tests/api/currency-payments.test.ts',
  'tests/api/deadlines.test.ts',
  'tests/api/dependency-outage.test.ts',
  'tests/api/forged-quotes.test.ts',
  'tests/api/form-engine.test.ts',
  'tests/api/fulfilment.test.ts',
  'tests/api/google-ads.test.ts',
  'tests/api/health.test.ts',
  'tests/api/hostile-input.test.ts',
  'tests/api/identity.test.ts',
  'tests/api/ledger.test.ts',
  'tests/api/log-secrets.test.ts',
  'tests/api/login-limits.test.ts',
  'tests/api/metrics.test.ts',
  'tests/api/notification-delivery.test.ts',
  'tests/api/notifications.test.ts',
  'tests/api/offline-collections.test.ts',
  'tests/api/payment-links.test.ts',
  'tests/api/payments.test.ts',
  'tests/api/plans.test.ts',
  'tests/api/rate-limits-shared.test.ts',
  'tests/api/realtime.test.ts',
  'tests/api/receipt-verification.test.ts',
  'tests/api/reconciliation-ledger.test.ts',
  'tests/api/reconciliation-nightly.test.ts',
  'tests/api/reconciliation-statements.test.ts',
  'tests/api/reconciliation.test.ts',
  'tests/api/refund-user-error.test.ts',
  'tests/api/remembered-reads.test.ts',
  'tests/api/request-timeline.test.ts',
  'tests/api/requests.test.ts',
  'tests/api/sandbox-bank.test.ts',
  'tests/api/secrets-at-rest.test.ts',
  'tests/api/security-headers.test.ts',
  'tests/api/sessions.test.ts',
  'tests/api/staff-action-walk.test.ts',
  'tests/api/staff-admin.test.ts',
  'tests/api/staff-requests.test.ts',
  'tests/api/static-fallback.test.ts',
  'tests/api/tasks-and-access.test.ts',
  'tests/api/test-instance.test.ts',
  'tests/api/unstorable-text.test.ts',
  'tests/api/uploads.test.ts',
  'tests/api/waiting-work.test.ts',
  'tests/api/zarinpal-adapter.test.ts',
];

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'src/generated/**', 'tests/artifacts/**', 'node_modules/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-empty': ['error', { allowEmptyCatch: false }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'boundaries/root-path': import.meta.dirname,
      'boundaries/elements': elements,
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.json'] } },
    },
    rules: { 'boundaries/dependencies': ['error', { default: 'allow', policies: layers }] },
  },
  {
    files: ['tests/api/**/*.ts'],
    ignores: LEGACY_UNTYPED_API_TESTS,
    rules: { 'no-restricted-syntax': ['error', ...RESPONSE_CASTS] },
  },
);
