// The clinic's consults from the service (recorded elsewhere), mirrored from main: the copy on
// disk when Consults opens, read again from the service once per sign-in, by Refresh and when a
// note becomes ready, and replaced by main's event when a refresh ends or a note is kept.
// Forgotten at every change of sign-in: they are the account's.
import { create } from 'zustand';
import type { ClinicView } from '../../../shared/clinic.ts';
import { api } from '../api.ts';

interface ClinicState {
  view: ClinicView | null;
  refreshing: boolean;
  /** The account whose list was read from the service in this run of the window. */
  refreshedFor: string | null;
  load(): Promise<void>;
  refresh(): Promise<void>;
}

let signedInAs: string | null = null;

export const useClinic = create<ClinicState>((set, get) => ({
  view: null,
  refreshing: false,
  refreshedFor: null,
  async load() {
    const view = await api.clinic.list();
    // The copy on disk never replaces a list read since (a refresh may answer first).
    if (get().view === null) set({ view });
  },
  async refresh() {
    set({ refreshing: true, refreshedFor: signedInAs });
    try {
      set({ view: await api.clinic.refresh() });
    } finally {
      set({ refreshing: false });
    }
  },
}));

/** Reads the list from the service once for the account signed in (at sign-in, or at launch with a kept sign-in). */
export function refreshOncePerSignIn(userId: string | null): void {
  signedInAs = userId;
  const state = useClinic.getState();
  if (userId === null || state.refreshedFor === userId || state.refreshing) return;
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

api.on('clinic:changed', (view) => useClinic.setState({ view }));
api.on('session:changed', (session) => {
  const userId = session.signedIn ? (session.user?.id ?? null) : null;
  if (userId === signedInAs) return;
  useClinic.setState({ view: null, refreshedFor: null });
  refreshOncePerSignIn(userId);
});
// A note ready here means the clinic's list has moved on too.
api.on('note:ready', () => {
  if (signedInAs !== null)
    void useClinic
      .getState()
      .refresh()
      .catch(() => undefined);
});
