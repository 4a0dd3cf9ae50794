// A note from another room that was edited there, in this window, against the real engine, its
// sandbox and the clinic relay itself: Exam room 1 (a second engine, its own folder) records Bella
// and the vet saves an edit; the relay passes the announcement on, and the note view here says
// where, by whom and when it was edited in place of the generic "may have been edited" line.
import { render, screen } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { createHandlers } from '../../../../src/main/core/ipc-handlers.ts';
import type { Sandbox } from '../../../../src/sandbox/index.ts';
import { findClinicNote, SERVICE_ORIGINAL } from '../../../../src/shared/clinic.ts';
import type { WebhookReceiver } from '../../../../src/webhook-receiver/receiver.ts';
import { ClinicNoteView } from '../../../../src/renderer/src/features/clinic/clinic-note-view.tsx';
import { useSession } from '../../../../src/renderer/src/stores/session.ts';
import { startCoreAgainst, until } from '../../../support/core.ts';
import { relayOf } from '../../../main/core/relay/support.ts';
import { recordNote } from '../../support/exam-room.ts';
import { tidyWindowTests, windowWithEngine } from '../../support/window.ts';

let core: AppCore;
let elsewhere: AppCore<Sandbox> | undefined;
let relay: WebhookReceiver | undefined;
let noteKey: string;
tidyWindowTests(
  () => ({ core }),
  () => undefined,
);

beforeAll(async () => {
  core = (await windowWithEngine({ signIn: true })).core;
  const sandbox = (core as AppCore<Sandbox>).embeddedSandbox!;
  relay = await relayOf(sandbox);
  const room1 = (elsewhere = await startCoreAgainst(sandbox, {
    relay: { heartbeatMs: 200, computerName: 'Exam room 1', editDebounceMs: 100 },
  }));
  await room1.appSettings.update({ relayUrl: relay.url });
  await room1.session.signIn(sandbox.demo.email, sandbox.demo.password);
  const h = createHandlers(room1);
  const id = await recordNote(room1, 'Bella', 'Limping on the left hind');
  const [scribeId] = room1.pipeline.serviceIds(id).scribeIds;
  // This window's computer hears the relay too.
  await core.appSettings.update({ relayUrl: relay.url });
  await until(() => core.relay.status().state === 'connected', 15_000);
  await until(() => room1.relay.status().state === 'connected', 15_000);
  await h['consults:saveNote']({ id, text: 'Plan\nMeloxicam 0.1 mg/kg PO once daily for 5 days.' });
  const here = createHandlers(core);
  const view = await here['clinic:refresh'](undefined);
  if (!view.ok) throw new Error(view.error.message);
  noteKey = findClinicNote(view.data.consults, scribeId!)!.key;
  // The announcement travels on its own: waited for as the engine sees it.
  const deadline = Date.now() + 15_000;
  for (;;) {
    const note = await here['clinic:note']({ key: noteKey });
    if ((note.ok && note.data.editedElsewhere) || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await useSession.getState().load();
}, 90_000);
afterAll(async () => {
  await elsewhere?.stop();
  await relay?.close();
});

describe('a note from another room, edited there', () => {
  it('says where it was edited, by whom and when, instead of the generic line', async () => {
    render(<ClinicNoteView noteKey={noteKey} />);
    const line = await screen.findByText(/^Edited on Exam room 1 by Dr\. Demo Vet at \d{1,2}:\d{2}/);
    expect(line.textContent).toMatch(/the edited note is on that PC\.$/);
    expect(screen.queryByText(SERVICE_ORIGINAL)).toBeNull();
    // What is shown is still the service's original: the edit's text never came here.
    expect((await screen.findByRole('region', { name: 'Note' })).textContent).not.toMatch(/for 5 days/);
  });
});
