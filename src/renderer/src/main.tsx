// First: the reads the first view waits for leave before React and the views are run.
import { firstReads } from './first-reads.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { api, bridge } from './api.ts';
import { App } from './app.tsx';
import { connectStores } from './connect-stores.ts';
// The window's own sheets, after the features' (imported with their components): the base, the
// card lists several views share, the side-by-side layout of wide windows, and print last, so
// that on paper its rules win over every screen rule.
import './styles.css';
import './cards.css';
import './wide.css';
import './print.css';

// Past this, a window still waiting for main says it is starting.
const STARTING_MS = 200;

connectStores(api, bridge);
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
// The first view is drawn once main has said who is signed in: drawn once, as the vet will use
// it, rather than as "Starting Vet Scribe…" and again on main's answer. That second drawing was
// an urgent one, which React finishes with every effect of the new view (a dozen reads from main
// among them) before the screen is painted; a first drawing paints first and runs them after.
let drawn = false;
const draw = () => {
  if (drawn) return;
  drawn = true;
  createRoot(root).render(
    <StrictMode>
      <App firstReads={firstReads} />
    </StrictMode>,
  );
};
firstReads.then(draw, draw);
setTimeout(draw, STARTING_MS);
