// Baseline for the bundle-size ratio: the smallest React 19 page.
import { createRoot } from 'react-dom/client';

createRoot(document.getElementById('root') as HTMLElement).render(<p>سلام</p>);
