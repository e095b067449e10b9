/**
 * The task queue's service: tasks is the only writer of `tasks`. Another module asks for a task here (identity
 * opens a profile review); deciding one stays in handlers.ts. Functions take the database or a transaction first.
 */
import type { DB } from '../../db/database';

const PENDING = ['open', 'claimed'] as const;

/** The undecided task of `type` about `subjectUserId`, if there is one. */
export async function findPendingTask(
  db: DB,
  type: string,
  subjectUserId: number,
): Promise<{ id: number } | undefined> {
  return db
    .selectFrom('tasks')
    .select('id')
    .where('type', '=', type)
    .where('subjectUserId', '=', subjectUserId)
    .where('state', 'in', PENDING)
    .executeTakeFirst();
}

/** Opens a task of `type` about `subjectUserId` unless one is undecided already; the new task's id, or null. */
export async function openTaskOnce(
  db: DB,
  type: string,
  subjectUserId: number,
  payload: Record<string, unknown>,
): Promise<number | null> {
  if (await findPendingTask(db, type, subjectUserId)) return null;
  const created = await db
    .insertInto('tasks')
    .values({ type, subjectUserId, payload: JSON.stringify(payload) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return created.id;
}

/**
 * Opens the fulfilment task of `type` for a paid request, once per request (a unique index backs it, so two
 * settlements of one payment cannot open two). The new task's id, or null when it exists already.
 */
export async function openPurchaseTask(
  db: DB,
  type: string,
  subjectUserId: number,
  purchaseId: number,
  payload: Record<string, unknown>,
): Promise<number | null> {
  const created = await db
    .insertInto('tasks')
    .values({ type, subjectUserId, purchaseId, payload: JSON.stringify({ ...payload, purchaseId }) })
    .onConflict((oc) => oc.columns(['type', 'purchaseId']).where('purchaseId', 'is not', null).doNothing())
    .returning('id')
    .executeTakeFirst();
  return created?.id ?? null;
}
