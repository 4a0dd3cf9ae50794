// The clinic's consults recorded elsewhere, from the service: their list in the Consults view and
// their note. The only way in from outside this folder.
export { ClinicList } from './clinic-list.tsx';
export { ClinicNoteView } from './clinic-note-view.tsx';
