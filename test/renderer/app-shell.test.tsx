// The window's shell on the real engine: main's notices are shown above every view until the
// vet puts them away.
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../src/main/core/app-core.ts';
import { windowWithNotices } from './support/window.ts';
import { App } from '../../src/renderer/src/app.tsx';
import { useSession } from '../../src/renderer/src/stores/session.ts';
import { useClinic } from '../../src/renderer/src/stores/clinic.ts';
import { useNav } from '../../src/renderer/src/stores/nav.ts';
import { useRecorder } from '../../src/renderer/src/stores/recorder.ts';

const KEYCHAIN = 'No system keychain is available, so your sign-in is kept in memory only.';
const RECOVERED = 'A recording left unfinished when the app closed was recovered.';

let core: AppCore;

beforeAll(async () => {
  ({ core } = await windowWithNotices(KEYCHAIN, RECOVERED));
});

afterEach(() => cleanup());

afterAll(async () => {
  await core.stop();
});

describe('App shell', () => {
  // First in this file: no test before it has opened Consults.
  it('reads the clinic’s consults from the service at launch with a kept sign-in, before Consults is opened', async () => {
    expect(useClinic.getState().refreshedFor).toBeNull();
    render(<App />);
    await screen.findByRole('navigation', { name: 'Main' });
    const user = useSession.getState().session.user?.id;
    expect(user).toBeTruthy();
    await waitFor(() => expect(useClinic.getState()).toMatchObject({ refreshedFor: user, refreshing: false }));
    expect(useClinic.getState().view?.error).toBeNull();
    expect(useNav.getState().view).toEqual({ name: 'record' });
  });

  it('shows main’s notices, each with its role, and hides only the one dismissed', async () => {
    render(<App />);
    await screen.findByRole('navigation', { name: 'Main' });
    const main = screen.getByRole('main');
    const noticeOf = (text: string) => within(main).getByText(text).closest<HTMLElement>('[role]')!;
    await within(main).findByText(KEYCHAIN);
    const warning = noticeOf(KEYCHAIN);
    expect(warning.getAttribute('role')).toBe('alert');
    expect(noticeOf(RECOVERED).getAttribute('role')).toBe('status');

    await act(async () => within(warning).getByRole('button', { name: 'Dismiss notice' }).click());
    await waitFor(() => expect(within(main).queryByText(KEYCHAIN)).toBeNull());
    expect(within(main).queryByText(RECOVERED)).not.toBeNull();
    // Another view keeps it dismissed.
    await act(async () => screen.getByRole('navigation', { name: 'Main' }).querySelector('button')?.click());
    expect(within(main).queryByText(KEYCHAIN)).toBeNull();
  });

  it('shows a recording under way on every other view, one click from the recorder', async () => {
    render(<App />);
    await screen.findByRole('navigation', { name: 'Main' });
    act(() => useNav.getState().go({ name: 'ddx' }));
    expect(screen.queryByRole('button', { name: /open the recorder/ })).toBeNull();
    act(() => useRecorder.setState({ status: 'recording', elapsedMs: 83_000 }));
    try {
      const pill = screen.getByRole('button', { name: 'Recording 1:23 — open the recorder' });
      act(() => useRecorder.setState({ status: 'paused' }));
      expect(pill.getAttribute('aria-label')).toBe('Paused 1:23 — open the recorder');
      await act(async () => pill.click());
      expect(useNav.getState().view).toEqual({ name: 'record' });
      // On the recorder itself the recorder says it.
      expect(screen.queryByRole('button', { name: /open the recorder/ })).toBeNull();
    } finally {
      act(() => useRecorder.setState({ status: 'idle', elapsedMs: 0 }));
    }
  });

  it('keeps the consults list built while another view is shown, hidden from sight and from assistive technology', async () => {
    render(<App />);
    await screen.findByRole('navigation', { name: 'Main' });
    act(() => useNav.getState().go({ name: 'record' }));
    // Laid out ahead, hidden: not on screen, not read out, not found by role.
    const hidden = await screen.findByRole('heading', { name: 'Consults', level: 1, hidden: true });
    expect(screen.queryByRole('heading', { name: 'Consults', level: 1 })).toBeNull();
    expect(hidden.closest<HTMLElement>('.whole-list')?.style.display).toBe('none');
    act(() => useNav.getState().go({ name: 'consults' }));
    const shown = await screen.findByRole('heading', { name: 'Consults', level: 1 });
    // The same view shown again, not a new one built on the click.
    expect(shown).toBe(hidden);
    expect(shown.closest<HTMLElement>('.whole-list')?.style.display).not.toBe('none');
    act(() => useNav.getState().go({ name: 'settings' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Consults', level: 1 })).toBeNull());
    act(() => useNav.getState().go({ name: 'record' }));
  });

  it('builds the kept consults view anew for the next vet, though the window stays up through a Switch user while recording', async () => {
    render(<App />);
    await screen.findByRole('navigation', { name: 'Main' });
    const first = await screen.findByRole('heading', { name: 'Consults', level: 1, hidden: true });
    act(() => useRecorder.setState({ status: 'recording' }));
    try {
      await act(async () => {
        await core.session.signOut('switch');
      });
      // The window stays up (a recording is going); the last vet's view (their search) goes with them.
      await waitFor(() => expect(first.isConnected).toBe(false));
      expect(screen.getByRole('navigation', { name: 'Main' })).toBeTruthy();
      const demo = core.appInfo().sandbox!.demo;
      await act(async () => {
        await core.session.signIn(demo.email, demo.password);
      });
      const next = await screen.findByRole('heading', { name: 'Consults', level: 1, hidden: true });
      expect(next).not.toBe(first);
    } finally {
      act(() => useRecorder.setState({ status: 'idle' }));
    }
  });

  it('after a sign-out the next person starts on the recorder, not on the last view', async () => {
    render(<App />);
    await screen.findByRole('navigation', { name: 'Main' });
    act(() => useNav.getState().go({ name: 'settings' }));
    await act(async () => core.session.signOut('user'));
    await screen.findByRole('button', { name: 'Sign in' });
    const demo = core.appInfo().sandbox!.demo;
    await act(async () => core.session.signIn(demo.email, demo.password));
    await waitFor(() => expect(useSession.getState().session.signedIn).toBe(true));
    await screen.findByRole('heading', { name: 'Record a consult' });
    expect(useNav.getState().view).toEqual({ name: 'record' });
  });
});
