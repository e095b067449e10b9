/**
 * The byte budgets of the web build, a stage of `npm test` right after the build (tests/run.ts): every route's first
 * load transfers at most FIRST_LOAD_BUDGET_BYTES, and its JavaScript is at most JS_BUDGET_RATIO times a bare React
 * page built now (support/byte-budgets.ts says what is counted; the routes over them when they were set are held at
 * their figure there, OVER_BUDGET). Prints each route's figures, the largest files of a
 * route over budget, and exits 1 when any is over. `node --import tsx tests/budgets.ts [distDir]`.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { buildBareReact, firstLoadJs } from './bench/bundle-size';
import { budgetOf, FIRST_LOAD_BUDGET_BYTES, JS_BUDGET_RATIO, OVER_BUDGET, routeLoads } from './support/byte-budgets';

const distDir = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '../dist/web'));
const bareDir = await buildBareReact();
const bare = firstLoadJs(bareDir, 'index.html', 9).gzipBytes;
rmSync(bareDir, { recursive: true, force: true });
const jsBudget = Math.floor(bare * JS_BUDGET_RATIO);

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
console.log(`bare React page: ${kb(bare)} of JavaScript (gzip); budgets: first load ${kb(FIRST_LOAD_BUDGET_BYTES)},`);
console.log(`JavaScript ${kb(jsBudget)} (${JS_BUDGET_RATIO}× bare React)\n`);
let over = 0;
for (const load of routeLoads(distDir)) {
  const budget = budgetOf(load.route);
  const held = OVER_BUDGET[load.route] ? ' (held at its figure, support/byte-budgets.ts)' : '';
  const problems = [
    load.totalBytes > budget.firstLoad ? `first load over ${kb(budget.firstLoad)}${held}` : '',
    load.jsBytes > bare * budget.jsRatio ? `JavaScript over ${budget.jsRatio}× bare React${held}` : '',
  ].filter(Boolean);
  const ratio = (load.jsBytes / bare).toFixed(2);
  console.log(
    `${problems.length ? '✖' : '✔'} ${load.path.padEnd(36)} ${kb(load.totalBytes).padStart(9)}  JS ${kb(load.jsBytes).padStart(9)} (${ratio}×)  ${problems.join(', ')}`,
  );
  if (problems.length === 0) continue;
  over++;
  for (const [file, bytes] of load.files.slice(0, 8)) console.log(`    ${kb(bytes).padStart(9)}  ${file}`);
}
if (over > 0) {
  console.error(
    `\n${over} route(s) over a byte budget: move what the first screen does not need behind it (a lazy import).`,
  );
  process.exit(1);
}
