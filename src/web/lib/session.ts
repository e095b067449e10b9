/**
 * Session state, as SPEC section 4 describes it: the token lives in localStorage `token` and login state
 * is judged by its presence; a second, in-memory copy guards protected routes; the user is fetched
 * after log-in and at start-up, and token and user are cleared when that fails.
 */
import { atom } from 'jotai';
import { startTransition } from 'react';
import type { components } from '../../generated/api';
import { ApiError, api, call, digMessage, FALLBACK_MESSAGE, onUnauthorized, TOKEN_KEY } from './api-client';
import { queryClient } from './query';
import { markSignedIn } from './signed-in-hint';
import { store } from './store';

export type User = components['schemas']['User'];
export type UserAccess = components['schemas']['UserAccess'];

const EMPTY_ACCESS: UserAccess = {
  menu: [],
  paymentPermissions: [],
  role: 'other',
  is_admin: false,
  is_staff: false,
  actions: [],
  groups: [],
};

export const storedTokenAtom = atom<string | null>(localStorage.getItem(TOKEN_KEY));
/** The in-memory token: set once the stored one has been confirmed by fetchUserData. */
export const memoryTokenAtom = atom<string | null>(null);
export const userAtom = atom<User | null>(null);
export const accessAtom = atom<UserAccess>(EMPTY_ACCESS);
export const sessionReadyAtom = atom(false);
export const isStaffAtom = atom((get) => Boolean(get(userAtom)?.isStaff));
export const loginDialogOpenAtom = atom(false);

const set = store.set;

export function clearSession(): void {
  localStorage.removeItem(TOKEN_KEY);
  markSignedIn(false);
  set(storedTokenAtom, null);
  set(memoryTokenAtom, null);
  set(userAtom, null);
  set(accessAtom, EMPTY_ACCESS);
  queryClient.removeQueries({ queryKey: ['me'] });
}

/** Fetches the user (and access); on failure or no result, token and user are cleared. */
export async function loadUser(): Promise<User | null> {
  const token = localStorage.getItem(TOKEN_KEY);
  if (!token) {
    clearSession();
    return null;
  }
  try {
    const user = await call<User>(api.POST('/api/me/fetchUserData'));
    if (!user) throw new ApiError('no user', 200, null);
    // The access object is in place before the user is, so no page or menu ever sees a signed-in user
    // with no actions yet (a management page would show "no access" for a moment).
    const access = await call<UserAccess>(api.POST('/api/users/getUserAccess')).catch(() => EMPTY_ACCESS);
    // As a transition: the person's page, menu and bell drawn in slices, not in one long task of a slow phone.
    startTransition(() => {
      set(accessAtom, access);
      set(userAtom, user);
      set(memoryTokenAtom, token);
    });
    return user;
  } catch (error) {
    // Only an answer from the server (it refused the token, or sent no user) clears token and user.
    // A transport failure (offline, or the page navigating away mid-request, even mid-body) says
    // nothing about the token, so it stays.
    if (error instanceof ApiError && error.status !== 0) {
      clearSession();
    } else {
      set(userAtom, null);
      set(memoryTokenAtom, null);
    }
    return null;
  }
}

export async function completeLogin(userToken: string): Promise<User | null> {
  localStorage.setItem(TOKEN_KEY, userToken);
  markSignedIn(true);
  set(storedTokenAtom, userToken);
  return loadUser();
}

/**
 * Runs a log-in call: on success stores the token and fetches the user; on failure clears the token
 * (SPEC section 4). Returns null, or the Persian message to show.
 */
export async function logInWith(request: Promise<{ data?: unknown; error?: unknown }>): Promise<string | null> {
  try {
    const { userToken } = await call<{ userToken: string }>(request);
    return (await completeLogin(userToken)) ? null : FALLBACK_MESSAGE;
  } catch (error) {
    clearSession();
    return digMessage(error) ?? FALLBACK_MESSAGE;
  }
}

export async function logout(): Promise<void> {
  try {
    await api.POST('/api/me/logout');
  } finally {
    clearSession();
  }
}

/** Start-up: with a stored token, fetch the user; either way the session is then ready. */
export async function initSession(): Promise<void> {
  await loadUser();
  startTransition(() => set(sessionReadyAtom, true));
}

/** Log-in and log-out in another tab reach this one: the token key changed in localStorage. */
export function followOtherTabs(): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key !== TOKEN_KEY && event.key !== null) return;
    const token = localStorage.getItem(TOKEN_KEY);
    if (token === store.get(storedTokenAtom)) return;
    set(storedTokenAtom, token);
    if (token) void loadUser();
    else clearSession();
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}

// A token the server refuses (its session was ended on another device, or it expired) ends the session here at
// its next call, not at the next page load. A newer token stored meanwhile is left alone.
onUnauthorized((token) => {
  if (token === localStorage.getItem(TOKEN_KEY)) clearSession();
});
