// Who is signed in, as main says. Changes only when main's event arrives.
import { create } from 'zustand';
import type { AppInfo, SessionInfo } from '../../../shared/ipc.ts';
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

api.on('session:changed', (session) => useSession.setState({ session }));
api.on('notice', (notice) => {
  const app = useSession.getState().app;
  if (app) useSession.setState({ app: { ...app, notices: [...app.notices, notice] } });
});
