/**
 * One socket's defences against subscribe floods. A socket proves an identity once: the first token that
 * authenticates is bound to it and reused without the database, a token that failed is not looked up again,
 * and any other token is refused. Subscribe and unsubscribe events spend a fixed budget per window, and a
 * socket whose subscriptions keep being refused is dropped. Token lookups from all sockets share a small
 * process-wide limit, so a flood of new connections cannot take the database from the API.
 */
import pLimit from 'p-limit';
import type { Principal } from '../contract/handlers';

export const LIVE_LIMITS = {
  /** Subscribe and unsubscribe events per socket per window (the web sends at most three per connection). */
  eventsPerWindow: 20,
  windowMs: 60_000,
  /** Refused subscriptions after which the server drops the socket. */
  maxFailures: 5,
  /** Token lookups from the live channel running at once in this process. */
  concurrentLookups: 2,
};

export type TokenLookup = (authorization: string) => Promise<Principal | null>;

/** Wraps a lookup so that at most LIVE_LIMITS.concurrentLookups run at once; the rest wait their turn. */
export function limitedLookup(lookup: TokenLookup): TokenLookup {
  const limit = pLimit(LIVE_LIMITS.concurrentLookups);
  return (authorization) => limit(() => lookup(authorization));
}

/** The Authorization header of a subscribe payload's `auth.headers`, in any letter case. */
export function authorizationOf(headers: unknown): string | null {
  if (!headers || typeof headers !== 'object') return null;
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === 'authorization' && typeof value === 'string' && value.length <= 300) return value;
  }
  return null;
}

export class ConnectionGuard {
  private windowStart = Date.now();
  private spent = 0;
  private failures = 0;
  private bound: { authorization: string; principal: Principal } | null = null;
  private readonly refused = new Set<string>();

  constructor(private readonly lookup: TokenLookup) {}

  /** Spends one event from the budget; false once the budget of this window is gone. */
  spend(): boolean {
    const now = Date.now();
    if (now - this.windowStart >= LIVE_LIMITS.windowMs) {
      this.windowStart = now;
      this.spent = 0;
    }
    this.spent += 1;
    return this.spent <= LIVE_LIMITS.eventsPerWindow;
  }

  /** Records a refused subscription; true when the socket has now failed too often. */
  fail(): boolean {
    this.failures += 1;
    return this.failures >= LIVE_LIMITS.maxFailures;
  }

  /**
   * The principal behind `authorization`, looking it up at most once per socket. Once a token has proved an
   * identity, another token on the same socket is refused (null) without a lookup: the web opens a new
   * connection when the signed-in person changes. Lookup errors propagate and are not remembered.
   */
  async principal(authorization: string | null): Promise<Principal | null> {
    if (!authorization) return null;
    if (this.bound) return this.bound.authorization === authorization ? this.bound.principal : null;
    if (this.refused.has(authorization)) return null;
    const principal = await this.lookup(authorization);
    if (principal) this.bound = { authorization, principal };
    else this.refused.add(authorization);
    return principal;
  }
}
