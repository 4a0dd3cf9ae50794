// Signs out on click. The shell changes when main's 'session:changed' event arrives. With the
// vet's own consults still on their way to the service it says first what will wait: they stay
// on this computer and go on at that account's next sign-in, never with anyone else's.
import { useState } from 'react';
import { api } from '../../api.ts';
import { useNotifications } from '../../stores/notifications.ts';
import { whenRecordingStarted } from '../../stores/recorder.ts';
import { keepBeforeLeaving } from '../../stores/switch-user.ts';
import { useOwnConsultsUnderWay } from './under-way.ts';

/**
 * How long the sign-out waits for a recording whose Start was pressed a moment before to be
 * made in main: made after it, the recording would be no one's, for any vet to take.
 */
const STARTING_WAIT_MS = 10_000;

export function SignOutButton() {
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);
  const waiting = useOwnConsultsUnderWay();

  async function signOut() {
    setBusy(true);
    try {
      await whenRecordingStarted(STARTING_WAIT_MS);
      await keepBeforeLeaving();
      await api.session.signOut();
    } catch (e) {
      useNotifications.getState().fail(e, 'Could not sign out');
      setBusy(false);
    }
  }

  if (asking) {
    return (
      <span className="sign-out-ask" role="alert">
        {waiting === 1 ? '1 consult is' : `${waiting} consults are`} still on the way to the service;{' '}
        {waiting === 1 ? 'it waits' : 'they wait'} on this computer for your next sign-in.{' '}
        <button type="button" onClick={() => void signOut()} disabled={busy} aria-busy={busy}>
          Sign out anyway
        </button>{' '}
        <button type="button" onClick={() => setAsking(false)} disabled={busy}>
          Stay signed in
        </button>
      </span>
    );
  }
  return (
    <button
      type="button"
      onClick={() => (waiting > 0 ? setAsking(true) : void signOut())}
      disabled={busy}
      aria-busy={busy}
    >
      Sign out
    </button>
  );
}
