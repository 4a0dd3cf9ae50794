// A start from the tray or the global shortcut that opened the window (macOS, where the app lives
// on with none) comes before the page has loaded its recorder, which subscribes to the commands
// only once the Record view is up: the engine holds it, and the recorder obeys it when it says
// it listens, once. On the real core and its embedded sandbox, with the browser's microphone and
// recorder stood in for (jsdom has none).
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../src/main/core/app-core.ts';
import type { App as AppComponent } from '../../src/renderer/src/app.tsx';
import type { useRecorder as UseRecorder } from '../../src/renderer/src/stores/recorder.ts';
import { installFakeMicrophone } from './support/fake-microphone.ts';
import { installRealBridge } from './support/real-bridge.ts';

const FIXTURE = join(import.meta.dirname, '../fixtures/audio/mediarecorder-5s');
const manifest = JSON.parse(readFileSync(join(FIXTURE, 'manifest.json'), 'utf8')) as {
  mimeType: string;
  chunks: { file: string }[];
};
const chunks = manifest.chunks.map((c) => new Uint8Array(readFileSync(join(FIXTURE, c.file))));

let core: AppCore;
let App: typeof AppComponent;
let useRecorder: typeof UseRecorder;
let microphone: { restore(): void };

beforeAll(async () => {
  // Before the window's modules: the recorder learns once whether this window can record.
  microphone = installFakeMicrophone(chunks, manifest.mimeType);
  ({ core } = await installRealBridge({ signIn: true }));
  ({ App } = await import('../../src/renderer/src/app.tsx'));
  ({ useRecorder } = await import('../../src/renderer/src/stores/recorder.ts'));
}, 30_000);

afterEach(() => cleanup());

afterAll(async () => {
  microphone.restore();
  await core.stop();
});

describe('a start from the tray before the window listened', () => {
  it('records once the Record view is up, exactly one recording, and the commands after it reach the recorder at once', async () => {
    // As main does for the tray's Start that opened the window, and the shortcut pressed again
    // while the window loads: the page has no recorder yet.
    core.recorderCommands.command('start');
    core.recorderCommands.command('start');
    render(<App />);
    await screen.findByRole('heading', { name: 'Record a consult' });
    await waitFor(() => expect(useRecorder.getState().status).toBe('recording'), { timeout: 5000 });
    // Time for a second start to show, had one been made.
    await act(() => new Promise((r) => setTimeout(r, 1200)));
    expect(core.consults().map((c) => c.recording.state)).toEqual(['recording']);
    expect(core.activity()).toBe('recording');

    act(() => core.recorderCommands.command('stop'));
    await waitFor(() => expect(core.activity()).toBe('idle'), { timeout: 5000 });
    expect(core.consults()).toHaveLength(1);
  }, 30_000);
});
