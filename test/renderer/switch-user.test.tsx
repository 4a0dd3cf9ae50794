// "Switch user" against the real core: during a recording it asks first (Stop and keep / Keep
// recording / Cancel); without one it hands over at once. The switch is the engine's own
// (signed out in front, `switched` said), never a plain sign-out.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../src/main/core/app-core.ts';
import type * as ButtonModule from '../../src/renderer/src/features/sign-in/switch-user-button.tsx';
import type * as RecorderStoreModule from '../../src/renderer/src/stores/recorder.ts';
import type * as SwitchModule from '../../src/renderer/src/stores/switch-user.ts';
import type * as AppModule from '../../src/renderer/src/app.tsx';
import type * as SignOutModule from '../../src/renderer/src/features/sign-in/sign-out-button.tsx';
import { windowWithEngine } from './support/window.ts';

let core: AppCore;
let m: typeof ButtonModule & typeof RecorderStoreModule & typeof SwitchModule & typeof AppModule & typeof SignOutModule;
const order: string[] = [];

beforeAll(async () => {
  ({ core } = await windowWithEngine({ signIn: true }));
  m = {
    ...(await import('../../src/renderer/src/features/sign-in/switch-user-button.tsx')),
    ...(await import('../../src/renderer/src/stores/recorder.ts')),
    ...(await import('../../src/renderer/src/stores/switch-user.ts')),
    ...(await import('../../src/renderer/src/app.tsx')),
    ...(await import('../../src/renderer/src/features/sign-in/sign-out-button.tsx')),
  };
  // The recorder's stop is its own (tested with the recorder); here, when it is asked for.
  m.recorderStop.stop = async () => {
    order.push(`stop while signed in: ${core.session.state().signedIn}`);
    m.useRecorder.setState({ status: 'stopped' });
  };
}, 30_000);

afterEach(() => cleanup());
afterAll(async () => {
  await core.stop();
});

async function signBackIn() {
  const demo = core.appInfo().sandbox!.demo;
  await act(async () => {
    await core.session.signIn(demo.email, demo.password);
  });
}

describe('Switch user', () => {
  it('asks during a recording; Cancel keeps everything, Keep recording switches without stopping, Stop and keep stops first', async () => {
    m.useRecorder.setState({ status: 'recording' });
    render(<m.SwitchUserButton />);
    fireEvent.click(screen.getByRole('button', { name: 'Switch user' }));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog.textContent).toContain('A recording is going. Switch user?');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(core.session.state().signedIn).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Switch user' }));
    fireEvent.click(screen.getByRole('button', { name: 'Keep recording' }));
    await waitFor(() => expect(core.session.state().signedIn).toBe(false));
    expect(core.calls.sessionInfo()).toMatchObject({ signedIn: false, switched: true });
    expect(order).toEqual([]);
    expect(m.useRecorder.getState().status).toBe('recording');

    await signBackIn();
    fireEvent.click(screen.getByRole('button', { name: 'Switch user' }));
    fireEvent.click(screen.getByRole('button', { name: 'Stop and keep' }));
    await waitFor(() => expect(core.session.state().signedIn).toBe(false));
    expect(order).toEqual(['stop while signed in: true']);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('without a recording, switches at once', async () => {
    await signBackIn();
    m.useRecorder.setState({ status: 'idle' });
    render(<m.SwitchUserButton />);
    fireEvent.click(screen.getByRole('button', { name: 'Switch user' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await waitFor(() => expect(core.session.state().signedIn).toBe(false));
    expect(m.useNextSignIn.getState().next?.note).toBe('Dr. Demo Vet switched user. Sign in to go on.');
  });

  it('Stop then Switch user at once: no question about a recording that is ending; the switch goes ahead once it has', async () => {
    await signBackIn();
    order.length = 0;
    // Stop was pressed a moment ago: the last chunks are still on their way to main.
    m.useRecorder.setState({ status: 'stopping' });
    render(<m.SwitchUserButton />);
    fireEvent.click(screen.getByRole('button', { name: 'Switch user' }));
    expect(screen.queryByText('A recording is going. Switch user?')).toBeNull();
    // Not before the recording is kept: the consult is finished while its vet is still signed in.
    await act(() => new Promise((r) => setTimeout(r, 300)));
    expect(core.session.state().signedIn).toBe(true);
    act(() => m.useRecorder.setState({ status: 'stopped' }));
    await waitFor(() => expect(core.session.state().signedIn).toBe(false));
    expect(order).toEqual([]);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('Start then Switch user at once: Keep recording waits until the recording is made, so it is made with its vet’s sign-in', async () => {
    await signBackIn();
    order.length = 0;
    // Start was pressed a moment ago: the microphone is opening, main has not made the consult yet.
    m.useRecorder.setState({ status: 'starting' });
    render(<m.SwitchUserButton />);
    fireEvent.click(screen.getByRole('button', { name: 'Switch user' }));
    fireEvent.click(screen.getByRole('button', { name: 'Keep recording' }));
    // Made after the switch, the recording would belong to no one, and any vet could take it.
    await act(() => new Promise((r) => setTimeout(r, 300)));
    expect(core.session.state().signedIn).toBe(true);
    act(() => m.useRecorder.setState({ status: 'recording' }));
    await waitFor(() => expect(core.session.state().signedIn).toBe(false));
    expect(m.useRecorder.getState().status).toBe('recording');
    expect(order).toEqual([]);
    m.useRecorder.setState({ status: 'idle' });
  });

  it('Start then Sign out at once: the sign-out waits until the recording is made, with its vet’s sign-in', async () => {
    await signBackIn();
    m.useRecorder.setState({ status: 'starting' });
    render(<m.SignOutButton />);
    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await act(() => new Promise((r) => setTimeout(r, 300)));
    expect(core.session.state().signedIn).toBe(true);
    act(() => m.useRecorder.setState({ status: 'recording' }));
    await waitFor(() => expect(core.session.state().signedIn).toBe(false));
    m.useRecorder.setState({ status: 'idle' });
  });

  it('asked during a recording that then ends (the tray, the longest recording): the question goes, and the switch goes ahead', async () => {
    await signBackIn();
    m.useRecorder.setState({ status: 'recording' });
    render(
      <header>
        <m.SwitchUserButton />
      </header>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Switch user' }));
    const question = screen.getByRole('alertdialog', { name: 'A recording is going. Switch user?' });
    // Given room below the header, not squeezed into it; the keyboard lands on what loses nothing.
    expect(question.closest('header')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
    act(() => m.useRecorder.setState({ status: 'stopping' }));
    expect(screen.queryByText('A recording is going. Switch user?')).toBeNull();
    act(() => m.useRecorder.setState({ status: 'stopped' }));
    await waitFor(() => expect(core.session.state().signedIn).toBe(false));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(order).toEqual([]);
  });

  it('Keep recording: the banner says who switched user and that the recording goes on as theirs, not that a session ended', async () => {
    await signBackIn();
    const me = core.session.state().user!;
    m.useRecorder.setState({ status: 'recording', owner: { id: me.id, name: me.name } });
    render(
      <header>
        <m.SwitchUserButton />
      </header>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Switch user' }));
    fireEvent.click(screen.getByRole('button', { name: 'Keep recording' }));
    await waitFor(() => expect(core.session.state().signedIn).toBe(false));
    render(<m.SignedOutWhileRecording />);
    const banner = await screen.findByText(/switched user/);
    expect(banner.textContent).toBe(
      `${me.name} switched user. The recording goes on and is kept as theirs: stop it when the consult ends, and it is sent with their own sign-in. The next vet can sign in now or after Stop.`,
    );
    expect(screen.queryByText(/session has ended/)).toBeNull();
    m.useRecorder.setState({ status: 'idle', owner: null });
  });
});
