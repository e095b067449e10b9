/**
 * A cookie telling the server that this browser holds a session token, so a page request gets the empty shell rather
 * than a guest's prerendered page (a log-in prompt a signed-in customer would otherwise see for a moment). It is a
 * hint for which HTML to send and nothing else: the token in localStorage is what authenticates.
 */
export const SIGNED_IN_COOKIE = 'arzpay_signed_in';

const YEAR_SECONDS = 365 * 24 * 60 * 60;

/** Whether a Cookie header (or document.cookie) carries the hint. */
export function hasSignedInHint(cookies: string | undefined): boolean {
  return (cookies ?? '').split(';').some((part) => part.trim() === `${SIGNED_IN_COOKIE}=1`);
}

/** What to assign to document.cookie to set the hint (`on`) or clear it. */
export function signedInHintCookie(on: boolean, secure: boolean): string {
  const value = on ? `${SIGNED_IN_COOKIE}=1; Max-Age=${YEAR_SECONDS}` : `${SIGNED_IN_COOKIE}=; Max-Age=0`;
  return `${value}; Path=/; SameSite=Lax${secure ? '; Secure' : ''}`;
}
