// One variable font file per script (Arabic, Latin) holds every weight: fewer and smaller downloads than one
// file per weight. Each @font-face has a unicode range, so a page loads only the scripts it shows.
import '@fontsource-variable/vazirmatn/wght.css';
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
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/App';
import { queryClient } from './lib/query';

const root = document.getElementById('root') as HTMLElement;
const app = (
  <StrictMode>
    <App />
  </StrictMode>
);
// A prerendered public page (build/prerender.ts) carries the catalogue it was drawn with: a guest's browser
// hydrates that HTML with the same data (marked stale, so the live catalogue is fetched right after). Someone
// signed in sees other things (their menu, their name), so their page is drawn anew over it.
const prerendered = document.getElementById('prerender-data');
if (prerendered && root.firstChild && !localStorage.getItem('token')) {
  queryClient.setQueryData(['catalogue'], JSON.parse(prerendered.textContent ?? 'null'), { updatedAt: 0 });
  hydrateRoot(root, app);
} else {
  createRoot(root).render(app);
}
