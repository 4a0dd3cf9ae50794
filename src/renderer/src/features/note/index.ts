// A consult's note as the vet reads it: its documents and pets on tabs, the patient's details,
// the recording, the trail. The only way in from outside this folder: the list shows the patient
// details and the visit's other pets on a row, and a note of the clinic's is read, copied, printed
// and exported with the same parts.
export { NoteView } from './note-view.tsx';
export { PatientDetails } from './patient-details.tsx';
export { VisitCompanions } from './pet-tabs.tsx';
// What a note of the clinic's shares with one of this computer: its actions and its page.
export { NoteActionBar, NotePage } from './note-page.tsx';
export { NOTE_EXPORTS, useNoteActions } from './use-note-actions.ts';
export { noteDate } from './note-date.ts';
export { useFocusOnOpen } from './focus-on-open.ts';
