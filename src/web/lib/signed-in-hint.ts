/** Keeps the signed-in hint cookie (src/shared/signed-in-hint.ts) in step with the stored token. */
import { hasSignedInHint, signedInHintCookie } from '../../shared/signed-in-hint';

export function markSignedIn(on: boolean): void {
  if (hasSignedInHint(document.cookie) === on) return;
  document.cookie = signedInHintCookie(on, location.protocol === 'https:');
}
