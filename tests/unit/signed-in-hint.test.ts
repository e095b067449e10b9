import { describe, expect, it } from 'vitest';
import { hasSignedInHint, SIGNED_IN_COOKIE, signedInHintCookie } from '../../src/shared/signed-in-hint';

describe('signed-in hint cookie', () => {
  it('is read from a Cookie header among others, in any place, and only with the value 1', () => {
    expect(hasSignedInHint(`${SIGNED_IN_COOKIE}=1`)).toBe(true);
    expect(hasSignedInHint(`a=b; ${SIGNED_IN_COOKIE}=1; c=d`)).toBe(true);
    expect(hasSignedInHint(`a=b;${SIGNED_IN_COOKIE}=1`)).toBe(true);
    for (const other of [undefined, '', `${SIGNED_IN_COOKIE}=`, `${SIGNED_IN_COOKIE}=0`, `x${SIGNED_IN_COOKIE}=1`]) {
      expect(hasSignedInHint(other)).toBe(false);
    }
  });

  it('is set for a year on the whole site and cleared at once, Secure on https', () => {
    const on = signedInHintCookie(true, false);
    expect(on).toMatch(new RegExp(`^${SIGNED_IN_COOKIE}=1; Max-Age=31536000; Path=/; SameSite=Lax$`));
    expect(signedInHintCookie(false, false)).toBe(`${SIGNED_IN_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax`);
    expect(signedInHintCookie(true, true).endsWith('; Secure')).toBe(true);
    // What document.cookie keeps of it is what the server reads.
    expect(hasSignedInHint(on.split(';')[0])).toBe(true);
  });
});
