/**
 * What every staff dialog does around its server call: which button is busy, the server's refusal shown in the
 * dialog (it stays open), and on success the server's message in a green snackbar before the dialog closes.
 */
import { useCallback, useState } from 'react';
import { ApiError, digMessage, FALLBACK_MESSAGE } from '../lib/api-client';
import { showSnackbar } from './shell/snackbar';

export interface DialogAction<Kind extends string> {
  /** The action under way (its kind), or null. */
  busy: Kind | null;
  /** The last refusal, in Persian, or null. */
  error: string | null;
  setError: (error: string | null) => void;
  /**
   * Runs `action`: busy meanwhile; what it resolves to (a message) is shown green, then `done` runs; a throw keeps
   * the dialog open with the error's Persian message. Resolves whether it succeeded.
   */
  run: (
    action: () => Promise<string | null | undefined | void>,
    options?: { kind?: Kind; done?: () => void; timeout?: number },
  ) => Promise<boolean>;
}

export function useDialogAction<Kind extends string = 'submit'>(): DialogAction<Kind> {
  const [busy, setBusy] = useState<Kind | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback<DialogAction<Kind>['run']>(async (action, options = {}) => {
    setBusy(options.kind ?? ('submit' as Kind));
    setError(null);
    try {
      const message = await action();
      if (message) showSnackbar(message, 'green', options.timeout);
      setBusy(null);
      options.done?.();
      return true;
    } catch (err) {
      setError(digMessage(err) ?? FALLBACK_MESSAGE);
      setBusy(null);
      return false;
    }
  }, []);
  return { busy, error, setError, run };
}

/** The server's message of a successful call (what the dialog shows green); a refusal throws. */
export async function serverMessage(promise: Promise<{ data?: unknown; error?: unknown }>): Promise<string> {
  const { data, error } = await promise;
  if (error) throw new ApiError(digMessage(error) ?? FALLBACK_MESSAGE, 0, error);
  return (data as { msg?: string } | undefined)?.msg ?? '';
}
