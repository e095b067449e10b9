/**
 * The `log` SMS driver's line is written before the driver answers, so an SMS the worker records sent
 * always has its line, even when the process is killed right after (one of 1,146 had none under SIGKILLs: pino
 * wrote in the background). The child process (tests/support/sms-log-child.ts) kills itself when the driver answers.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

function sendAndDie(smsDriver: string): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/sms-log-child.ts', smsDriver], {
    cwd: root,
  });
  let stdout = '';
  child.stdout.on('data', (d) => (stdout += d));
  return new Promise((resolve) => child.on('close', () => resolve(stdout)));
}

it('writes the SMS line before the log driver answers', async () => {
  const out = await sendAndDie('log');
  const line = out.split('\n').find((l) => l.includes('"msg":"sms"'));
  expect(line, 'no SMS line').toBeDefined();
  expect(JSON.parse(line!)).toMatchObject({ mobileNo: '09120000001', text: 'پیامک آزمایشی' });
}, 60_000);
