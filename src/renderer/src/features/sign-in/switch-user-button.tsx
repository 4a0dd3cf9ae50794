// The header's "Switch user": hands the computer to the next vet. The leaving vet's consults in
// flight go on with their own sign-in (main keeps it in the background). During a recording it
// asks first: stop and keep it, keep it recording (it stays the leaving vet's), or cancel.
import { useState } from 'react';
import { isCapturing, useRecorder } from '../../stores/recorder.ts';
import { useSession } from '../../stores/session.ts';
import { recorderStop, switchUser } from '../../stores/switch-user.ts';
import { useOwnConsultsUnderWay } from './under-way.ts';

export function SwitchUserButton() {
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);
  const user = useSession((s) => s.session.user);
  const recording = useRecorder((s) => isCapturing(s.status));
  const waiting = useOwnConsultsUnderWay();
  const who = user?.name || user?.email || 'The vet signed in';
  const note =
    waiting === 0
      ? `${who} switched user. Sign in to go on.`
      : `${who} switched user; ${waiting === 1 ? 'their consult is' : `their ${waiting} consults are`} being written with their own sign-in.`;
  const go = async (stopFirst: boolean) => {
    setAsking(false);
    setBusy(true);
    try {
      if (stopFirst) await recorderStop.stop?.();
      await switchUser({ note });
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button
        type="button"
        disabled={busy}
        aria-busy={busy}
        onClick={() => (recording ? setAsking(true) : void go(false))}
      >
        Switch user
      </button>
      {asking && (
        <div role="dialog" aria-modal="true" aria-labelledby="switch-user-question" className="switch-user-dialog">
          <p id="switch-user-question">A recording is going. Switch user?</p>
          <button type="button" className="primary" onClick={() => void go(true)}>
            Stop and keep
          </button>
          <button type="button" onClick={() => void go(false)}>
            Keep recording
          </button>
          <button type="button" onClick={() => setAsking(false)}>
            Cancel
          </button>
        </div>
      )}
    </>
  );
}
