// "Switch user" on a shared exam-room PC: the vet in front hands the computer over. Their
// consults in flight go on with their own sign-in, kept in main (the window never sees it);
// the sign-in screen is ready for the next vet. From a consult waiting for its owner, the
// screen comes with the owner's e-mail filled in.
import { create } from 'zustand';
import { api } from '../api.ts';
import { useNotifications } from './notifications.ts';
import { useSession } from './session.ts';

export interface NextSignIn {
  /** Filled in on the sign-in screen (the owner of a waiting consult). */
  email?: string;
  /** One sentence above the form: who left, what goes on for them. */
  note?: string;
}

export const useNextSignIn = create<{ next: NextSignIn | null }>(() => ({ next: null }));

/**
 * How the header stops a recording before switching ("Stop and keep"), set by the recorder when
 * it starts, so the sign-in feature need not reach into the recorder's.
 */
export const recorderStop: { stop: (() => Promise<void>) | null } = { stop: null };

/**
 * What must reach main as the leaving vet's before the computer changes hands: a note's edit
 * typed in the last moments and not yet kept (features/note/use-draft-autosave.ts). Once the
 * switch is made, a call acts for no one, and those keys would be lost.
 */
const beforeLeaving = new Set<() => Promise<unknown>>();

/** Registers `keep` to run before Switch user or sign-out; returns its removal. */
export function whenLeaving(keep: () => Promise<unknown>): () => void {
  beforeLeaving.add(keep);
  return () => {
    beforeLeaving.delete(keep);
  };
}

/** How long the switch waits for what must be kept first: an engine that does not answer does not hold the vet up. */
const KEEP_FOR_MS = 2000;

/** Runs what was registered with whenLeaving; a failure of one, or an engine not answering, does not hold up the switch. */
export async function keepBeforeLeaving(): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    Promise.all([...beforeLeaving].map((keep) => keep().catch(() => undefined))),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, KEEP_FOR_MS))),
  ]);
  clearTimeout(timer);
}

export async function switchUser(next: NextSignIn = {}): Promise<void> {
  await keepBeforeLeaving();
  useNextSignIn.setState({ next });
  try {
    await api.session.switchUser();
  } catch (e) {
    useNextSignIn.setState({ next: null });
    useNotifications.getState().fail(e, 'Could not switch user');
    return;
  }
  // A window that had not heard the engine sign out (it restarted meanwhile) catches up here.
  if (useSession.getState().session.signedIn) await useSession.getState().load();
}
