// The one place where the window's stores hear main: each event with what it changes, and what
// a change of the vet in front clears. Called once at start-up (main.tsx), and by the renderer
// tests once their engine is up; nothing subscribes when it is imported, so a module may be
// imported in any order.
import type { Api, BridgeApi } from '../../shared/ipc.ts';
import { agentsConsultRemoved, agentsSessionChanged } from './features/agents/index.ts';
import { orgSessionChanged } from './features/settings/index.ts';
import { clinicChanged, clinicNoteReady, clinicSessionChanged } from './stores/clinic.ts';
import { consultChanged, consultRemoved, forgetConsults } from './stores/consults.ts';
import { engineLinkChanged } from './stores/engine-link.ts';
import { pimsNoteChanged, pimsSessionChanged } from './stores/pims.ts';
import { useNav } from './stores/nav.ts';
import { forgetNotesReady, noteReady, openReady, viewShown } from './stores/note-ready.ts';
import { forgetNotifications } from './stores/notifications.ts';
import { recorderSessionChanged } from './stores/recorder.ts';
import { noticeHeard, onVetChange, sessionChanged } from './stores/session.ts';
import { reloadSettings } from './stores/settings.ts';
import { forgetTemplates } from './stores/templates.ts';

/** Subscribes every store to its events; returns what undoes it all. */
export function connectStores(api: Api, bridge: BridgeApi): () => void {
  const offs = [
    // Who is signed in first: what a change of vet clears hangs on it.
    api.on('session:changed', sessionChanged),
    api.on('session:changed', reloadSettings),
    api.on('session:changed', clinicSessionChanged),
    api.on('session:changed', recorderSessionChanged),
    api.on('session:changed', agentsSessionChanged),
    api.on('session:changed', orgSessionChanged),
    api.on('session:changed', pimsSessionChanged),
    api.on('notice', noticeHeard),
    api.on('consult:changed', consultChanged),
    api.on('consult:removed', consultRemoved),
    api.on('consult:removed', agentsConsultRemoved),
    api.on('clinic:changed', clinicChanged),
    api.on('note:ready', noteReady),
    api.on('note:ready', clinicNoteReady),
    // A click on the desktop notification (main checked the consult is still this account's).
    api.on('consult:open', ({ id }) => openReady(id)),
    api.on('pims:note', pimsNoteChanged),
    useNav.subscribe(viewShown),
    // What a vet sees is that vet's: signed out, or another vet signed in, these go. (The
    // clinic's list, the recorder's form, the agents' panels, the organization's answers and
    // the PIMS's status follow `session:changed` above, each by its own rule.)
    onVetChange(() => {
      forgetConsults();
      forgetTemplates();
      forgetNotifications();
      forgetNotesReady();
    }),
    bridge.onLink?.(engineLinkChanged),
  ];
  return () => {
    for (const off of offs) off?.();
  };
}
