/**
 * Searches the server logs an e2e run kept (TEST_LOG_DIR, one file per server a test started) for secrets
 * (tests/support/log-scan.ts): the fixed passwords the tests log in with, and the shapes of tokens, signatures,
 * sealed credentials, images and secret-named fields. `node --import tsx tests/scan-logs.ts <dir>`; exit 1 with
 * each finding (file, line, what; the line cut short) when there is one.
 */
import { existsSync } from 'node:fs';
import { logLinesIn, secretsInLog } from './support/log-scan';
import { ADMIN_PASSWORD } from './support/server';

const dir = process.argv[2];
if (!dir || !existsSync(dir)) {
  console.error(`no log folder: ${dir ?? '(none given)'}`);
  process.exit(1);
}
const files = logLinesIn(dir);
let lines = 0;
const findings = files.flatMap(({ file, lines: text }) => {
  lines += text.length;
  return secretsInLog(text, [ADMIN_PASSWORD, 'staff-password-1']).map((f) => ({ file, ...f }));
});
for (const f of findings.slice(0, 20)) console.error(`${f.file}:${f.line}: ${f.what}: ${f.text.slice(0, 200)}`);
console.log(`${files.length} server logs, ${lines} lines, ${findings.length} findings`);
process.exit(findings.length > 0 ? 1 : 0);
