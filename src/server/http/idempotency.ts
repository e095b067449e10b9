/**
 * Idempotency-Key, one way for every operation that takes one (submit a request, pay it, ask for a withdrawal): one
 * pattern for the key, one decision on an earlier call under the same key, one message for each answer.
 *
 * - no key, or not 8–100 of [A-Za-z0-9_-]: 400 `idempotency.required`;
 * - an earlier call under the key was another request: 422 `idempotency.mismatch`;
 * - the earlier call is still on its way (claimed, no answer yet): 409 `idempotency.inProgress`, and the client
 *   retries in a moment; a claim the caller knows was abandoned (its process stopped) starts over instead;
 * - the earlier call answered: its answer again, and nothing moves.
 *
 * The key is claimed by the module that owns the call's table (a row keyed on user and key, in the transaction
 * that does the work, so the work and its claim commit together): `idempotency_keys` for submit, `pay_requests`
 * for pay, the withdrawal row itself for a withdrawal. The ledger's own keys are ledger/keys.ts.
 */
import { HttpError } from './errors';

/** The one pattern of a client's Idempotency-Key. */
export const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{8,100}$/;

/** The client's key, checked against the pattern (400 when missing or malformed). */
export function requireIdempotencyKey(key: string | undefined): string {
  if (!key || !IDEMPOTENCY_KEY.test(key)) throw HttpError.of(400, 'idempotency.required');
  return key;
}

/** What an earlier call under the same key left behind. */
export interface EarlierCall<A> {
  /** Whether it carried the same request (the same body hash, or the same fields). */
  sameRequest: boolean;
  /** Its answer, or null while it is still on its way. */
  answer: A | null;
  /** A claim without an answer left by a process that stopped: the key may start over. */
  abandoned?: boolean;
}

/**
 * The answer to replay for an earlier call under the key, or null when there is none to replay (no earlier call,
 * or an abandoned one): the caller then claims the key and does the work. Throws for another request under the key
 * (422) and for one still on its way (409).
 */
export function replayOf<A>(earlier: EarlierCall<A> | undefined): A | null {
  if (!earlier) return null;
  if (!earlier.sameRequest) throw HttpError.of(422, 'idempotency.mismatch');
  if (earlier.answer === null) {
    if (earlier.abandoned) return null;
    throw HttpError.of(409, 'idempotency.inProgress');
  }
  return earlier.answer;
}
