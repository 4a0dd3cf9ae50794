// Who is signed in, as main says. Changes only when main's event arrives.
import { create } from 'zustand';
import type { AppInfo, Notice, SessionInfo } from '../../../shared/ipc.ts';
import { api } from '../api.ts';

interface SessionState {
  loaded: boolean;
  session: SessionInfo;
  app: AppInfo | null;
  load(): Promise<void>;
}

export const useSession = create<SessionState>((set) => ({
  loaded: false,
  session: { signedIn: false, user: null, endedBecause: null },
  app: null,
  async load() {
    const [session, app] = await Promise.all([api.session.get(), api.app.info()]);
    set({ session, app, loaded: true });
  },
}));

/** Main's `session:changed`: who is signed in now. */
export function sessionChanged(session: SessionInfo): void {
  useSession.setState({ session });
}

/** Main's `notice`: one more thing the app has to say (after a restart, a recovery). */
export function noticeHeard(notice: Notice): void {
  const app = useSession.getState().app;
  if (app) useSession.setState({ app: { ...app, notices: [...app.notices, notice] } });
}

/**
 * Calls `forget` whenever the vet in front changes (signed out, or another vet signed in): what a
 * store holds of the vet who left is not for the next one. Returns its removal.
 */
export function onVetChange(forget: () => void): () => void {
  const vet = (s: SessionState) => (s.session.signedIn ? (s.session.user?.id ?? null) : null);
  return useSession.subscribe((now, before) => {
    if (vet(now) !== vet(before)) forget();
  });
}
