/**
 * A prerendered page shows its buttons before the app's scripts have run (main.tsx starts them after the first
 * paint), and a click then has nobody to answer it. The last button clicked before hydration began is remembered and
 * clicked again once the app has hydrated, so a tap on the menu is not lost on a slow phone. Links need no help: they
 * navigate without scripts. Once hydration has begun, React itself replays clicks on parts not yet hydrated.
 */
let last: HTMLElement | null = null;

const remember = (event: MouseEvent) => {
  const target = event.target instanceof Element ? event.target.closest('button, [role="button"]') : null;
  if (target instanceof HTMLElement && !target.closest('a[href]')) last = target;
};

export function recordEarlyClicks(): void {
  document.addEventListener('click', remember, true);
}

/** Hydration begins: React sees clicks from now on. */
export function stopRecordingEarlyClicks(): void {
  document.removeEventListener('click', remember, true);
}

/** The app has hydrated: the remembered button, if it is still on the page, is clicked again. */
export function replayEarlyClick(): void {
  stopRecordingEarlyClicks();
  const target = last;
  last = null;
  if (target?.isConnected) target.click();
}
