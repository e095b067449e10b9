/**
 * A prerendered page shows its buttons before the app's scripts have run (main.tsx starts them after the first
 * paint), and a click then has nobody to answer it. Nor does React answer a click on a part it has not hydrated yet
 * and cannot hydrate at once (the page is a lazy chunk, still loading): it drops it. So the last button clicked
 * until the page has hydrated is remembered and clicked again once it has (Shell), and a tap on the menu or a log-in
 * button is not lost on a slow phone. Links need no help: they navigate without scripts.
 */
let last: HTMLElement | null = null;
let reactListens = false;

const remember = (event: MouseEvent) => {
  const target = event.target instanceof Element ? event.target.closest('button, [role="button"]') : null;
  if (target instanceof HTMLElement && !target.closest('a[href]')) last = target;
};
// Once React listens, a click it answered goes on up to the document; one it dropped does not (React stops it).
const answered = () => {
  if (reactListens) last = null;
};

export function recordEarlyClicks(): void {
  document.addEventListener('click', remember, true);
  document.addEventListener('click', answered);
}

/** Hydration begins: React listens from now on, and answers what it has hydrated. */
export function reactListensToClicks(): void {
  reactListens = true;
}

/** The page has hydrated: the remembered button, if it is still on the page, is clicked again. */
export function replayEarlyClick(): void {
  document.removeEventListener('click', remember, true);
  document.removeEventListener('click', answered);
  const target = last;
  last = null;
  if (target?.isConnected) target.click();
}
