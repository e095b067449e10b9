/**
 * Storing the lines of an uploaded statement: all of a file or nothing, once per source and reference (uploading
 * the same file again adds nothing; a line stored before with another amount, direction or time refuses the file),
 * each on the Tehran day it settled (a payout report's line: the day it was paid, with the days it covers), with who
 * uploaded it. Audited.
 */
import type { DB } from '../../db/database';
import { audit } from '../../lib/audit';
import { tehranDayOf } from '../../../shared/calendar/tehran-day';
import type { StatementLine } from './statement-file';
import type { StatementMapping } from './statement-mappings';

export type StoreOutcome =
  | { ok: true; added: number; alreadyStored: number; days: string[] }
  | { ok: false; changedLine: number; reference: string };

export async function storeStatement(
  db: DB,
  mapping: StatementMapping,
  fileName: string,
  lines: StatementLine[],
  uploadedBy: number,
): Promise<StoreOutcome> {
  return db
    .transaction()
    .execute(async (trx) => {
      let added = 0;
      let alreadyStored = 0;
      for (const line of lines) {
        const values = {
          day: tehranDayOf(line.settledAt),
          source: mapping.source,
          statement: mapping.name,
          gateway: mapping.source === 'bank' ? null : mapping.gateway!,
          reference: line.reference,
          referenceCanonical: line.referenceCanonical,
          direction: line.direction,
          amount: line.amount,
          cardNo: line.cardNo,
          settledAt: line.settledAt,
          description: line.description,
          coversFrom: line.covers?.from ?? null,
          coversTo: line.covers?.to ?? null,
          fileName,
          lineNo: line.lineNo,
          uploadedBy,
        };
        const inserted = await trx
          .insertInto('reconciliationStatementLines')
          .values(values)
          .onConflict((oc) => oc.columns(['source', 'referenceCanonical']).doNothing())
          .returning('id')
          .executeTakeFirst();
        if (inserted) {
          added += 1;
          continue;
        }
        const stored = await trx
          .selectFrom('reconciliationStatementLines')
          .select(['amount', 'direction', 'settledAt', 'gateway', 'coversFrom', 'coversTo'])
          .where('source', '=', mapping.source)
          .where('referenceCanonical', '=', line.referenceCanonical)
          .executeTakeFirstOrThrow();
        const same =
          Number(stored.amount) === line.amount &&
          stored.direction === line.direction &&
          stored.gateway === values.gateway &&
          stored.settledAt.getTime() === line.settledAt.getTime() &&
          stored.coversFrom === values.coversFrom &&
          stored.coversTo === values.coversTo;
        // Throwing rolls back the lines this file added before.
        if (!same) throw new ChangedLine(line.lineNo, line.reference);
        alreadyStored += 1;
      }
      await audit(trx, {
        actorUserId: uploadedBy,
        action: 'uploadReconciliationStatement',
        entity: 'reconciliationStatement',
        entityId: null,
        before: null,
        after: { statement: mapping.name, fileName, lines: lines.length, added, alreadyStored },
      });
      const days = [...new Set(lines.map((l) => tehranDayOf(l.settledAt)))].sort();
      return { ok: true as const, added, alreadyStored, days };
    })
    .catch((error: unknown) => {
      if (error instanceof ChangedLine)
        return { ok: false as const, changedLine: error.lineNo, reference: error.reference };
      throw error;
    });
}

class ChangedLine extends Error {
  constructor(
    readonly lineNo: number,
    readonly reference: string,
  ) {
    super('statement line changed');
  }
}

export interface StoredLine {
  id: number;
  statement: string;
  gateway: string | null;
  reference: string;
  referenceCanonical: string;
  direction: 'in' | 'out' | null;
  amount: number;
  cardNo: string | null;
  settledAt: Date;
  description: string | null;
  fileName: string;
  lineNo: number;
  /** A payout report's line: the first and last Tehran day whose takings it pays. */
  coversFrom: string | null;
  coversTo: string | null;
}

const lineColumns = [
  'id',
  'statement',
  'gateway',
  'reference',
  'referenceCanonical',
  'direction',
  'amount',
  'cardNo',
  'settledAt',
  'description',
  'fileName',
  'lineNo',
  'coversFrom',
  'coversTo',
] as const;

const toStored = (
  rows: Array<Omit<StoredLine, 'direction' | 'amount'> & { direction: string | null; amount: number | string }>,
) => rows.map((r) => ({ ...r, amount: Number(r.amount), direction: r.direction as StoredLine['direction'] }));

/** Uploaded lines of `source` on the Tehran day `day` (a payout's: the day it was paid), or (with `references`) those references whatever their day. */
export async function storedLines(
  db: DB,
  source: 'gateway' | 'bank' | 'payout',
  where: { day: string } | { references: string[] },
): Promise<StoredLine[]> {
  if ('references' in where && where.references.length === 0) return [];
  let q = db.selectFrom('reconciliationStatementLines').select(lineColumns).where('source', '=', source);
  q = 'day' in where ? q.where('day', '=', where.day) : q.where('referenceCanonical', 'in', where.references);
  return toStored(await q.orderBy('settledAt').orderBy('id').execute());
}
