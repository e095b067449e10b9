/** `npm run backup -- FILE|DIR [--with-key]`: see backup.ts. Prints what it wrote; a failure is one line, exit 1. */
import { configOrFail, fail } from './common';
import { report, takeBackup } from './backup';
import { BackupError } from './postgres';

const args = process.argv.slice(2);
const withKey = args.includes('--with-key');
const targets = args.filter((a) => a !== '--with-key');
if (targets.length !== 1 || targets[0]!.startsWith('-')) fail('usage: npm run backup -- FILE|DIRECTORY [--with-key]');
const config = configOrFail();
try {
  const { file, manifest } = await takeBackup(config, targets[0]!, withKey);
  for (const line of report(config, file, manifest)) console.log(line);
  process.exit(0);
} catch (error) {
  if (error instanceof BackupError) fail(error.message);
  fail(`backup failed: ${error instanceof Error ? error.message : String(error)}`);
}
