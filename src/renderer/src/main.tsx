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

connectStores(api, bridge);
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App firstReads={firstReads} />
  </StrictMode>,
);
