// What a colleague may do with another vet's consult, said before any click, against the real
// engine: two vets of one clinic on one computer. The vet who recorded a consult and never sent it
// steps away with Switch user; the colleague who signs in sees, in place of Send, Change patient
// details, Retry and Ask again, the engine's one sentence for why not, and no button that would
// be refused after the click.
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { COLLEAGUE_ACCOUNT } from '../../../../src/sandbox/state.ts';
import { ConsultsView } from '../../../../src/renderer/src/features/consult-list/consults-view.tsx';
import { NoteView } from '../../../../src/renderer/src/features/note/note-view.tsx';
import { ConsultRow } from '../../../../src/renderer/src/features/consult-list/consult-row.tsx';
import { useConsults } from '../../../../src/renderer/src/stores/consults.ts';
import { useSession } from '../../../../src/renderer/src/stores/session.ts';
import { windowWithEngine } from '../../support/window.ts';
import { recordConsult } from '../../support/recorded-consult.ts';
import { consult, job, recording } from '../../support/consult-info.ts';

let core: AppCore;
let owner = '';
let rex = '';

beforeAll(async () => {
  ({ core } = await windowWithEngine({ signIn: true }));
  // Recorded and not sent: Rex waits for a template.
  rex = await recordConsult({ patientName: 'Rex' });
  owner = core.session.state().user?.name ?? '';
  expect(owner).not.toBe('');
  await act(async () => {
    await core.session.signOut('user');
    await core.session.signIn(COLLEAGUE_ACCOUNT.email, COLLEAGUE_ACCOUNT.password);
    await useSession.getState().load();
    await useConsults.getState().load();
  });
}, 30_000);

afterEach(() => cleanup());
afterAll(async () => {
  await core.stop();
});

describe("a colleague's unsent consult", () => {
  it('says who may send it and change its patient, in place of Send and of the patient form', async () => {
    render(<ConsultsView />);
    const row = screen.getByRole('heading', { name: /^Rex/ }).closest('li') as HTMLElement;
    expect(within(row).queryByRole('button', { name: 'Send' })).toBeNull();
    expect(within(row).queryByRole('combobox')).toBeNull();
    expect(row.textContent).toContain(`Only ${owner} can send this consult.`);
    cleanup();

    render(<NoteView id={rex} />);
    await screen.findByRole('heading', { name: 'Rex', level: 1 });
    expect(screen.queryByRole('button', { name: 'Change patient details' })).toBeNull();
    expect(screen.getByText(`Only ${owner} can change this consult.`)).toBeTruthy();
  });

  it('says who may retry a failed one and ask again for a late one, in place of the buttons', () => {
    const failed = {
      ...consult(recording({ patientName: 'Otis' }), job({ state: 'failed' })),
      retryRefused: `Only ${owner} can retry this consult.`,
    };
    const late = {
      ...consult(recording({ patientName: 'Milo' }), job({ state: 'scribe_requested', overdue: true })),
      askAgainRefused: `Only ${owner} can ask again for this consult's note.`,
    };
    render(
      <ul>
        <ConsultRow consult={failed} />
        <ConsultRow consult={late} />
      </ul>,
    );
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(screen.getByText(`Only ${owner} can retry this consult.`)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Ask again' })).toBeNull();
    expect(screen.getByText(`Only ${owner} can ask again for this consult's note.`)).toBeTruthy();
    cleanup();

    // The same in the note view, where the note is not ready yet.
    for (const [c, button, why] of [
      [failed, 'Retry', failed.retryRefused],
      [late, 'Ask again', late.askAgainRefused],
    ] as const) {
      const id = `${c.recording.id}-${button === 'Retry' ? 'a' : 'b'}`;
      const shown = { ...c, recording: { ...c.recording, id }, job: c.job && { ...c.job, recordingId: id } };
      act(() => useConsults.setState((st) => ({ byId: { ...st.byId, [id]: shown } })));
      render(<NoteView id={id} />);
      expect(screen.getByText(why)).toBeTruthy();
      expect(screen.queryByRole('button', { name: button })).toBeNull();
      cleanup();
    }
  });
});
