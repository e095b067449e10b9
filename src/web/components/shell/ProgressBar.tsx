import { useEffect, useState } from 'react';
import { subscribeInFlight } from '../../lib/api-client';

/** A thin bar at the top while any API call is in flight. */
export function ProgressBar() {
  const [busy, setBusy] = useState(false);
  useEffect(() => subscribeInFlight((n) => setBusy(n > 0)), []);
  return busy ? <div className="progress-bar" role="progressbar" aria-label="در حال بارگذاری" /> : null;
}
