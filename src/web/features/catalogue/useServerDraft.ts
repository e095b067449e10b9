/**
 * A signed-in customer's draft of a desk's form on the server (decision 044): read once when the desk opens, saved a second
 * after the last change the customer made (and at once when they leave the page or hide the tab), removed on their
 * word. Nothing is saved before the customer has typed or chosen something themselves, so opening a desk (or the
 * values filled from their last request) makes no draft. What is saved leaves out write-only fields (a password),
 * the desk's fixed values and empty ones; the server drops secrets again on its side.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { components } from '../../../generated/api';
import { api, call } from '../../lib/api-client';

type FormData = Record<string, unknown>;
type DeskDraft = components['schemas']['DeskDraft'];

/** How long after the last change the draft is saved. */
export const DRAFT_SAVE_DELAY_MS = 1000;

export function draftOf(
  data: FormData,
  properties: Record<string, { writeOnly?: unknown } | undefined>,
  staticValues: FormData,
): FormData {
  return Object.fromEntries(
    Object.entries(data).filter(
      ([name, value]) =>
        value !== undefined &&
        value !== null &&
        value !== '' &&
        !properties[name]?.writeOnly &&
        !(name in staticValues),
    ),
  );
}

export function useServerDraft(desk: string, signedIn: boolean) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ['deskDraft', desk],
    queryFn: async () =>
      (
        await call<{ draft: DeskDraft | null }>(
          api.POST('/api/me/desks/{desk}/fetchDraft', { params: { path: { desk } } }),
        )
      ).draft,
    enabled: signedIn,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const shownSavedAt = savedAt ?? query.data?.savedAt ?? null;
  /** The customer typed or chose something: from then on, changes are saved. */
  const touched = useRef(false);
  /** The request was made, or the draft removed: nothing more is saved until the customer types again. */
  const closed = useRef(false);
  const lastSaved = useRef<string | null>(null);
  const pending = useRef<{ timer: ReturnType<typeof setTimeout>; json: string } | null>(null);
  /** The save on its way to the server, if one is. */
  const saving = useRef<Promise<unknown> | null>(null);

  const send = useCallback(
    (json: string) => {
      lastSaved.current = json;
      const save = call<{ savedAt: string }>(
        api.POST('/api/me/desks/{desk}/saveDraft', {
          params: { path: { desk } },
          body: { data: JSON.parse(json) as never },
        }),
      )
        .then((saved) => {
          if (!closed.current) setSavedAt(saved.savedAt);
          void queryClient.invalidateQueries({ queryKey: ['deskDrafts'] });
        })
        .catch(() => {
          // Not saved (offline, too large): the next change tries again.
          if (lastSaved.current === json) lastSaved.current = null;
        })
        .finally(() => {
          if (saving.current === save) saving.current = null;
        });
      saving.current = save;
    },
    [desk, queryClient],
  );

  const flush = useCallback(() => {
    const waiting = pending.current;
    if (!waiting) return;
    clearTimeout(waiting.timer);
    pending.current = null;
    send(waiting.json);
  }, [send]);

  /** Called with the form's data as it changes: saves it a moment after the last change. */
  const changed = useCallback(
    (draft: FormData) => {
      if (!signedIn || !touched.current || closed.current) return;
      const json = JSON.stringify(draft);
      const known = lastSaved.current ?? JSON.stringify(query.data?.data ?? {});
      if (pending.current) clearTimeout(pending.current.timer);
      pending.current = null;
      if (json === known) return;
      pending.current = { timer: setTimeout(flush, DRAFT_SAVE_DELAY_MS), json };
    },
    [signedIn, flush, query.data],
  );

  // Leaving the page (another route, closing or hiding the tab) saves what is waiting at once.
  useEffect(() => {
    const hidden = () => {
      if (document.visibilityState === 'hidden') flush();
    };
    document.addEventListener('visibilitychange', hidden);
    window.addEventListener('pagehide', flush);
    return () => {
      document.removeEventListener('visibilitychange', hidden);
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, [flush]);

  const markTouched = useCallback(() => {
    touched.current = true;
    closed.current = false;
  }, []);

  /**
   * The request is being made: nothing more is saved, and a save already on its way lands first, so the server's
   * removal of the draft with the request is the last word (a save landing after it brought the draft back).
   */
  const settle = useCallback(async () => {
    closed.current = true;
    if (pending.current) clearTimeout(pending.current.timer);
    pending.current = null;
    await saving.current;
  }, []);

  /** The request was made: the server removed the draft with it. */
  const submitted = useCallback(() => {
    closed.current = true;
    touched.current = false;
    if (pending.current) clearTimeout(pending.current.timer);
    pending.current = null;
    setSavedAt(null);
    void queryClient.invalidateQueries({ queryKey: ['deskDrafts'] });
  }, [queryClient]);

  /** «حذف پیش‌نویس»: the draft goes from the server; the caller empties the form. */
  const remove = useCallback(async () => {
    submitted();
    lastSaved.current = '{}';
    await call(api.POST('/api/me/desks/{desk}/removeDraft', { params: { path: { desk } } })).catch(() => undefined);
    queryClient.setQueryData(['deskDraft', desk], null);
  }, [desk, queryClient, submitted]);

  return {
    /** Still reading the draft (the form waits, so it is drawn once with it). */
    pending: signedIn && query.isPending,
    draft: signedIn ? (query.data ?? null) : null,
    savedAt: shownSavedAt,
    changed,
    markTouched,
    settle,
    submitted,
    remove,
  };
}
