// A start from the tray or the global shortcut that opened the window (macOS, where the app lives
// on with none) comes before the page has loaded its recorder, which subscribes to the commands
// only once the vet in front is known: the engine holds it, and the recorder obeys it when it
// says it listens, once, whichever view the window opened on. On the real core and its embedded
// sandbox, with the browser's microphone and recorder stood in for (jsdom has none).
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { installFakeMicrophone } from '../../support/fake-microphone.ts';
import { windowWithEngine } from '../../support/window.ts';
import { App } from '../../../../src/renderer/src/app.tsx';
import { useRecorder } from '../../../../src/renderer/src/stores/recorder.ts';
import { useNav } from '../../../../src/renderer/src/stores/nav.ts';
import { useSession } from '../../../../src/renderer/src/stores/session.ts';

const FIXTURE = join(import.meta.dirname, '../../../fixtures/audio/mediarecorder-5s');
const manifest = JSON.parse(readFileSync(join(FIXTURE, 'manifest.json'), 'utf8')) as {
  mimeType: string;
  chunks: { file: string }[];
};
const chunks = manifest.chunks.map((c) => new Uint8Array(readFileSync(join(FIXTURE, c.file))));

let core: AppCore;
let microphone: { restore(): void };

beforeAll(async () => {
  // Before the window's modules: the recorder learns once whether this window can record.
  microphone = installFakeMicrophone(chunks, manifest.mimeType);
  ({ core } = await windowWithEngine({ signIn: true }));
  // The session read as the window starts, so that it opens on the view it is given below.
  await useSession.getState().load();
}, 30_000);

afterEach(() => cleanup());

afterAll(async () => {
  microphone.restore();
  await core.stop();
});

describe('a start from the tray before the window listened', () => {
  it('records once the window knows its vet, on whichever view it opened, exactly one recording; the commands after it reach the recorder at once', async () => {
    // As main does for the tray's Start that opened the window, and the shortcut pressed again
    // while the window loads: the page has no recorder yet.
    core.recorderCommands.command('start');
    core.recorderCommands.command('start');
    // The window opens on Consults, as one opened by a click on "Note ready" opens on the note.
    useNav.getState().go({ name: 'consults' });
    render(<App />);
    await waitFor(() => expect(useRecorder.getState().status).toBe('recording'), { timeout: 5000 });
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
