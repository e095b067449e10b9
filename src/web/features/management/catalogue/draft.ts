/**
 * The catalogue editor's text with its draft: edits not yet published are kept in this browser (localStorage, per
 * desk or form type), restored when the entry is opened again, and dropped once published or discarded. Closing the
 * tab with a draft asks first. A new live version (published here or elsewhere, or a file changed) replaces the text
 * only when it was not edited.
 */
import { useCallback, useEffect, useState } from 'react';

interface StoredDraft {
  text: string;
  savedAt: string;
}

const keyOf = (entry: { kind: string; identifier: string }) => `catalogue-draft:${entry.kind}:${entry.identifier}`;

function readDraft(key: string): StoredDraft | null {
  try {
    const value = JSON.parse(localStorage.getItem(key) ?? 'null') as StoredDraft | null;
    return value && typeof value.text === 'string' ? value : null;
  } catch {
    return null;
  }
}

export function useDraft(entry: { kind: string; identifier: string }, liveText: string) {
  const key = keyOf(entry);
  const [initial] = useState(() => {
    const stored = readDraft(key);
    return stored && stored.text !== liveText ? stored : null;
  });
  const [text, setTextState] = useState(initial?.text ?? liveText);
  const [base, setBase] = useState(liveText);

  useEffect(() => {
    if (liveText === base) return;
    setTextState((current) => (current === base ? liveText : current));
    setBase(liveText);
  }, [liveText, base]);

  // The draft follows the text: kept while it differs from the live version, dropped when it matches again.
  useEffect(() => {
    if (text === liveText) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify({ text, savedAt: new Date().toISOString() }));
  }, [key, text, liveText]);

  const changed = text !== liveText;
  useEffect(() => {
    if (!changed) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [changed]);

  const discard = useCallback(() => setTextState(liveText), [liveText]);
  return {
    text,
    setText: setTextState,
    discard,
    /** When a draft from an earlier visit was restored, when it was last edited (ISO). */
    restoredAt: initial?.savedAt ?? null,
  };
}
