/**
 * `npm run reconcile -- --date 1405-09-06`: reconciles one Tehran day (its Jalali date; a Gregorian YYYY-MM-DD is
 * taken too) against the configured database, prints the summary and exits 1 when an unmatched row is still
 * unresolved, 0 otherwise (2 on a usage or database error). PostgreSQL is opened directly. The embedded database
 * belongs to the process holding DATA_DIR's lock: when a server runs, the command asks it over its control socket
 * (backup/socket.ts), as `npm run backup` does; when none runs, it opens the database itself under the lock.
 */
import { jalaliToGregorian } from '../shared/calendar';
import { askServer } from './backup/socket';
import { configOrFail } from './backup/common';
import { openDatabase } from './db/database';
import { DataDirLockedError, lockDataDir } from './lib/data-dir-lock';
import { type DaySummary, reconcileDay, type TrialBalance } from './modules/reconciliation';

type Answer = DaySummary & { trialBalance: TrialBalance };

function usage(message: string): never {
  console.error(`arzpay: ${message}`);
  process.exit(2);
}

function dayOf(args: string[]): string {
  const at = args.indexOf('--date');
  const text = at >= 0 ? args[at + 1] : args.find((a) => a.startsWith('--date='))?.slice(7);
  if (!text) usage('usage: npm run reconcile -- --date 1405-09-06');
  if (/^\d{4}-\d{2}-\d{2}$/.test(text) && Number(text.slice(0, 4)) > 1700) return text;
  try {
    return jalaliToGregorian(text.replace(/-/g, '/'));
  } catch {
    return usage(`not a date: ${text} (a Jalali date such as 1405-09-06)`);
  }
}

async function reconcileHere(databaseUrl: string | undefined, dataDir: string, day: string): Promise<Answer> {
  const database = await openDatabase({ databaseUrl, dataDir });
  try {
    return await reconcileDay(database.db, day);
  } finally {
    await database.close();
  }
}

async function reconcile(day: string): Promise<Answer> {
  const config = configOrFail();
  if (config.databaseUrl !== undefined) return reconcileHere(config.databaseUrl, config.dataDir, day);
  let release: () => Promise<void>;
  try {
    release = await lockDataDir(config.dataDir, () => usage('another process took the data directory over'));
  } catch (error) {
    if (error instanceof DataDirLockedError)
      return (await askServer(config.dataDir, { op: 'reconcile', day })) as Answer;
    throw error;
  }
  try {
    return await reconcileHere(undefined, config.dataDir, day);
  } finally {
    await release();
  }
}

/** The day's trial balance as a table: each account kind's opening, debits, credits and closing, then the bank. */
function printTrialBalance(t: TrialBalance) {
  const width = Math.max(...t.accounts.map((a) => a.kind.length), 'total'.length);
  const cell = (n: number | string) => String(n).padStart(20);
  console.log('  trial balance (rial; a company account runs negative where money came in):');
  console.log(`    ${'account'.padEnd(width)}${cell('opening')}${cell('debits')}${cell('credits')}${cell('closing')}`);
  for (const a of [...t.accounts, { kind: 'total', ...t.totals }]) {
    console.log(`    ${a.kind.padEnd(width)}${cell(a.opening)}${cell(a.debits)}${cell(a.credits)}${cell(a.closing)}`);
  }
  const b = t.bank;
  console.log(
    `  bank in the ledger: ${b.ledgerClosing} rial; bank statements: ${b.statementClosing ?? 'none uploaded'}`,
  );
  if (b.statementClosing !== null) {
    console.log(`  difference: ${b.difference} rial`);
    for (const part of b.explained) console.log(`    ${part.reason}: ${part.amount}`);
  }
}

const day = dayOf(process.argv.slice(2));
try {
  const s = await reconcile(day);
  console.log(`reconciliation of the Tehran day ${day}`);
  console.log(`  gateway statement: ${s.gatewayCount} payments, ${s.gatewayAmount} rial`);
  console.log(`  online collections: ${s.collectionCount}, ${s.collectionAmount} rial`);
  console.log(`  bank statements: ${s.bankCount} lines, ${s.bankInAmount} rial in, ${s.bankOutAmount} rial out`);
  console.log(`  matched: ${s.matchedCount}; unmatched: ${s.unmatchedCount} (${s.unresolvedCount} not resolved)`);
  for (const [kind, count] of Object.entries(s.unmatchedByKind)) console.log(`    ${kind}: ${count}`);
  printTrialBalance(s.trialBalance);
  process.exit(s.unresolvedCount > 0 ? 1 : 0);
} catch (error) {
  usage(`reconciliation failed: ${error instanceof Error ? error.message : String(error)}`);
}
