// Signs out on click. The shell changes when main's 'session:changed' event arrives.
import { useState } from 'react';
import { api } from '../../api.ts';
import { useNotifications } from '../../stores/notifications.ts';

export function SignOutButton() {
  const [busy, setBusy] = useState(false);
  async function signOut() {
    setBusy(true);
    try {
      await api.session.signOut();
    } catch (e) {
      useNotifications.getState().fail(e, 'Could not sign out');
      setBusy(false);
    }
  }
  return (
    <button type="button" onClick={() => void signOut()} disabled={busy} aria-busy={busy}>
      Sign out
    </button>
  );
}
