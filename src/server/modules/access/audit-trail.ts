/**
 * Reading the audit trail (docs/operations.md, the audit trail): who did what to which record and when, with the values before and after that
 * `lib/audit.ts` recorded. Staff holding `viewAuditLog` search it by person (name, mobile number or id), action,
 * target (entity and its id) and days; nothing here writes it — the trail is append-only.
 */
import type { components } from '../../../generated/api';
import type { DB } from '../../db/database';
import { type ListEnvelope, pageOf } from '../../lib/paging';
import { fullNameOf } from '../../lib/person-names';
import { containsText, textOrId, whereWithinDays } from '../../lib/sql';

type AuditLogSearch = components['schemas']['AuditLogSearch'];
type AuditLogEntry = components['schemas']['AuditLogEntry'];

/**
 * A recorded value as the page shows it: JSON on one line with a space after each separator (so a narrow table can
 * wrap it), or null when nothing was recorded.
 */
const asText = (value: unknown): string | null =>
  value === null || value === undefined
    ? null
    : typeof value === 'string'
      ? value
      : JSON.stringify(value, null, 1).replace(/\n\s*/g, ' ');

export async function searchAuditLog(
  db: DB,
  filter: AuditLogSearch,
): Promise<ListEnvelope<AuditLogEntry> & { actions: string[]; entities: string[] }> {
  let q = db.selectFrom('auditLog as a').leftJoin('users as u', 'u.id', 'a.actorUserId');
  if (filter.action) q = q.where('a.action', '=', filter.action);
  if (filter.entity) q = q.where('a.entity', '=', filter.entity);
  if (filter.entityId) q = q.where('a.entityId', '=', filter.entityId.trim());
  q = whereWithinDays(q, 'a.createdAt', filter.from, filter.to);
  const person = filter.actor?.trim();
  if (person) {
    q = q.where((eb) =>
      textOrId(eb, person, { text: ['u.firstName', 'u.lastName', 'u.mobileNo', 'u.nationalCode'], ids: ['u.id'] }),
    );
  }
  const term = filter.search?.trim();
  if (term) {
    q = q.where((eb) =>
      // The recorded values too (a changed mobile number, a rate): their JSON text.
      containsText(
        eb,
        ['a.action', 'a.entity', 'a.entityId', eb.cast('a.before', 'text'), eb.cast('a.after', 'text')],
        term,
      ),
    );
  }
  const [page, actions, entities] = await Promise.all([
    pageOf(q, filter, (x) =>
      x
        .select([
          'a.id',
          'a.createdAt',
          'a.actorUserId',
          'u.firstName',
          'u.lastName',
          'u.mobileNo',
          'a.action',
          'a.entity',
          'a.entityId',
          'a.before',
          'a.after',
        ])
        .orderBy('a.id', 'desc'),
    ),
    db.selectFrom('auditLog').select('action').distinct().orderBy('action').execute(),
    db.selectFrom('auditLog').select('entity').distinct().orderBy('entity').execute(),
  ]);
  return {
    total: page.total,
    items: page.items.map((row) => ({
      id: Number(row.id),
      createdAt: row.createdAt.toISOString(),
      actorUserId: row.actorUserId === null ? null : Number(row.actorUserId),
      actorName: row.actorUserId === null ? null : fullNameOf(row),
      actorMobileNo: row.mobileNo ?? null,
      action: row.action,
      entity: row.entity,
      entityId: row.entityId,
      before: asText(row.before),
      after: asText(row.after),
    })),
    actions: actions.map((r) => r.action),
    entities: entities.map((r) => r.entity),
  };
}
