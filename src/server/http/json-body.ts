/** Request bodies in JSON: parsed with a guard against nesting deep enough to overflow what walks them. */
import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors';

/** Deeper than any body the contract describes (a desk form nests four levels inside the envelope). */
const MAX_JSON_NESTING = 32;

/** Whether JSON text opens more than `max` arrays or objects inside one another (brackets in strings skipped). */
export function jsonNestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * The JSON body parser: an empty body means "no fields" (as openapi-fetch sends for operations without input);
 * invalid JSON and JSON nested deeper than MAX_JSON_NESTING are a 400 in Persian.
 */
export function registerJsonBody(fastify: FastifyInstance): void {
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, {});
    // JSON.parse takes thousands of nested brackets, but what walks the value afterwards (the text guard, the
    // validator) recurses and would overflow the stack: a 500. No operation nests anywhere near this deep.
    if (jsonNestingExceeds(text, MAX_JSON_NESTING)) return done(HttpError.of(400, 'http.invalidJson'), undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(HttpError.of(400, 'http.invalidJson'), undefined);
    }
  });
}
