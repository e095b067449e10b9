/**
 * A desk's form kept as a draft in this tab (sessionStorage, one key per desk) while the customer is away from it —
 * to complete the profile the desk needs, say — and given back when they return; cleared once the request is made.
 * A write-only field (a password) is never written down: the customer types it again.
 */
const key = (desk: string) => `deskDraft:${desk}`;

type FormData = Record<string, unknown>;

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

export function readDeskDraft(desk: string): FormData {
  try {
    const parsed: unknown = JSON.parse(storage()?.getItem(key(desk)) ?? 'null');
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as FormData) : {};
  } catch {
    return {};
  }
}

export function saveDeskDraft(
  desk: string,
  data: FormData,
  properties: Record<string, { writeOnly?: unknown } | undefined>,
): void {
  const kept = Object.fromEntries(
    Object.entries(data).filter(([name, value]) => value !== undefined && value !== '' && !properties[name]?.writeOnly),
  );
  try {
    if (Object.keys(kept).length === 0) storage()?.removeItem(key(desk));
    else storage()?.setItem(key(desk), JSON.stringify(kept));
  } catch {
    // A full or refused storage keeps no draft; the form itself still works.
  }
}

export function clearDeskDraft(desk: string): void {
  storage()?.removeItem(key(desk));
}

/** The profile address that, once the profile is saved, offers the way back to this desk's request. */
export function profileFor(desk: string): string {
  return `/request/myProfile?back=${encodeURIComponent(`/desks/${desk}`)}`;
}

/** The desk address a profile page was sent from (only a desk of this app), or null. */
export function backToDesk(search: string): string | null {
  const back = new URLSearchParams(search).get('back');
  return back && /^\/desks\/[A-Za-z0-9_-]+$/.test(back) ? back : null;
}
