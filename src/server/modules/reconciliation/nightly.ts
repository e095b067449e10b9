/**
 * The nightly reconciliation: at RECONCILE_HOUR Tehran time (default 02:30) the server reconciles the Tehran day
 * before. Every process runs the timer; each first claims the day in `reconciliation_nightly_claims` and only the
 * one whose claim is inserted runs it, so several processes on one PostgreSQL reconcile a day once. New unmatched
 * rows notify the staff who hold `reconcile` (runs.ts). A failed run is logged; staff can run the day by hand.
 */
import type { DB } from '../../db/database';
import { DAY_MS, nextTehranTime, tehranDayOf } from '../../../shared/calendar/tehran-day';
import { type DaySummary, runReconciliation } from './runs';

/** A Tehran time of day, hours and minutes. */
export interface TimeOfDay {
  hour: number;
  minute: number;
}

/** The Tehran day (YYYY-MM-DD) before the one `now` falls in: what the nightly run reconciles. */
export function dayBefore(now: Date): string {
  return tehranDayOf(new Date(now.getTime() - DAY_MS));
}

/** The next moment after `now` that is `at` in Tehran. */
export function nextNightlyAt(now: Date, at: TimeOfDay): Date {
  return nextTehranTime(now, at.hour, at.minute);
}

/**
 * Claims and reconciles the Tehran day before `now`. Answers the day's summary, or null when another process (or
 * an earlier run of this one) already claimed that day.
 */
export async function runNightlyReconciliation(db: DB, now: Date = new Date()): Promise<DaySummary | null> {
  const day = dayBefore(now);
  const claimed = await db
    .insertInto('reconciliationNightlyClaims')
    .values({ day, claimedAt: now })
    .onConflict((oc) => oc.column('day').doNothing())
    .returning('day')
    .executeTakeFirst();
  if (!claimed) return null;
  const run = await db.selectFrom('reconciliationRuns').select('closedAt').where('day', '=', day).executeTakeFirst();
  if (run?.closedAt) return null; // closed by hand already: it no longer changes
  return runReconciliation(db, day, null, now);
}

export function scheduleNightlyReconciliation(
  run: () => Promise<DaySummary | null>,
  at: TimeOfDay,
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void },
): { stop(): Promise<void> } {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;
  const schedule = () => {
    if (stopped) return;
    const next = nextNightlyAt(new Date(), at);
    timer = setTimeout(() => {
      running = run()
        .then((summary) => {
          if (summary) log.info({ summary }, 'nightly reconciliation done');
        })
        .catch((error: unknown) => log.error({ err: error }, 'nightly reconciliation failed'))
        .finally(() => {
          running = null;
          schedule();
        });
    }, next.getTime() - Date.now());
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
  };
}
