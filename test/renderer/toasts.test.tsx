// The toasts at a shared exam-room PC, against the real engine: a note's toast closes by itself
// but waits while the vet's pointer or keyboard is on the toasts, no more than three are shown
// with the rest counted, and a colleague's refusal is not left on screen for the owner who
// signs in after Switch user.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AppCore } from '../../src/main/core/app-core.ts';
import { createHandlers } from '../../src/main/core/ipc-handlers.ts';
import { COLLEAGUE_ACCOUNT, DEMO_ACCOUNT } from '../../src/sandbox/state.ts';
import type { EventPayloads } from '../../src/shared/ipc.ts';
import { api } from '../../src/renderer/src/api.ts';
import { Toasts } from '../../src/renderer/src/components/toasts.tsx';
import { useNav } from '../../src/renderer/src/stores/nav.ts';
import { noteReady, READY_TOAST_MS } from '../../src/renderer/src/stores/note-ready.ts';
import { useNotifications } from '../../src/renderer/src/stores/notifications.ts';
import { useSession } from '../../src/renderer/src/stores/session.ts';
import { recordThrough } from '../support/core.ts';
import { windowWithEngine } from './support/window.ts';

let core: AppCore;

beforeAll(async () => {
  core = (await windowWithEngine({ signIn: true })).core;
  await useSession.getState().load();
  act(() => useNav.getState().go({ name: 'record' }));
}, 60_000);
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});
afterAll(async () => {
  await core.stop();
});

/** A note of this patient ready, as main says it. */
function ready(id: string, patientName: string) {
  act(() => noteReady({ recording: { id, patientName }, job: null } as unknown as EventPayloads['note:ready']));
}

function toastTexts(): string[] {
  const region = screen.getByRole('region', { name: 'Messages' });
  return [...region.querySelectorAll('.toast')].map((t) => (t.textContent ?? '').replace('×', '').trim());
}

describe('toasts that close by themselves', () => {
  it("wait while the pointer or the keyboard is on them, and close once the vet's attention has left", () => {
    render(<Toasts />);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    ready('luna-1', 'Luna');
    const region = screen.getByRole('region', { name: 'Messages' });

    // Read with the pointer on it: it stays however long that takes.
    fireEvent.mouseEnter(region);
    act(() => vi.advanceTimersByTime(READY_TOAST_MS * 3));
    expect(toastTexts()).toEqual(['Note ready: Luna — Open note']);
    fireEvent.mouseLeave(region);
    // Not snatched away as the pointer leaves: a moment more to finish reading.
    act(() => vi.advanceTimersByTime(1_000));
    expect(toastTexts()).toEqual(['Note ready: Luna — Open note']);
    act(() => vi.advanceTimersByTime(READY_TOAST_MS));
    expect(toastTexts()).toEqual([]);

    // Reached by the keyboard: it stays while focus is in it, even moving between its buttons.
    ready('milo-1', 'Milo');
    const open = screen.getByRole('button', { name: 'Note ready: Milo — Open note' });
    act(() => open.focus());
    act(() => screen.getByRole('button', { name: 'Dismiss message' }).focus());
    act(() => vi.advanceTimersByTime(READY_TOAST_MS * 3));
    expect(toastTexts()).toEqual(['Note ready: Milo — Open note']);
    act(() => screen.getByRole('button', { name: 'Dismiss message' }).blur());
    act(() => vi.advanceTimersByTime(READY_TOAST_MS));
    expect(toastTexts()).toEqual([]);
  });

  it('show three at most, newest first, and count the rest', () => {
    render(<Toasts />);
    const fail = (what: string) => act(() => useNotifications.getState().fail(new Error('No network.'), what));
    fail('Could not rename Rex');
    fail('Could not delete Max');
    ready('bella-2', 'Bella');
    fail('Could not copy the note');
    fail('Could not print the note');
    expect(toastTexts()).toEqual([
      'Could not print the note: No network.',
      'Could not copy the note: No network.',
      'Note ready: Bella — Open note',
    ]);
    expect(screen.getByText('2 more messages')).toBeTruthy();
    fireEvent.click(screen.getAllByRole('button', { name: 'Dismiss message' })[0]!);
    expect(screen.getByText('1 more message')).toBeTruthy();
    fireEvent.click(screen.getAllByRole('button', { name: 'Dismiss message' })[0]!);
    expect(toastTexts()).toHaveLength(3);
    expect(screen.queryByText(/more message/)).toBeNull();
  });
});

describe('a refusal at a shared PC', () => {
  it("is the colleague's: it is gone when the owner signs in after Switch user", async () => {
    const h = createHandlers(core);
    const bella = await recordThrough(h, 'Bella', 'Limping');
    // The colleague asks to delete the demo vet's consult and is refused; the window says so.
    await act(async () => {
      await h['session:switchUser'](undefined as never);
      await core.session.signIn(COLLEAGUE_ACCOUNT.email, COLLEAGUE_ACCOUNT.password);
    });
    render(<Toasts />);
    await act(async () => {
      await api.consults
        .delete({ id: bella })
        .catch((e: unknown) => useNotifications.getState().fail(e, 'Could not delete Bella'));
    });
    expect(toastTexts()).toEqual([expect.stringMatching(/^Could not delete Bella: /)]);

    // Switch user: the owner signs in and is not shown the colleague's refusal.
    await act(async () => {
      await h['session:switchUser'](undefined as never);
      await core.session.signIn(DEMO_ACCOUNT.email, DEMO_ACCOUNT.password);
    });
    expect(toastTexts()).toEqual([]);
  });
});
