// The header's "Switch user": signs out at once and leaves the sign-in screen to the next vet,
// saying what of the vet signed out waits for their next sign-in.
import { useState } from 'react';
import { useSession } from '../../stores/session.ts';
import { switchUser } from '../../stores/switch-user.ts';
import { useOwnConsultsUnderWay } from './under-way.ts';

export function SwitchUserButton() {
  const [busy, setBusy] = useState(false);
  const user = useSession((s) => s.session.user);
  const waiting = useOwnConsultsUnderWay();
  const who = user?.name || user?.email || 'The vet signed in';
  const note =
    waiting === 0
      ? `${who} is signed out. Sign in to go on.`
      : `${who} is signed out; ${waiting === 1 ? 'their consult waits' : `their ${waiting} consults wait`} on this computer for their next sign-in.`;
  return (
    <button
      type="button"
      disabled={busy}
      aria-busy={busy}
      onClick={() => {
        setBusy(true);
        void switchUser({ note }).finally(() => setBusy(false));
      }}
    >
      Switch user
    </button>
  );
}
