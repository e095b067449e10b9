// One variable font file per script (Arabic, Latin) holds the weights in use: fewer and smaller downloads than one
// file per weight. Each @font-face has a unicode range, so a page loads only the scripts it shows. Cut from
// @fontsource-variable at codegen (codegen/fonts.ts).
import '../generated/fonts/vazirmatn.css';
// Radix Themes in parts: the base tokens, only the colour scales the app uses (accent teal, gray slate, and the
// status colours red, green, orange, blue, amber), then components and utilities. A new `color=` needs its scale here.
import '@radix-ui/themes/tokens/base.css';
import '@radix-ui/themes/tokens/colors/gray.css';
import '@radix-ui/themes/tokens/colors/slate.css';
import '@radix-ui/themes/tokens/colors/teal.css';
import '@radix-ui/themes/tokens/colors/red.css';
import '@radix-ui/themes/tokens/colors/green.css';
import '@radix-ui/themes/tokens/colors/orange.css';
import '@radix-ui/themes/tokens/colors/blue.css';
import '@radix-ui/themes/tokens/colors/amber.css';
import '@radix-ui/themes/components.css';
import '@radix-ui/themes/utilities.css';
import './styles/global.css';
import { recordEarlyClicks } from './lib/early-clicks';
import { markSignedIn } from './lib/signed-in-hint';

// The app's scripts are fetched only once a prerendered page (build/prerender.ts) has painted: it is readable from
// its HTML and stylesheet alone, and on a slow network those should not share the bandwidth with the scripts. The
// empty shell (or a page cleared for someone signed in) has nothing to paint, a hidden tab paints nothing and an old
// browser does not report its paints, so those start at once; a paint not yet reported is waited for at most
// PAINT_WAIT_MS.
const PAINT_WAIT_MS = 1500;
let started = false;
const start = () => {
  if (started) return;
  started = true;
  void import('./start');
};
// SPEC's key (TOKEN_KEY), not imported: that would bring the API client in before the paint.
const signedIn = Boolean(localStorage.getItem('token'));
const root = document.getElementById('root');
// The server sends someone signed in the empty shell (the hint cookie says so); a browser whose token predates the
// cookie, or whose cookie was lost, gets it set here for next time.
markSignedIn(signedIn);
// Someone signed in whose request still got the guest's prerendered page (a log-in note, no name of theirs) is not
// shown it to act on while their own is drawn: it goes at once, and the app starts at once. A signed-in frame
// (their page's heading while their person is read, build/prerender.ts) is theirs: it stays until the app draws over
// it, and is painted first like a prerendered page (its heading is the page's largest text until the app draws);
// it has nothing to click, so no early clicks are kept for it.
const frame = root?.hasAttribute('data-signed-in-frame') ?? false;
if (signedIn && !frame) root?.replaceChildren();
const prerendered = frame ? null : root?.firstChild;
if (prerendered) recordEarlyClicks();
const paintReported =
  typeof PerformanceObserver !== 'undefined' && PerformanceObserver.supportedEntryTypes?.includes('paint');
if (!(prerendered || frame) || document.visibilityState === 'hidden' || !paintReported) start();
else {
  setTimeout(start, PAINT_WAIT_MS);
  // Someone already reaching for the page should not wait for the paint to be reported.
  for (const type of ['pointerdown', 'keydown']) document.addEventListener(type, start, { once: true, capture: true });
  try {
    new PerformanceObserver((list, observer) => {
      if (list.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      start();
    }).observe({ type: 'paint', buffered: true });
  } catch {
    start();
  }
}
