// Whether the app's engine is there (the browser host, whose engine can stop while the window
// stays open). When it comes back, what the window shows is loaded again: events sent while it
// was away were missed, and a restarted engine may have signed the vet out.
import { create } from 'zustand';
import { useConsults } from './consults.ts';
import { useSession } from './session.ts';
import { useSettings } from './settings.ts';

export const useEngineLink = create<{ up: boolean }>(() => ({ up: true }));

/** The bridge's link to the engine went down or came back. */
export function engineLinkChanged(up: boolean): void {
  useEngineLink.setState({ up });
  if (!up) return;
  void useSession
    .getState()
    .load()
    .then(() => {
      if (!useSession.getState().session.signedIn) return;
      return Promise.all([useSettings.getState().load(), useConsults.getState().load()]);
    })
    .catch(() => undefined);
}
