// The practice-management system (PIMS) for the vet in front, mirrored from main: whether this
// computer has one set up, the vet's own sign-in to it, and where each consult's note stands in
// the patient's record there. Each vet has their own PIMS sign-in, or none: the status is read
// again at every change of sign-in, and what was held of the last vet is forgotten. An answer
// asked for a vet who has left is dropped, never shown to the next.
import { create } from 'zustand';
import type { SessionInfo } from '../../../shared/ipc.ts';
import type { PimsNoteState, PimsStatus } from '../../../shared/pims.ts';
import { api } from '../api.ts';

interface PimsState {
  /** Null until main was asked for the vet in front. */
  status: PimsStatus | null;
  /** Where each consult's note stands in the PIMS, by consult id, as main last said. */
  notes: Record<string, PimsNoteState>;
  /** Reads the status from main. */
  load(): Promise<void>;
  /** Reads where a consult's note stands from main. */
  loadNote(id: string): Promise<void>;
}

// The vet the store's answers are for (undefined until main first says who is signed in); what is
// asked remembers it, and its answer is dropped once another vet is in front.
let signedInAs: string | null | undefined = undefined;
// Only the last read of the status counts: an older one may answer after a sign-in's own answer.
let lastRead = 0;

export const usePims = create<PimsState>((set) => ({
  status: null,
  notes: {},
  async load() {
    const asker = signedInAs;
    const mine = ++lastRead;
    const status = await api.pims.status();
    if (asker === signedInAs && mine === lastRead) set({ status });
  },
  async loadNote(id) {
    const asker = signedInAs;
    const state = await api.pims.noteState({ id });
    if (asker === signedInAs) set((s) => ({ notes: { ...s.notes, [id]: state } }));
  },
}));

/**
 * Runs a call of main's that answers with the status (sign-in, its cancel, sign-out) and keeps the
 * answer while the vet who asked is still in front; a read of the status still on its way is
 * older than this answer, and will not replace it.
 */
export async function pimsStatusCall(call: () => Promise<PimsStatus>): Promise<void> {
  const asker = signedInAs;
  const status = await call();
  lastRead++;
  if (asker === signedInAs) usePims.setState({ status });
}

/**
 * Runs a call of main's that answers where a consult's note stands (send, link) and keeps the
 * answer while the vet who asked is still in front.
 */
export async function pimsNoteCall(id: string, call: () => Promise<PimsNoteState>): Promise<void> {
  const asker = signedInAs;
  const state = await call();
  if (asker === signedInAs) usePims.setState((s) => ({ notes: { ...s.notes, [id]: state } }));
}

/** Main's `pims:note`: where a consult's note stands changed (sent, waiting, failed). */
export function pimsNoteChanged({ id, state }: { id: string; state: PimsNoteState }): void {
  usePims.setState((s) => ({ notes: { ...s.notes, [id]: state } }));
}

/** Main's `session:changed`: another vet has their own PIMS sign-in, or none; theirs is read afresh. */
export function pimsSessionChanged(session: SessionInfo): void {
  const userId = session.signedIn ? (session.user?.id ?? null) : null;
  if (userId === signedInAs) return;
  signedInAs = userId;
  lastRead++;
  usePims.setState({ status: null, notes: {} });
  if (userId !== null)
    void usePims
      .getState()
      .load()
      .catch(() => undefined);
}
