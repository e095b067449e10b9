/**
 * A request's file fields at submit (docs/decisions/045-file-fields.md): every path a file field names must be an
 * upload of the customer's whose stored kind and size are within that field's declared limits (`x-file`). The
 * schema's rule already held the count and the names' kinds; this holds what was stored, so a file sent for a looser
 * purpose, or someone else's path, cannot ride in a field.
 */
import { fieldLabel, type SchemaNode } from '../../../shared/form-schema';
import { pathsOf } from '../../../shared/file-fields';
import { fileLimitsOf, MIME_TYPES } from '../../../shared/file-limits';
import type { DB } from '../../db/database';
import { HttpError } from '../../http/errors';
import { msg } from '../../http/messages';
import type { Storage } from '../storage';

export async function checkAttachedFiles(
  deps: { db: DB; storage: Storage },
  schema: SchemaNode,
  fields: Record<string, unknown>,
  ownerUserId: number,
): Promise<void> {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  for (const [name, property] of Object.entries(properties)) {
    const limits = fileLimitsOf(property);
    const paths = pathsOf(fields[name]);
    if (!limits || paths.length === 0) continue;
    const stored = new Map((await deps.storage.uploadsOf(deps.db, ownerUserId, paths)).map((u) => [u.path, u]));
    const allowed = new Set(limits.types.map((t) => MIME_TYPES[t]));
    const fits = paths.every((p) => {
      const upload = stored.get(p);
      return upload !== undefined && allowed.has(upload.mime) && upload.sizeBytes <= limits.maxBytes;
    });
    if (!fits) throw new HttpError(400, msg('upload.attachedNotAllowed', { field: fieldLabel(schema, [name]) }));
  }
}
