/** Staff operations of the daily reconciliation (x-access staff:reconcile). */
import type { FastifyRequest } from 'fastify';
import type { Handlers } from '../../contract/handlers';
import type { DB } from '../../db/database';
import { conflict, HttpError, notFound, ok } from '../../http/errors';
import { msg } from '../../http/messages';
import { fetchDay, rowsOf, searchDays } from './read';
import { resolveRow, runReconciliation } from './runs';
import { readStatement } from './statement-file';
import { STATEMENT_MAPPINGS } from './statement-mappings';
import { storeStatement } from './statements';
import { trialBalance } from './trial-balance';
import { approveReopen, closeDay, requestReopen } from './closing';

/** The largest statement file taken (the multipart plugin's own limit too). */
const MAX_STATEMENT_BYTES = 5 * 1024 * 1024;
/** How many bad lines a refusal names (the rest are in data.lines). */
const LINES_NAMED = 10;

export function reconciliationHandlers(
  db: DB,
): Pick<
  Handlers,
  | 'searchReconciliationDays'
  | 'fetchReconciliationDay'
  | 'runReconciliation'
  | 'resolveReconciliationRow'
  | 'uploadReconciliationStatement'
  | 'fetchTrialBalance'
  | 'closeReconciliationDay'
  | 'requestReopenReconciliationDay'
  | 'reopenReconciliationDay'
> {
  return {
    searchReconciliationDays: async ({ body }) => ok(await searchDays(db, body ?? {})),

    fetchReconciliationDay: async ({ body }) => {
      const day = await fetchDay(db, body.day);
      if (!day) throw notFound(msg('reconciliation.day.notRun'));
      return ok({ day, rows: await rowsOf(db, { day: body.day }) });
    },

    fetchTrialBalance: async ({ body }) => ok(await trialBalance(db, body.day)),

    closeReconciliationDay: async ({ body, principal }) => {
      await closeDay(db, principal!, body.day);
      return ok((await fetchDay(db, body.day))!, msg('reconciliation.day.closedNow'));
    },

    requestReopenReconciliationDay: async ({ body, principal }) => {
      await requestReopen(db, principal!, body.day, body.reason.trim());
      return ok((await fetchDay(db, body.day))!, msg('reconciliation.day.reopenRequested'));
    },

    reopenReconciliationDay: async ({ body, principal }) => {
      await approveReopen(db, principal!, body.day);
      return ok((await fetchDay(db, body.day))!, msg('reconciliation.day.reopened'));
    },

    runReconciliation: async ({ body, principal }) => {
      await runReconciliation(db, body.day, principal!.userId);
      return ok((await fetchDay(db, body.day))!, msg('reconciliation.ran'));
    },

    resolveReconciliationRow: async ({ body, principal }) => {
      const outcome = await resolveRow(db, body.row, body.note.trim(), principal!.userId);
      if (outcome === 'notFound') throw new HttpError(404, msg('reconciliation.row.notFound'));
      if (outcome === 'matched') throw conflict(msg('reconciliation.row.matched'));
      if (outcome === 'alreadyResolved') throw conflict(msg('reconciliation.row.alreadyResolved'));
      return ok((await rowsOf(db, { id: body.row }))[0]!, msg('reconciliation.row.resolved'));
    },

    uploadReconciliationStatement: async ({ request, principal }) => {
      const upload = await statementUpload(request);
      const mapping = STATEMENT_MAPPINGS.get(upload.statement);
      if (!mapping) throw HttpError.of(400, 'reconciliation.statement.unknown');
      const read = await readStatement(upload.bytes, mapping);
      if (!read.ok) {
        if (read.problem === 'missingColumn') {
          throw HttpError.of(422, 'reconciliation.statement.missingColumn', { column: read.column });
        }
        if (read.problem === 'badLines') {
          const named = read.lines
            .slice(0, LINES_NAMED)
            .map((l) => msg('reconciliation.statement.badLine', { line: l.line, column: l.column }))
            .join('، ');
          throw HttpError.of(
            422,
            'reconciliation.statement.badLines',
            { lines: read.lines.length > LINES_NAMED ? `${named}، …` : named },
            { lines: read.lines },
          );
        }
        throw HttpError.of(
          422,
          read.problem === 'empty' ? 'reconciliation.statement.empty' : 'reconciliation.statement.unreadable',
        );
      }
      const stored = await storeStatement(db, mapping, upload.fileName, read.lines, principal!.userId);
      if (!stored.ok) {
        throw new HttpError(
          409,
          msg('reconciliation.statement.changedLine', { line: stored.changedLine, reference: stored.reference }),
        );
      }
      return ok(
        {
          statement: mapping.name,
          source: mapping.source,
          added: stored.added,
          alreadyStored: stored.alreadyStored,
          skipped: read.skipped,
          days: stored.days,
        },
        msg('reconciliation.statement.saved', { added: stored.added, existing: stored.alreadyStored }),
      );
    },
  };
}

/** The multipart form: one file (attached_file) and the mapping's name (statement). */
async function statementUpload(request: FastifyRequest) {
  if (!request.isMultipart()) throw HttpError.of(415, 'http.unsupportedMediaType');
  let file: { bytes: Buffer; name: string; truncated: boolean } | null = null;
  let statement = '';
  let files = 0;
  try {
    for await (const part of request.parts({ limits: { fileSize: MAX_STATEMENT_BYTES, files: 2, fields: 5 } })) {
      if (part.type === 'file') {
        files += 1;
        const bytes = await part.toBuffer().catch(() => null);
        if (part.fieldname !== 'attached_file' || files > 1) continue;
        file = {
          bytes: bytes ?? Buffer.alloc(0),
          name: part.filename,
          truncated: bytes === null || part.file.truncated,
        };
      } else if (part.fieldname === 'statement') {
        statement = String(part.value);
      }
    }
  } catch (error) {
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 413) throw HttpError.of(413, 'reconciliation.statement.tooLarge');
    if (error instanceof HttpError || (status !== undefined && status >= 400 && status < 500)) throw error;
    throw HttpError.of(400, 'upload.malformed');
  }
  if (files !== 1 || !file || file.bytes.length === 0) throw HttpError.of(400, 'reconciliation.statement.oneFile');
  if (file.truncated) throw HttpError.of(413, 'reconciliation.statement.tooLarge');
  return { bytes: file.bytes, fileName: (file.name || 'statement').slice(0, 200), statement };
}
