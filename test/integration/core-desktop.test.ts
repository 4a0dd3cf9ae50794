// What the engine gives the tray and the global shortcut: whether a consult is being recorded
// (an event when that changes), a new shortcut registered before it is saved, and their
// commands held for a window whose recorder does not listen yet. Electron's
// globalShortcut cannot run here, so the shortcut port is a stand-in that refuses the keys
// "another app" holds; the settings file and the IPC handlers are real.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../../src/main/core/app-core.ts';
import { createHandlers } from '../../src/main/core/ipc-handlers.ts';
import { COLLEAGUE_ACCOUNT } from '../../src/sandbox/state.ts';
import { DEFAULT_RECORD_SHORTCUT, type RecorderAction, type RecorderActivity } from '../../src/shared/desktop.ts';
import { recorderChunks, startCore, tempDir } from './support/core.ts';

let core: AppCore | null = null;
afterEach(async () => {
  await core?.stop();
  core = null;
});

/** A stand-in for Electron's globalShortcut: what is registered, and keys another app holds. */
function shortcutPort(taken: string[]) {
  const port = {
    registered: DEFAULT_RECORD_SHORTCUT,
    applied: [] as string[],
    apply(accelerator: string): string | null {
      port.applied.push(accelerator);
      if (taken.includes(accelerator))
        return `${accelerator} is already used by another app or by the system; choose another.`;
      port.registered = accelerator;
      return null;
    },
  };
  return port;
}

describe('the recording shortcut', () => {
  it('is registered before it is saved; keys another app holds are refused and the old shortcut stays, in force and on disk', async () => {
    const dataDir = tempDir();
    const port = shortcutPort(['Alt+F4']);
    core = await startCore({ dataDir, shortcut: port });
    const h = createHandlers(core);
    expect(await h['app:info'](undefined)).toMatchObject({ ok: true, data: { desktop: true } });

    const taken = await h['settings:update']({ recordShortcut: 'Alt+F4' });
    expect(taken).toEqual({
      ok: false,
      error: {
        code: 'invalid_input',
        message: 'recordShortcut: Alt+F4 is already used by another app or by the system; choose another.',
      },
    });
    expect(port.registered).toBe(DEFAULT_RECORD_SHORTCUT);
    expect(core.settings.get().recordShortcut).toBe(DEFAULT_RECORD_SHORTCUT);

    const invalid = await h['settings:update']({ recordShortcut: 'Shift+R' });
    expect(invalid).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_input',
        message:
          'Invalid input for settings:update: recordShortcut needs Ctrl, Alt or Cmd with R, or every app would lose that key.',
      },
    });
    // An invalid shortcut never reaches Electron.
    expect(port.applied).toEqual(['Alt+F4']);

    const changed = await h['settings:update']({ recordShortcut: 'CommandOrControl+Alt+R' });
    expect(changed).toMatchObject({ ok: true, data: { recordShortcut: 'CommandOrControl+Alt+R' } });
    expect(port.registered).toBe('CommandOrControl+Alt+R');
    const file = JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')) as { recordShortcut: string };
    expect(file.recordShortcut).toBe('CommandOrControl+Alt+R');

    // Saved with something refused (the sandbox off with no service addresses): the old shortcut is put back.
    const mixed = await h['settings:update']({ recordShortcut: 'F9', useSandbox: false });
    expect(mixed.ok).toBe(false);
    expect(port.applied.slice(-2)).toEqual(['F9', 'CommandOrControl+Alt+R']);
    expect(port.registered).toBe('CommandOrControl+Alt+R');
    expect(core.settings.get().recordShortcut).toBe('CommandOrControl+Alt+R');

    expect(await h['settings:update']({ recordShortcut: '' })).toMatchObject({
      ok: true,
      data: { recordShortcut: '' },
    });
    expect(port.registered).toBe('');
  });

  it('without a desktop (the browser host) is only checked and saved', async () => {
    core = await startCore();
    const h = createHandlers(core);
    expect(await h['app:info'](undefined)).toMatchObject({ ok: true, data: { desktop: false } });
    expect(await h['settings:update']({ recordShortcut: 'Alt+F2' })).toMatchObject({
      ok: true,
      data: { recordShortcut: 'Alt+F2' },
    });
  });
});

describe('the recorder as the tray sees it', () => {
  it('goes idle -> recording -> paused -> recording -> idle with the recording, one event per change, to the window too', async () => {
    core = await startCore();
    const h = createHandlers(core);
    const seen: RecorderActivity[] = [];
    core.on('recorder:activity', ({ activity }) => seen.push(activity));
    expect(core.activity()).toBe('idle');
    const started = await h['recording:start']({ mimeType: 'audio/webm;codecs=opus', patientName: 'Rex' });
    if (!started.ok) throw new Error(started.error.message);
    const id = started.data.id;
    for (const [seq, data] of recorderChunks().entries())
      await h['recording:chunk']({ id, seq, data: new Uint8Array(data), elapsedMs: (seq + 1) * 1000 });
    expect(core.activity()).toBe('recording');
    await h['recording:pause']({ id });
    expect(core.activity()).toBe('paused');
    await h['recording:resume']({ id });
    await h['recording:stop']({ id, durationMs: 5000 });
    expect(core.activity()).toBe('idle');
    expect(seen).toEqual(['recording', 'paused', 'recording', 'idle']);
  });
});

describe("the tray's and the shortcut's commands for a window that does not listen yet", () => {
  it('are held for the page until its recorder listens, handed over once, and sent at once from then on', async () => {
    core = await startCore();
    const h = createHandlers(core);
    const demo = core.appInfo().sandbox!.demo;
    await core.session.signIn(demo.email, demo.password);
    const sent: RecorderAction[] = [];
    core.on('recorder:command', ({ action }) => sent.push(action));

    // A window just opened: its page has not subscribed yet.
    core.recorderCommands.command('start');
    core.recorderCommands.command('start');
    expect(sent).toEqual([]);
    expect(await h['recorder:listening'](undefined)).toEqual({ ok: true, data: 'start' });
    expect(await h['recorder:listening'](undefined)).toEqual({ ok: true, data: null });
    core.recorderCommands.command('stop');
    expect(sent).toEqual(['stop']);

    // The page loads again: what comes meanwhile waits for it.
    core.recorderCommands.pageLoading();
    core.recorderCommands.command('start');
    expect(sent).toEqual(['stop']);
    expect(await h['recorder:listening'](undefined)).toEqual({ ok: true, data: 'start' });
  });

  it('are let go when the window closes, and when another vet (or no one) is in front', async () => {
    core = await startCore();
    const h = createHandlers(core);
    const demo = core.appInfo().sandbox!.demo;
    await core.session.signIn(demo.email, demo.password);

    core.recorderCommands.command('start');
    core.recorderCommands.windowClosed();
    expect(await h['recorder:listening'](undefined)).toEqual({ ok: true, data: null });

    core.recorderCommands.pageLoading();
    core.recorderCommands.command('start');
    expect(await h['session:switchUser'](undefined)).toMatchObject({ ok: true, data: { signedIn: false } });
    await core.session.signIn(COLLEAGUE_ACCOUNT.email, COLLEAGUE_ACCOUNT.password);
    expect(await h['recorder:listening'](undefined)).toEqual({ ok: true, data: null });

    // Signed out and back in as the same vet: still a Switch user in between.
    core.recorderCommands.pageLoading();
    core.recorderCommands.command('start');
    await h['session:signOut'](undefined);
    await core.session.signIn(COLLEAGUE_ACCOUNT.email, COLLEAGUE_ACCOUNT.password);
    expect(await h['recorder:listening'](undefined)).toEqual({ ok: true, data: null });
  });
});
