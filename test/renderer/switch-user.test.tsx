// "Switch user" against the real core: during a recording it asks first (Stop and keep / Keep
// recording / Cancel); without one it hands over at once. The switch is the engine's own
// (signed out in front, `switched` said), never a plain sign-out.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../src/main/core/app-core.ts';
import type * as ButtonModule from '../../src/renderer/src/features/sign-in/switch-user-button.tsx';
import type * as RecorderStoreModule from '../../src/renderer/src/stores/recorder.ts';
import type * as SwitchModule from '../../src/renderer/src/stores/switch-user.ts';
import { windowWithEngine } from './support/window.ts';

let core: AppCore;
let m: typeof ButtonModule & typeof RecorderStoreModule & typeof SwitchModule;
const order: string[] = [];

beforeAll(async () => {
  ({ core } = await windowWithEngine({ signIn: true }));
  m = {
    ...(await import('../../src/renderer/src/features/sign-in/switch-user-button.tsx')),
    ...(await import('../../src/renderer/src/stores/recorder.ts')),
    ...(await import('../../src/renderer/src/stores/switch-user.ts')),
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
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).toContain('A recording is going. Switch user?');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
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
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('without a recording, switches at once', async () => {
    await signBackIn();
    m.useRecorder.setState({ status: 'idle' });
    render(<m.SwitchUserButton />);
    fireEvent.click(screen.getByRole('button', { name: 'Switch user' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(core.session.state().signedIn).toBe(false));
    expect(m.useNextSignIn.getState().next?.note).toBe('Dr. Demo Vet switched user. Sign in to go on.');
  });
});
