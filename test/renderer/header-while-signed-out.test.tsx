// The header while no one is signed in and a recording goes on (Switch user's "Keep recording"),
// against the real engine: it says whose recording is going and offers only Sign in, whose
// screen keeps the recording one click away; Switch user and Sign out come back with a vet.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../src/main/core/app-core.ts';
import { COLLEAGUE_ACCOUNT } from '../../src/sandbox/state.ts';
import { App } from '../../src/renderer/src/app.tsx';
import { useNav } from '../../src/renderer/src/stores/nav.ts';
import { useRecorder } from '../../src/renderer/src/stores/recorder.ts';
import { useSession } from '../../src/renderer/src/stores/session.ts';
import { switchUser } from '../../src/renderer/src/stores/switch-user.ts';
import { windowWithEngine } from './support/window.ts';

let core: AppCore;

beforeAll(async () => {
  ({ core } = await windowWithEngine({ signIn: true }));
  await useSession.getState().load();
}, 30_000);
afterEach(() => cleanup());
afterAll(async () => {
  useRecorder.setState({ status: 'idle', owner: null });
  await core.stop();
});

describe('the header during a recording kept going with no one signed in', () => {
  it('names whose recording it is, offers Sign in and not Switch user or Sign out, and the sign-in screen leads back to the recording', async () => {
    render(<App />);
    await screen.findByRole('navigation', { name: 'Main' });
    const me = core.session.state().user!;
    // A recording of this vet goes on (its microphone is the recorder's own, tested with it).
    act(() => useRecorder.setState({ status: 'recording', owner: { id: me.id, name: me.name } }));
    act(() => useNav.getState().go({ name: 'record' }));
    await act(() => switchUser());
    await waitFor(() => expect(useSession.getState().session.signedIn).toBe(false));

    const header = screen.getByRole('banner');
    expect(within(header).queryByRole('button', { name: 'Switch user' })).toBeNull();
    expect(within(header).queryByRole('button', { name: 'Sign out' })).toBeNull();
    expect(header.textContent).toContain(`Recording for ${me.name} · no one signed in`);
    // The banner says what Keep recording chose, not that a session ran out.
    expect(document.body.textContent).not.toContain('session has ended');

    fireEvent.click(within(header).getByRole('button', { name: 'Sign in' }));
    await screen.findByRole('textbox', { name: 'Email' });
    expect(useRecorder.getState().status).toBe('recording');
    expect(screen.getByText(`${me.name}’s recording goes on.`)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Back to the recording' }));
    await screen.findByRole('heading', { name: 'Record a consult' });
    expect(screen.queryByRole('textbox', { name: 'Email' })).toBeNull();

    // The next vet signs in from there: the header is theirs, with Switch user and Sign out again.
    fireEvent.click(within(screen.getByRole('banner')).getByRole('button', { name: 'Sign in' }));
    await screen.findByRole('textbox', { name: 'Email' });
    await act(async () => {
      await core.session.signIn(COLLEAGUE_ACCOUNT.email, COLLEAGUE_ACCOUNT.password);
    });
    const theirs = await screen.findByRole('banner');
    await within(theirs).findByRole('button', { name: 'Switch user' });
    expect(within(theirs).getByRole('button', { name: 'Sign out' })).toBeTruthy();
    expect(within(theirs).queryByRole('button', { name: 'Sign in' })).toBeNull();
    expect(theirs.textContent).toContain('Dr. Colleague Vet');
    expect(theirs.textContent).not.toContain('no one signed in');

    // The colleague switches user in turn while the recording goes on: the question says whose
    // recording it is, never that it is sent "as yours".
    fireEvent.click(within(theirs).getByRole('button', { name: 'Switch user' }));
    const question = screen.getByRole('alertdialog', { name: 'A recording is going. Switch user?' });
    expect(question.textContent).toContain(`It is ${me.name}’s recording.`);
    expect(question.textContent).not.toContain('as yours');
    fireEvent.click(within(question).getByRole('button', { name: 'Cancel' }));
  }, 30_000);
});
