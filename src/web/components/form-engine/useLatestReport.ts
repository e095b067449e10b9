import { useCallback, useRef } from 'react';

/**
 * rjsf takes data handed back to it as its own only when it equals the last data it reported. A parent that
 * re-renders with an earlier report (between two quick keystrokes, on a slow device) hands it data rjsf reads as
 * new, and the keys typed since are undone. Whenever the parent hands back anything it was sent, this gives rjsf
 * the latest report instead; data the parent made itself (a reset, remembered values) passes through unchanged.
 */
export function useLatestReport<T extends object>(formData: T | undefined): [T | undefined, (sent: T) => T] {
  const sent = useRef(new WeakSet<object>());
  const latest = useRef<T | undefined>(undefined);
  const shown = formData !== undefined && sent.current.has(formData) ? latest.current : formData;
  const report = useCallback((data: T) => {
    sent.current.add(data);
    latest.current = data;
    return data;
  }, []);
  return [shown, report];
}
