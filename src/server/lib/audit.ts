/** Append-only audit trail of staff decisions and changes: who, when, what, before and after. */
import type { Kysely } from 'kysely';
import type { DB as Database } from '../../generated/db';
import type { AuditAction, AuditEntity } from '../../shared/audit/names';

export interface AuditEntry {
  actorUserId: number | null;
  /** Every action and kind of record has its Persian name in shared/audit/names.ts: an unnamed one does not compile. */
  action: AuditAction;
  entity: AuditEntity;
  entityId: string | number | null;
  before?: unknown;
  after?: unknown;
}

export async function audit(db: Kysely<Database>, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('auditLog')
    .values({
      actorUserId: entry.actorUserId,
      action: entry.action,
      entity: entry.entity,
      entityId: entry.entityId === null ? null : String(entry.entityId),
      before: entry.before === undefined ? null : JSON.stringify(entry.before),
      after: entry.after === undefined ? null : JSON.stringify(entry.after),
    })
    .execute();
}
