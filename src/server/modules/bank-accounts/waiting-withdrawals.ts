/** The withdrawals waiting for staff to pay or refuse them: a queue of waiting work on the staff home. */
import type { Kysely } from 'kysely';
import type { DB as Database } from '../../../generated/db';

export async function countRequestedWithdrawals(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('withdrawals')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('state', '=', 'requested')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
