/**
 * Text PostgreSQL cannot hold: the NUL character (refused by text and jsonb alike) and unpaired UTF-16 surrogates
 * (jsonb refuses their \u escapes). Either would reach the database as an error and a 500; the router refuses
 * them first, in every string of every operation's input, keys included.
 */
// eslint-disable-next-line no-control-regex -- finding NUL is the point
const UNSTORABLE = /[\u0000\p{Cs}]/u;

/** The name of the first field (or key) in `value` holding unstorable text, '' for the value itself; null if none. */
export function findUnstorableText(value: unknown, name = ''): string | null {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? name : null;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = findUnstorableText(item, name);
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (UNSTORABLE.test(key)) return key.replace(new RegExp(UNSTORABLE.source, 'gu'), '');
      const found = findUnstorableText(item, key);
      if (found !== null) return found;
    }
  }
  return null;
}
