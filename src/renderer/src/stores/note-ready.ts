// A note that becomes ready while the vet is elsewhere in the window: a toast says so, and the
// Consults entry of the sidebar counts the notes not yet looked at (the desktop notification
// comes from main as well). Opening Consults, or the note itself, counts them as seen.
import { create } from 'zustand';
import type { EventPayloads } from '../../../shared/ipc.ts';
import { api } from '../api.ts';
import { useNav, type View } from './nav.ts';
import { useNotifications } from './notifications.ts';

interface NoteReadyState {
  /** Consults whose note is ready and not yet seen. */
  unseen: string[];
}

export const useNoteReady = create<NoteReadyState>(() => ({ unseen: [] }));

function lookingAt(view: View, id: string): boolean {
  return view.name === 'consults' || (view.name === 'note' && view.id === id);
}

export function noteReady({ recording, job, documentId }: EventPayloads['note:ready']): void {
  const view = useNav.getState().view;
  if (lookingAt(view, recording.id)) return;
  const name = recording.patientName?.trim() || recording.label?.trim() || 'a consult';
  // One more document of the consult (discharge instructions) is named as itself.
  const what =
    documentId === undefined ? 'Note' : (job?.documents.find((d) => d.id === documentId)?.name ?? 'Another document');
  useNotifications.getState().push('success', `${what} ready: ${name}. Open Consults to read it.`);
  useNoteReady.setState((s) => (s.unseen.includes(recording.id) ? s : { unseen: [...s.unseen, recording.id] }));
}

api.on('note:ready', noteReady);

useNav.subscribe(({ view }) => {
  const { unseen } = useNoteReady.getState();
  const left = view.name === 'consults' ? [] : unseen.filter((id) => !lookingAt(view, id));
  if (left.length !== unseen.length) useNoteReady.setState({ unseen: left });
});
