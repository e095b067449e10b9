/**
 * Finds what a server log must never hold (issue 12): the secrets a test used (tokens, codes, passwords), and,
 * without knowing them, the shapes of secrets: a bearer token, a 43-character random token or signature (32
 * random bytes in base64url, as log-in tokens and signed file addresses carry), a sealed credential, a JPEG in
 * base64, or a secret-named field with a value. The `log` SMS driver's own lines (`"msg":"sms"`) are the SMS itself
 * and are skipped (README, SMS_DRIVER); a code must appear nowhere else.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const SHAPES: Array<[string, RegExp]> = [
  ['bearer token', /Bearer\s+[A-Za-z0-9._~+/-]{16,}/i],
  ['random token or signature', /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/],
  ['sealed credential', /enc:v1:/],
  ['JPEG bytes in base64', /\/9j\/4/],
  [
    'secret-named field with a value',
    /"(password|newPassword|oldPassword|targetPagePassword|userToken|token|validationCode|authorization|cookie)":"(?!\[Redacted\])[^"]/i,
  ],
];

export interface Finding {
  line: number;
  what: string;
  text: string;
}

const isSmsDriverLine = (line: string) => /"msg":"sms"/.test(line);

/** Each place in `lines` (JSON log lines as text) where a known secret or a secret's shape appears. */
export function secretsInLog(lines: string[], known: string[]): Finding[] {
  const findings: Finding[] = [];
  const secrets = known.filter((s) => s.length >= 4);
  lines.forEach((text, i) => {
    if (isSmsDriverLine(text)) return;
    for (const secret of secrets) {
      if (text.includes(secret)) findings.push({ line: i + 1, what: `known secret ${secret.slice(0, 3)}…`, text });
    }
    for (const [what, shape] of SHAPES) {
      if (shape.test(text)) findings.push({ line: i + 1, what, text });
    }
  });
  return findings;
}

/** Every line of every `*.log` file under `dir`, with the file it came from. */
export function logLinesIn(dir: string): Array<{ file: string; lines: string[] }> {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.log'))
    .map((f) => ({ file: f, lines: readFileSync(path.join(dir, f), 'utf8').split('\n').filter(Boolean) }));
}
