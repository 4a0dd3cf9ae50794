// A note that becomes ready while the vet is not reading it: a toast says so and opens that note,
// and the Consults entry of the sidebar counts the notes not yet looked at (the desktop
// notification comes from main as well). The toast closes by itself after a while (not while the
// vet is on the toasts), or when the note is opened or the vet dismisses it; the count stays until opening Consults, or the note
// itself, counts it as seen. Both are the signed-in vet's: they go when the vet signs out or
// switches user.
import { create } from 'zustand';
import type { EventPayloads } from '../../../shared/ipc.ts';
import { useNav, type View } from './nav.ts';
import { closeLater, nextToastId } from './notifications.ts';

/** How long a note's toast stays: long enough to be read from across the exam table. */
export const READY_TOAST_MS = 8000;

export interface ReadyToast {
  /** The consult whose note (or further document) is ready. */
  id: string;
  /** "Note" or the further document's name. */
  what: string;
  name: string;
  /** Its place among all the toasts (the newest is shown first). */
  order: number;
}

interface NoteReadyState {
  /** Consults whose note is ready and not yet seen. */
  unseen: string[];
  /** The toasts still shown: one per consult, the latest document named. */
  toasts: ReadyToast[];
  dismiss(id: string): void;
  dismissAll(): void;
}

export const useNoteReady = create<NoteReadyState>((set) => ({
  unseen: [],
  toasts: [],
  dismiss(id) {
    set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
  },
  dismissAll() {
    set({ toasts: [] });
  },
}));

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
  const order = nextToastId();
  useNoteReady.setState((s) => ({
    unseen: s.unseen.includes(recording.id) ? s.unseen : [...s.unseen, recording.id],
    toasts: [...s.toasts.filter((t) => t.id !== recording.id), { id: recording.id, what, name, order }],
  }));
  closeLater(order, READY_TOAST_MS, () =>
    useNoteReady.setState((s) => ({ toasts: s.toasts.filter((t) => t.order !== order) })),
  );
}

/** Opens the consult's note; the toast goes once the note is on screen. */
export function openReady(id: string): void {
  useNav.getState().go({ name: 'note', id });
}

/** The vet in front changed: the notes ready were the last vet's. */
export function forgetNotesReady(): void {
  useNoteReady.setState({ unseen: [], toasts: [] });
}

/** Another view shown: a note now looked at (or every note, in Consults) is seen. */
export function viewShown({ view }: { view: View }): void {
  const { unseen, toasts } = useNoteReady.getState();
  const left = view.name === 'consults' ? [] : unseen.filter((id) => !lookingAt(view, id));
  const shown = toasts.filter((t) => !lookingAt(view, t.id));
  if (left.length !== unseen.length || shown.length !== toasts.length)
    useNoteReady.setState({ unseen: left, toasts: shown });
}
