// A start from the tray or the global shortcut that opened the window (macOS, where the app lives
// on with none) comes before the page has loaded its recorder, which subscribes to the commands
// only once the vet in front is known: the engine holds it, and the recorder obeys it when it
// says it listens, once, whichever view the window opened on. On the real core and its embedded
// sandbox, with the browser's microphone and recorder stood in for (jsdom has none).
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { windowWithMicrophone } from '../../support/window.ts';
import { whenRecording } from './support.ts';
import { App } from '../../../../src/renderer/src/app.tsx';
import { useNav } from '../../../../src/renderer/src/stores/nav.ts';
import { useSession } from '../../../../src/renderer/src/stores/session.ts';

let core: AppCore;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ core, stop } = await windowWithMicrophone({ signIn: true }));
  // The session read as the window starts, so that it opens on the view it is given below.
  await useSession.getState().load();
}, 30_000);

afterEach(() => cleanup());

afterAll(() => stop());

describe('a start from the tray before the window listened', () => {
  it('records once the window knows its vet, on whichever view it opened, exactly one recording; the commands after it reach the recorder at once', async () => {
    // As main does for the tray's Start that opened the window, and the shortcut pressed again
    // while the window loads: the page has no recorder yet.
    core.recorderCommands.command('start');
    core.recorderCommands.command('start');
    // The window opens on Consults, as one opened by a click on "Note ready" opens on the note.
    useNav.getState().go({ name: 'consults' });
    render(<App />);
    await whenRecording();
    // The start shows the recorder.
    await screen.findByRole('heading', { name: 'Record a consult' });
    // Time for a second start to show, had one been made.
    await act(() => new Promise((r) => setTimeout(r, 1200)));
    expect(core.cache.all().map((c) => c.recording.state)).toEqual(['recording']);
    expect(core.cache.activity()).toBe('recording');

    act(() => core.recorderCommands.command('stop'));
    await waitFor(() => expect(core.cache.activity()).toBe('idle'), { timeout: 5000 });
    expect(core.cache.all()).toHaveLength(1);
  }, 30_000);
});
