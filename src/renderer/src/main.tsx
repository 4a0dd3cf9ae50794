import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';
// The window's own sheets, after the features' (imported with their components): the base, the
// card lists several views share, the side-by-side layout of wide windows, and print last, so
// that on paper its rules win over every screen rule.
import './styles.css';
import './cards.css';
import './wide.css';
import './print.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
