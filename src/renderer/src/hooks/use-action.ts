// A consult's button that calls main (send, retry, ask again, delete): busy while the call runs,
// so it is not pressed twice, and a failure goes to the notifications store with what failed.
// The list's rows, the open note and a further document's tab act through it alike.
import { useState } from 'react';
import { useNotifications } from '../stores/notifications.ts';

export type RunAction = (what: string, call: () => Promise<unknown>) => Promise<void>;

export function useAction(): { busy: boolean; run: RunAction } {
  const [busy, setBusy] = useState(false);
  async function run(what: string, call: () => Promise<unknown>): Promise<void> {
    setBusy(true);
    try {
      await call();
    } catch (e) {
      useNotifications.getState().fail(e, what);
    } finally {
      setBusy(false);
    }
  }
  return { busy, run };
}
