// A note the service is slow to finish, on the real core and its sandbox: the sandbox takes two
// minutes to scribe and the engine's wait is cut to about a second, so the consult turns late
// for real. The window says so in words (with the wait Settings gives), and "Ask again" asks
// the service again for the same recording.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { ConsultsView } from '../../../../src/renderer/src/features/consult-list/consults-view.tsx';
import { NoteView } from '../../../../src/renderer/src/features/note/note-view.tsx';
import { windowWithEngine } from '../../support/window.ts';
import { firstTemplateId, recordConsult } from '../../support/recorded-consult.ts';
import { useSettings } from '../../../../src/renderer/src/stores/settings.ts';

const LATE = 'The service has not finished this note after 30 minutes. It is still being checked every 2 minutes.';

describe('a late note', () => {
  let core: AppCore;
  let id: string;

  beforeAll(async () => {
    // About a second of waiting stands for the 30 minutes of Settings, which the window names.
    ({ core } = await windowWithEngine({
      signIn: true,
      scribeSeconds: 120,
      pipeline: { overdueMinutes: () => 0.02 },
    }));
    await useSettings.getState().load();
    id = await recordConsult({ patientName: 'Pepper', description: 'Cough', templateId: await firstTemplateId() });
    await waitFor(() => expect(core.pipeline.info(id)?.overdue).toBe(true), { timeout: 20_000 });
  }, 40_000);
  afterEach(cleanup);
  afterAll(async () => {
    await core.stop();
  });

  it('says in the list, in words, that the service has not finished, and offers Ask again', async () => {
    render(<ConsultsView />);
    const pepper = within(await screen.findByRole('article', { name: 'Pepper — Cough' }));
    expect(pepper.getByText(LATE)).toBeTruthy();
    expect(pepper.getByRole('button', { name: 'Ask again' })).toBeTruthy();
    expect(pepper.queryByText('Note ready')).toBeNull();
  });

  it('Ask again on the note view sends a new scribe request for the same recording', async () => {
    render(<NoteView id={id} />);
    await screen.findByText(`The note is not ready yet: ${LATE}`);
    const sessions = core.pipeline.counters.scribeRequests;
    fireEvent.click(screen.getByRole('button', { name: 'Ask again' }));
    await waitFor(() => expect(core.pipeline.counters.scribeRequests).toBe(sessions + 1), { timeout: 15_000 });
    // The request is counted as it leaves; the job records it once the service has answered.
    await waitFor(() => expect(core.pipeline.info(id)?.state).toBe('scribe_requested'), { timeout: 15_000 });
    expect(core.pipeline.counters.scribeRequests).toBe(sessions + 1);
  }, 20_000);
});
