// Nothing of the last vet's session on screen after Switch user, against the real engine: two
// vets of one clinic on one computer. What a view shows is read again at the next sign-in (the
// templates that name every row), and what failed while no one was signed in ("You are signed
// out") is not shown to the vet who signs in next.
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../src/main/core/app-core.ts';
import { COLLEAGUE_ACCOUNT } from '../../src/sandbox/state.ts';
import { App } from '../../src/renderer/src/app.tsx';
import { api } from '../../src/renderer/src/api.ts';
import { useNav } from '../../src/renderer/src/stores/nav.ts';
import { useRecorder } from '../../src/renderer/src/stores/recorder.ts';
import { useSession } from '../../src/renderer/src/stores/session.ts';
import { switchUser } from '../../src/renderer/src/stores/switch-user.ts';
import { useTemplates } from '../../src/renderer/src/stores/templates.ts';
import { windowWithEngine } from './support/window.ts';
import { recordConsult } from './support/recorded-consult.ts';

let core: AppCore;
let templateName = '';

beforeAll(async () => {
  ({ core } = await windowWithEngine({ signIn: true }));
  await useSession.getState().load();
  const template = (await api.templates.list({ page: 1 })).items[0]!;
  templateName = template.name;
  const id = await recordConsult({ patientName: 'Bella', templateId: template.id });
  await waitFor(() => expect(core.pipeline.info(id)?.state).toBe('completed'), { timeout: 15_000 });
}, 30_000);

afterEach(() => cleanup());
afterAll(async () => {
  await core.stop();
});

async function signIn(account: { email: string; password: string }) {
  await act(async () => {
    await core.session.signIn(account.email, account.password);
  });
  await screen.findByRole('navigation', { name: 'Main' });
}

/** Bella's row in the Consults list. */
const bellaRow = async () => (await screen.findByRole('heading', { name: /^Bella/ })).closest('li') as HTMLElement;

describe('after Switch user', () => {
  it('the next vet sees every row named by its template, and no error from while no one was signed in', async () => {
    render(<App />);
    await screen.findByRole('navigation', { name: 'Main' });
    act(() => useNav.getState().go({ name: 'consults' }));
    await waitFor(async () => expect((await bellaRow()).textContent).toContain(templateName));

    await act(() => switchUser());
    await screen.findByRole('button', { name: /sign in/i });
    // Whatever asked for the templates while no one was signed in was refused: that answer is
    // the last vet's session, not the next one's.
    await act(() => useTemplates.getState().load());
    expect(useTemplates.getState().error).toBeNull();

    await signIn(COLLEAGUE_ACCOUNT);
    act(() => useNav.getState().go({ name: 'consults' }));
    await waitFor(async () => expect((await bellaRow()).textContent).toContain(templateName));
    expect(document.body.textContent).not.toContain('Could not load the templates');
    expect(document.body.textContent).not.toContain('You are signed out');
  });

  it('after Keep recording and Stop, the next vet sees the templates and the rows named, not "You are signed out"', async () => {
    const demo = core.appInfo().sandbox!.demo;
    await act(async () => {
      await core.session.signIn(demo.email, demo.password);
    });
    render(<App />);
    await screen.findByRole('navigation', { name: 'Main' });
    act(() => useRecorder.setState({ status: 'recording' }));
    act(() => useNav.getState().go({ name: 'record' }));
    // Keep recording: the engine signs the vet out and the window stays up with the recorder.
    await act(() => switchUser());
    await waitFor(() => expect(useSession.getState().session.signedIn).toBe(false));
    // While no one is signed in the recorder offers no template field (nothing could be loaded or
    // saved), and a load asked anyway asks the engine nothing: no refusal is kept to show later.
    await act(() => useTemplates.getState().load());
    expect(screen.queryByRole('combobox', { name: 'Template' })).toBeNull();
    expect(useTemplates.getState().error).toBeNull();
    expect(document.body.textContent).not.toContain('Could not load the templates');
    act(() => useRecorder.setState({ status: 'stopped' }));
    act(() => useRecorder.setState({ status: 'idle' }));

    await signIn(COLLEAGUE_ACCOUNT);
    act(() => useNav.getState().go({ name: 'record' }));
    await act(() => new Promise((r) => setTimeout(r, 300)));
    expect(document.body.textContent).not.toContain('Could not load the templates');
    act(() => useNav.getState().go({ name: 'consults' }));
    await waitFor(async () => expect((await bellaRow()).textContent).toContain(templateName));
    expect(document.body.textContent).not.toContain('You are signed out');
  });
});
