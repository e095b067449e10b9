/** What the server keeps in memory between changes, and how the processes tell each other to forget it. */
import type { DatabaseHandle } from './db/database';
import { SESSION_CACHE_MS, sessionCache } from './modules/identity';
import { balanceCache } from './modules/ledger';
import type { Peers } from './realtime/server';

/** A customer's balances on a quote are only shown, so they may be this much older than a posting nobody announced. */
const BALANCE_CACHE_MS = 60_000;

/**
 * Sessions and customers' balances are read from memory between changes (decision 022: a price inquiry costs no query).
 * Only where every change reaches this process: the embedded database has one process, and several processes on
 * PostgreSQL tell each other through Redis. Without Redis another process's logout would go unheard, so nothing
 * is kept.
 */
export function rememberSessionsAndBalances(db: DatabaseHandle['db'], peers: Peers, everyChangeHeard: boolean): void {
  const sessions = sessionCache(db);
  const balances = balanceCache(db);
  if (everyChangeHeard) {
    sessions.setLifetime(SESSION_CACHE_MS);
    balances.setLifetime(BALANCE_CACHE_MS);
  }
  sessions.onForget(() => peers.tell('sessions'));
  balances.onForget((users) => peers.tell(`balances:${users === 'all' ? 'all' : users.join(',')}`));
  // Redis was away: a peer's word may have been lost, so nothing remembered from before is trusted.
  peers.onReconnect(() => {
    sessions.forgetAll({ quiet: true });
    balances.forgetAll({ quiet: true });
  });
  peers.onMessage((message) => {
    if (message === 'sessions') sessions.forgetAll({ quiet: true });
    else if (message === 'balances:all') balances.forgetAll({ quiet: true });
    else if (message.startsWith('balances:')) {
      balances.forget(message.slice('balances:'.length).split(',').map(Number), { quiet: true });
    }
  });
}
