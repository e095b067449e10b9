/**
 * The nightly backup (decision 025): with BACKUP_DIR set, the server writes a backup there at BACKUP_HOUR o'clock
 * Tehran time (default 3) and then keeps the newest BACKUP_KEEP (default 7) of the backups it named, removing
 * older ones. The key is never inside. The timer is unref'd; stop() waits for a backup in progress before the
 * database closes. With several processes on PostgreSQL, set BACKUP_DIR on one of them.
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../config';
import type { DatabaseHandle } from '../db/database';
import { takeBackup } from './backup';
import { nextTehranTime } from '../../shared/calendar/tehran-day';

const BACKUP_NAME = /^arzpay-\d{4}-\d\d-\d\dT\d{6}Z\.backup$/;

/** The next moment after `now` that is `hour`:00 in Tehran. */
export function nextRunAt(now: Date, hour: number): Date {
  return nextTehranTime(now, hour);
}

/** When the newest backup this server named in `dir` was taken (from its name), or null when there is none. */
export function lastBackupAt(dir: string): Date | null {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => BACKUP_NAME.test(name));
  } catch {
    return null;
  }
  const newest = names.sort().at(-1);
  if (!newest) return null;
  const [, date, hh, mm, ss] = /^arzpay-(\d{4}-\d\d-\d\d)T(\d\d)(\d\d)(\d\d)Z/.exec(newest)!;
  return new Date(`${date}T${hh}:${mm}:${ss}Z`);
}

/** Removes all but the newest `keep` backups this server named in `dir`; returns the names removed. */
export function pruneBackups(dir: string, keep: number): string[] {
  const names = readdirSync(dir)
    .filter((name) => BACKUP_NAME.test(name))
    .sort();
  const removed = names.slice(0, Math.max(0, names.length - keep));
  for (const name of removed) rmSync(path.join(dir, name), { force: true });
  return removed;
}

export function scheduleNightlyBackups(
  config: AppConfig,
  database: DatabaseHandle,
  log: FastifyBaseLogger,
): { stop(): Promise<void> } {
  const nightly = config.nightlyBackup;
  if (!nightly) return { stop: async () => {} };
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;
  const run = async () => {
    try {
      mkdirSync(nightly.dir, { recursive: true, mode: 0o700 });
      const { file, manifest } = await takeBackup(config, nightly.dir, false, database);
      const removed = pruneBackups(nightly.dir, nightly.keep);
      log.info({ file, totals: manifest.database.totals, files: manifest.files, removed }, 'nightly backup written');
    } catch (error) {
      log.error({ err: error }, 'nightly backup failed');
    }
  };
  const schedule = () => {
    if (stopped) return;
    const at = nextRunAt(new Date(), nightly.hour);
    timer = setTimeout(() => {
      running = run().finally(() => {
        running = null;
        schedule();
      });
    }, at.getTime() - Date.now());
    timer.unref();
  };
  schedule();
  log.info({ dir: nightly.dir, hour: nightly.hour, keep: nightly.keep }, 'nightly backup scheduled (Tehran time)');
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
  };
}
