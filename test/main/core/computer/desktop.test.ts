// What the engine gives the tray and the global shortcut: whether a consult is being recorded
// (an event when that changes), a new shortcut registered before it is saved, and their
// commands held for a window whose recorder does not listen yet. Electron's
// globalShortcut cannot run here, so the shortcut port is a stand-in that refuses the keys
// "another app" holds; the settings file and the IPC handlers are real.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { createHandlers } from '../../../../src/main/core/ipc-handlers.ts';
import { COLLEAGUE_ACCOUNT } from '../../../../src/sandbox/state.ts';
import { DEFAULT_RECORD_SHORTCUT, type RecorderAction, type RecorderActivity } from '../../../../src/shared/desktop.ts';
import { recorderChunks, startCore, tempDir } from '../../../support/core.ts';

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
    expect(core.cache.activity()).toBe('idle');
    const started = await h['recording:start']({ mimeType: 'audio/webm;codecs=opus', patientName: 'Rex' });
    if (!started.ok) throw new Error(started.error.message);
    const id = started.data.id;
    for (const [seq, data] of recorderChunks().entries())
      await h['recording:chunk']({ id, seq, data: new Uint8Array(data), elapsedMs: (seq + 1) * 1000 });
    expect(core.cache.activity()).toBe('recording');
    await h['recording:pause']({ id });
    expect(core.cache.activity()).toBe('paused');
    await h['recording:resume']({ id });
    await h['recording:stop']({ id, durationMs: 5000 });
    expect(core.cache.activity()).toBe('idle');
    expect(seen).toEqual(['recording', 'paused', 'recording', 'idle']);
  });
});

describe("the tray's and the shortcut's commands for a window that does not listen yet", () => {
  // The calls main makes as Electron tells it: a window opened, its page loaded (did-navigate),
  // gone (render-process-gone), the window closed.
  it('wait for the first page of a window just opened until its recorder listens, are handed over once, and are sent at once from then on', async () => {
    core = await startCore();
    const h = createHandlers(core);
    const demo = core.appInfo().sandbox!.demo;
    await core.session.signIn(demo.email, demo.password);
    const sent: RecorderAction[] = [];
    core.on('recorder:command', ({ action }) => sent.push(action));
    const commands = core.recorderCommands;

    // The tray's Start opened the window, and the shortcut was pressed again while it loaded.
    commands.windowOpened();
    commands.command('start');
    commands.pageLoaded(true);
    commands.command('start');
    expect(sent).toEqual([]);
    expect(await h['recorder:listening'](undefined)).toEqual({ ok: true, data: 'start' });
    expect(await h['recorder:listening'](undefined)).toEqual({ ok: true, data: null });
    commands.command('stop');
    expect(sent).toEqual(['stop']);

    // Reloaded, the page subscribes anew: what comes meanwhile waits for it.
    commands.pageLoaded(true);
    commands.command('start');
    expect(sent).toEqual(['stop']);
    expect(await h['recorder:listening'](undefined)).toEqual({ ok: true, data: 'start' });
  });

  it('are let go when the window closes, when the page they waited for is replaced or gone, and when another vet (or no one) is in front', async () => {
    core = await startCore();
    const h = createHandlers(core);
    const demo = core.appInfo().sandbox!.demo;
    await core.session.signIn(demo.email, demo.password);
    const commands = core.recorderCommands;
    const listened = async () => (await h['recorder:listening'](undefined)) as { ok: true; data: unknown };

    commands.windowOpened();
    commands.command('start');
    commands.windowClosed();
    commands.windowOpened();
    commands.pageLoaded(true);
    expect(await listened()).toEqual({ ok: true, data: null });

    // A page that never listened (it failed to start), tried again later.
    commands.pageLoaded(true);
    commands.command('start');
    commands.pageLoaded(true);
    expect(await listened()).toEqual({ ok: true, data: null });

    commands.pageLoaded(true);
    commands.command('start');
    commands.pageGone();
    expect(await listened()).toEqual({ ok: true, data: null });

    commands.pageLoaded(true);
    commands.command('start');
    expect(await h['session:switchUser'](undefined)).toMatchObject({ ok: true, data: { signedIn: false } });
    await core.session.signIn(COLLEAGUE_ACCOUNT.email, COLLEAGUE_ACCOUNT.password);
    expect(await listened()).toEqual({ ok: true, data: null });

    // Signed out and back in as the same vet: someone else could have been in front meanwhile.
    commands.pageLoaded(true);
    commands.command('start');
    await h['session:signOut'](undefined);
    await core.session.signIn(COLLEAGUE_ACCOUNT.email, COLLEAGUE_ACCOUNT.password);
    expect(await listened()).toEqual({ ok: true, data: null });

    // What is not the app's page has no recorder: the start still waits for the app's.
    commands.windowOpened();
    commands.command('start');
    commands.pageLoaded(false);
    commands.pageLoaded(true);
    expect(await listened()).toEqual({ ok: true, data: 'start' });
  });
});
