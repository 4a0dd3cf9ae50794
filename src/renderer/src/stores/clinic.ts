// The clinic's consults from the service (recorded elsewhere), mirrored from main: the copy on
// disk when Consults opens, read again from the service once per sign-in, by Refresh, when a
// note becomes ready and as Consults opens if the last read is over a minute old (a consult
// another exam room recorded since shows up without a click, and opening the view again and
// again does not ask the service each time), and replaced by main's event when a refresh ends or
// a note is kept.
// Forgotten at every change of sign-in: they are the account's. Each read remembers whom it was
// made for, and its answer (or failure) is dropped once another vet is signed in: it is not theirs.
import { create } from 'zustand';
import type { ClinicView } from '../../../shared/clinic.ts';
import type { SessionInfo } from '../../../shared/ipc.ts';
import { api } from '../api.ts';

interface ClinicState {
  view: ClinicView | null;
  refreshing: boolean;
  /** The account whose list was read from the service in this run of the window. */
  refreshedFor: string | null;
  /** When the last read from the service was asked (`Date.now()`), for the vet signed in. */
  readAt: number | null;
  load(): Promise<void>;
  refresh(): Promise<void>;
}

/** How old the last read may be when Consults opens before the list is read again. */
export const READ_AGAIN_AFTER_MS = 60_000;

let signedInAs: string | null = null;
// The last read from the service asked: only its end says the list is no longer being read.
let lastRead = 0;

export const useClinic = create<ClinicState>((set, get) => ({
  view: null,
  refreshing: false,
  refreshedFor: null,
  readAt: null,
  async load() {
    const asker = signedInAs;
    const view = await api.clinic.list();
    // The copy on disk never replaces a list read since (a refresh may answer first).
    if (asker === signedInAs && get().view === null) set({ view });
  },
  async refresh() {
    const asker = signedInAs;
    const read = ++lastRead;
    set({ refreshing: true, refreshedFor: asker, readAt: Date.now() });
    try {
      const view = await api.clinic.refresh();
      if (asker === signedInAs) set({ view });
    } catch (e) {
      // A failure of the last vet's read is not the next vet's to see.
      if (asker === signedInAs) throw e;
    } finally {
      if (read === lastRead) set({ refreshing: false });
    }
  },
}));

/** Reads the list from the service once for the account signed in (at sign-in, or at launch with a kept sign-in). */
export function refreshOncePerSignIn(userId: string | null): void {
  signedInAs = userId;
  const state = useClinic.getState();
  // A read still running for the vet who left does not stand for this vet's.
  if (userId === null || state.refreshedFor === userId) return;
  void state.refresh().catch(() => undefined);
}

/**
 * At sign-in, or at launch with a kept sign-in: the copy on disk, then the service once, so
 * Consults opens on the list already read instead of asking for it as it opens.
 */
export function readAtSignIn(userId: string | null): void {
  if (userId === null) return;
  const copy = useClinic.getState().view === null ? useClinic.getState().load() : Promise.resolve();
  void copy.catch(() => undefined).then(() => refreshOncePerSignIn(userId));
}

/** Consults opened: the list is read again if its last read was asked over a minute ago. */
export function readIfOld(): void {
  const { readAt, refreshing } = useClinic.getState();
  if (signedInAs === null || refreshing || (readAt !== null && Date.now() - readAt < READ_AGAIN_AFTER_MS)) return;
  void useClinic
    .getState()
    .refresh()
    .catch(() => undefined);
}

/** Main's `clinic:changed`: the list as a refresh or a note kept left it. */
export function clinicChanged(view: ClinicView): void {
  useClinic.setState({ view });
}

/** Main's `session:changed`: another account's list is not this one's; the next is read once. */
export function clinicSessionChanged(session: SessionInfo): void {
  const userId = session.signedIn ? (session.user?.id ?? null) : null;
  if (userId === signedInAs) return;
  useClinic.setState({ view: null, refreshedFor: null, refreshing: false, readAt: null });
  refreshOncePerSignIn(userId);
}

/** Main's `note:ready`: a note ready here means the clinic's list has moved on too. */
export function clinicNoteReady(): void {
  if (signedInAs !== null)
    void useClinic
      .getState()
      .refresh()
      .catch(() => undefined);
}
