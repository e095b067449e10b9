/** `npm run restore -- FILE`: see restore.ts. Prints the totals it restored; a refusal is one line, exit 1. */
import { configOrFail, describeLine, fail } from './common';
import { totalsLine } from './describe';
import { BackupError } from './postgres';
import { restoreBackup } from './restore';

const args = process.argv.slice(2);
if (args.length !== 1 || args[0]!.startsWith('-')) fail('usage: npm run restore -- FILE');
const config = configOrFail();
try {
  const { description, notes } = await restoreBackup(config, args[0]!);
  console.log(`restored: ${describeLine(description)}`);
  console.log('ledger invariants: hold');
  console.log(`totals: ${totalsLine(description.totals)}`);
  for (const line of notes) console.log(line);
  process.exit(0);
} catch (error) {
  if (error instanceof BackupError) fail(error.message);
  fail(`restore failed: ${error instanceof Error ? error.message : String(error)}`);
}
