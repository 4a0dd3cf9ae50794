// The day's appointments from the clinic's practice-management system (PIMS), as the Record view
// lists them: whether this computer has one and the vet in front is signed in to it (the PIMS
// store's status, read again here), and the day (pims:today), which main answers at once from the copy it keeps and
// follows with a `pims:day` event once a fresh read is in. Read when the view opens and at each
// sign-in, and followed only while the view is shown (followToday). What is held is the vet's
// it was read for: the view shows it to that vet alone, and an answer that lands after the vet
// in front changed is dropped.
import { create } from 'zustand';
import type { SessionInfo } from '../../../../shared/ipc.ts';
import type { PimsDay } from '../../../../shared/pims.ts';
import { api } from '../../api.ts';
import { usePims } from '../../stores/pims.ts';
import { useSession } from '../../stores/session.ts';

export interface TodayState {
  /** The vet in front the rest was read for; null when no one is signed in. */
  vet: string | null;
  /** Null until main answered, and while the vet is not signed in to the PIMS. */
  day: PimsDay | null;
  /** Why the list could not be read at all, in one sentence; null when it was. */
  error: string | null;
}

export const useToday = create<TodayState>(() => ({ vet: null, day: null, error: null }));

const vetOf = (session: SessionInfo): string | null => (session.signedIn ? (session.user?.id ?? null) : null);
const vetInFront = (): string | null => vetOf(useSession.getState().session);

/** The vet in front's: what is held of another vet is forgotten first. */
function forVet(vet: string | null): void {
  if (useToday.getState().vet !== vet) useToday.setState({ vet, day: null, error: null });
}

/**
 * A day to show, unless it is older than the one shown: the copy answered at once must not
 * replace the fresh list whose event came first.
 */
function dayHeard(vet: string | null, day: PimsDay): void {
  if (vet === null || vet !== vetInFront() || useToday.getState().vet !== vet) return;
  const shown = useToday.getState().day;
  const older =
    shown !== null &&
    shown.day === day.day &&
    shown.fetchedAt !== null &&
    (day.fetchedAt === null || Date.parse(day.fetchedAt) < Date.parse(shown.fetchedAt));
  if (!older) useToday.setState({ day, error: null });
}

function failed(vet: string, e: unknown): void {
  if (vet !== vetInFront()) return;
  useToday.setState({ error: `Today's appointments could not be read: ${(e as Error).message}` });
}

/** Reads whether the vet in front has the PIMS, and if so the day's list (at once, from main's copy). */
export async function loadToday(vet: string | null = vetInFront()): Promise<void> {
  forVet(vet);
  if (vet === null) return;
  try {
    await usePims.getState().load();
    if (vet !== vetInFront()) return;
    const status = usePims.getState().status;
    if (!status?.setup || !status.signedIn) {
      useToday.setState({ day: null, error: null });
      return;
    }
    dayHeard(vet, await api.pims.today());
  } catch (e) {
    failed(vet, e);
  }
}

/** Asks main to read the day again now; the fresh list follows as a `pims:day` event. */
export async function refreshToday(): Promise<void> {
  const vet = vetInFront();
  if (vet === null) return;
  try {
    dayHeard(vet, await api.pims.refreshToday());
  } catch (e) {
    failed(vet, e);
  }
}

/** While the Record view is shown: the list read now, at each sign-in, and kept by main's events. Returns its end. */
export function followToday(): () => void {
  const offs = [
    // A day told while the view says the vet is not signed in comes from a sign-in just made
    // (in Settings, the browser's page still open): the status is read again with it.
    api.on('pims:day', (day) => {
      if (usePims.getState().status?.signedIn) dayHeard(vetInFront(), day);
      else void loadToday();
    }),
    // The session's payload, not the store: this listener may run before the store has it.
    api.on('session:changed', (session) => void loadToday(vetOf(session))),
  ];
  void loadToday();
  return () => {
    for (const off of offs) off();
  };
}
