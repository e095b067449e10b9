/**
 * Sends the SMS outbox (`notification_sms`). A pass claims due rows in one short statement — `FOR UPDATE SKIP
 * LOCKED`, so processes sharing a PostgreSQL database never claim the same row — setting a lease and counting the
 * try; it then calls the driver with no transaction open (the embedded database has one connection), and records
 * the driver's answer, or, on an error, the next try after an exponential backoff, or, after the last try, the
 * failure staff see. A process that dies mid-send leaves a lease that runs out: another pass (a restart, another
 * process) sends it. The lease must outlast the driver's own time-out, so a slow send is never taken over.
 *
 * Woken after a commit that queued SMS (app.ts's listener) and by a timer. Its clock is injectable, so tests can
 * hold a night SMS until 08:00 and step through the backoff.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB as Database } from '../../../generated/db';

/** The one thing the worker needs of the SMS drivers (identity/sms.ts, handed in by app.ts). */
export interface TextSender {
  sendText(message: { mobileNo: string; text: string }): Promise<string>;
}

export interface SmsWorkerOptions {
  intervalMs: number;
  leaseSeconds: number;
  maxAttempts: number;
  backoffSeconds: number;
  /** Rows claimed per statement. */
  batch?: number;
}

interface Claimed {
  id: number;
  mobileNo: string;
  text: string;
  attempts: number;
}

/** The wait before try `attempts + 1` after try `attempts` failed: the base, doubled each time. */
export function backoffSeconds(base: number, attempts: number): number {
  return base * 2 ** Math.max(0, attempts - 1);
}

export class SmsWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  /** The worker's clock (tests set it). */
  now: () => Date = () => new Date();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly sender: TextSender,
    private readonly options: SmsWorkerOptions,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Starts the timer and a first pass (SMS left by an earlier process). */
  start(): void {
    this.timer = setInterval(() => this.wake(), this.options.intervalMs);
    this.timer.unref();
    this.wake();
  }

  /** Runs a pass now, or once more after the one under way. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.loop().finally(() => {
      this.running = null;
    });
  }

  /** Runs passes until nothing is due; resolves when the worker is idle (tests await it). */
  async drain(): Promise<void> {
    this.wake();
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      try {
        while (!this.stopped && (await this.pass()) > 0);
      } catch (error) {
        // The database went away (shutting down, a lost connection): the timer tries again.
        if (!this.stopped) this.log.error({ err: error }, 'notification sms worker pass failed');
      }
    } while (this.again && !this.stopped);
  }

  /** Claims a batch of due SMS and sends each; answers how many it claimed. */
  private async pass(): Promise<number> {
    const claimed = await this.claim();
    for (const sms of claimed) await this.send(sms);
    return claimed.length;
  }

  private async claim(): Promise<Claimed[]> {
    const now = this.now();
    const leasedUntil = new Date(now.getTime() + this.options.leaseSeconds * 1000);
    const rows = await this.db
      .updateTable('notificationSms')
      .set((eb) => ({ leasedUntil, attempts: eb('attempts', '+', 1) }))
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('notificationSms')
          .select('id')
          .where('state', '=', 'pending')
          .where('dueAt', '<=', now)
          .where((w) => w.or([w('leasedUntil', 'is', null), w('leasedUntil', '<', now)]))
          .orderBy('dueAt')
          .orderBy('id')
          .limit(this.options.batch ?? 20)
          .forUpdate()
          .skipLocked(),
      )
      .returning(['id', 'mobileNo', 'text', 'attempts'])
      .execute();
    return rows.map((r) => ({ ...r, id: Number(r.id) }));
  }

  private async send(sms: Claimed): Promise<void> {
    let answer: string;
    try {
      answer = await this.sender.sendText({ mobileNo: sms.mobileNo, text: sms.text });
    } catch (error) {
      await this.failed(sms, error instanceof Error ? error.message : String(error));
      return;
    }
    // Only this claim may record it (the same try: a row taken over after its lease ran out is not ours).
    await this.db
      .updateTable('notificationSms')
      .set({ state: 'sent', sentAt: this.now(), driverAnswer: answer, leasedUntil: null })
      .where('id', '=', sms.id)
      .where('attempts', '=', sms.attempts)
      .execute();
  }

  private async failed(sms: Claimed, error: string): Promise<void> {
    const now = this.now();
    const last = sms.attempts >= this.options.maxAttempts;
    const dueAt = last
      ? now
      : new Date(now.getTime() + backoffSeconds(this.options.backoffSeconds, sms.attempts) * 1000);
    this.log.warn({ smsId: sms.id, attempts: sms.attempts, error, gaveUp: last }, 'notification sms not sent');
    await this.db
      .updateTable('notificationSms')
      .set({ state: last ? 'failed' : 'pending', dueAt, leasedUntil: null, lastError: error.slice(0, 1000) })
      .where('id', '=', sms.id)
      .where('attempts', '=', sms.attempts)
      .execute();
  }
}
