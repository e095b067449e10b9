import { useEffect, useState } from 'react';
import { toPersianDigits } from '../../shared/digits';

/** Milliseconds left until `deadline`, ticking every 100 ms (SPEC section 9). */
export function useCountdown(deadline: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (deadline === null) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 100);
    return () => clearInterval(timer);
  }, [deadline]);
  return deadline === null ? 0 : Math.max(0, deadline - now);
}

/** mm:ss of a duration in milliseconds, in Persian digits ('۰۱:۰۵'). */
export function mmss(ms: number): string {
  const total = Math.ceil(ms / 1000);
  return toPersianDigits(`${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`);
}
