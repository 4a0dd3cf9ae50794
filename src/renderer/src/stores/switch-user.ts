// "Switch user" on a shared exam-room PC: the vet signed in now is signed out without a
// question (nothing is lost: every account's consults wait on this computer for their own
// sign-in), and the sign-in screen is ready for the next vet. From a consult waiting for its
// owner, the screen comes with the owner's e-mail filled in.
import { create } from 'zustand';
import { api } from '../api.ts';
import { useNotifications } from './notifications.ts';
import { useSession } from './session.ts';

export interface NextSignIn {
  /** Filled in on the sign-in screen (the owner of a waiting consult). */
  email?: string;
  /** One sentence above the form: who was signed out, what waits for whom. */
  note?: string;
}

export const useNextSignIn = create<{ next: NextSignIn | null }>(() => ({ next: null }));

export async function switchUser(next: NextSignIn = {}): Promise<void> {
  useNextSignIn.setState({ next });
  try {
    await api.session.signOut();
  } catch (e) {
    useNextSignIn.setState({ next: null });
    useNotifications.getState().fail(e, 'Could not sign out');
    return;
  }
  // A window that had not heard the engine sign out (it restarted meanwhile) catches up here.
  if (useSession.getState().session.signedIn) await useSession.getState().load();
}
