/** The customer's money, read side: their balances and their own transactions (x-access: user). */
import type { Handlers } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { ok } from '../../http/errors';
import { searchTransactions, userBalance } from './service';

export function ledgerHandlers(db: DB): Pick<Handlers, 'userBalance' | 'searchMyTransactions'> {
  return {
    userBalance: async ({ principal }) => ok(await userBalance(db, principal!.userId)),
    searchMyTransactions: async ({ body, principal }) => ok(await searchTransactions(db, principal!.userId, body)),
  };
}
