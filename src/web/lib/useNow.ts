import { useEffect, useState } from 'react';

/** The current time, moving on every `stepMs` so relative times ('۵ دقیقه پیش') stay true while a page is open. */
export function useNow(stepMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), stepMs);
    return () => clearInterval(timer);
  }, [stepMs]);
  return now;
}
