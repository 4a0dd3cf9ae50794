// A consult's note as the vet reads it: its documents and pets on tabs, the patient's details,
// the recording, the trail. The only way in from outside this folder: the list shows the patient
// details and the visit's other pets on a row, and the clinic's notes are read with the same body.
export { NoteView } from './note-view.tsx';
export { NoteBody } from './note-body.tsx';
export { PatientDetails } from './patient-details.tsx';
export { VisitCompanions } from './pet-tabs.tsx';
