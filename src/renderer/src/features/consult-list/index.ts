// The consults list: the Consults view (search, filters, this computer's consults under a heading
// per day, and the clinic's below them). The only way in from outside this folder.
export { ConsultsView } from './consults-view.tsx';
export { layOutAhead } from './list-layout.ts';
