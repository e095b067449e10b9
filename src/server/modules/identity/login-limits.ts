/**
 * Wrong-password limits for the password and e-mail log-ins, per account and per address: a few failures
 * are free, then each further one doubles the wait (rate-limit.ts, FailureBackoff). While either waits, even
 * the right password is refused, with a Persian message that says how long. The SMS-code log-in never
 * consults these counters, so a stranger who guesses passwords cannot keep a customer from signing in by code.
 */
import { HttpError, tooManyRequestsFor } from '../../http/errors';
import type { MessageKey } from '../../http/messages';
import type { BackoffPolicy, FailureBackoff } from '../../lib/rate-limit';

export interface LoginLimits {
  perAccount: number;
  perIp: number;
  lockSeconds: number;
  maxLockSeconds: number;
}

/** A day without failures wipes the slate. */
const FORGET_SECONDS = 86_400;

export interface LoginGuard {
  /**
   * Runs `check` (true: the password is right) unless the account or the address must wait; a failure
   * becomes 422 `wrongKey`, or 429 once it starts a wait. `account` names the account (a user id, or the
   * name tried when no account has it).
   */
  attempt(account: string, ip: string, check: () => Promise<boolean>, wrongKey: MessageKey): Promise<void>;
}

export function loginGuard(backoff: FailureBackoff, limits: LoginLimits): LoginGuard {
  const policy = (freeFailures: number): BackoffPolicy => ({
    freeFailures,
    baseSeconds: limits.lockSeconds,
    maxSeconds: limits.maxLockSeconds,
    forgetSeconds: FORGET_SECONDS,
  });
  const accountPolicy = policy(limits.perAccount);
  const ipPolicy = policy(limits.perIp);
  const locked = (seconds: number): HttpError => tooManyRequestsFor('login.locked', seconds);

  return {
    async attempt(account, ip, check, wrongKey) {
      const accountKey = `login:account:${account}`;
      const ipKey = `login:ip:${ip}`;
      const tickets = await Promise.all([backoff.attempt(accountKey, accountPolicy), backoff.attempt(ipKey, ipPolicy)]);
      const wait = Math.max(...tickets.map((t) => t.waitSeconds));
      if (tickets.some((t) => !t.allowed)) throw locked(wait);
      if (await check()) {
        await Promise.all([
          backoff.succeeded(accountKey, accountPolicy, true),
          backoff.succeeded(ipKey, ipPolicy, false),
        ]);
        return;
      }
      throw wait > 0 ? locked(wait) : HttpError.of(422, wrongKey);
    },
  };
}
