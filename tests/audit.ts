/**
 * `npm audit --omit=dev`: no high or critical advisory in a production dependency unless a decision record lists
 * the package under "Accepted advisories" with its reason (docs/decisions/017). The advisories come from the
 * registry: when it cannot be reached or has no audit endpoint, the check says so and passes (decision 017).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const decisions = path.join(root, 'docs/decisions');

/** Packages listed as `- \`name\` …` after an "Accepted advisories" line in any decision record. */
export function acceptedPackages(): Set<string> {
  const names = new Set<string>();
  for (const file of readdirSync(decisions).filter((f) => f.endsWith('.md'))) {
    const text = readFileSync(path.join(decisions, file), 'utf8');
    const at = text.indexOf('Accepted advisories');
    if (at < 0) continue;
    for (const match of text.slice(at).matchAll(/^- `([^`\s]+)`/gm)) names.add(match[1]!);
  }
  return names;
}

const result = spawnSync('npm', ['audit', '--omit=dev', '--json'], { cwd: root, encoding: 'utf8', timeout: 120_000 });
let report: { vulnerabilities?: Record<string, { severity: string; via: unknown[] }>; error?: unknown } = {};
try {
  report = JSON.parse(result.stdout || '{}') as typeof report;
} catch {
  // no JSON: treated as unreachable below
}
if (!report.vulnerabilities) {
  const why = result.error?.message ?? (result.stderr.match(/npm (?:error|warn) audit[^\n]*/)?.[0] || 'no report');
  console.log(`npm audit skipped: the registry gave no advisories (${why.trim()})`);
  process.exit(0);
}
const accepted = acceptedPackages();
const refused = Object.entries(report.vulnerabilities).filter(
  ([name, v]) => (v.severity === 'high' || v.severity === 'critical') && !accepted.has(name),
);
for (const [name, v] of refused) console.error(`${v.severity}: ${name} (not accepted in docs/decisions/)`);
console.log(
  `npm audit: ${Object.keys(report.vulnerabilities).length} advisories, ${refused.length} high or critical not accepted`,
);
process.exit(refused.length > 0 ? 1 : 0);
