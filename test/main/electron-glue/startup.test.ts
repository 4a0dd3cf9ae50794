// Launches that arrive while the app starts: the vet double-clicks the icon again (or a few
// times) during the seconds the engine takes to start. Electron hands each launch to the
// running app as `second-instance`, any time after `ready`. The built main runs under the fake
// Electron (support/fake-electron), which makes ten such launches while the engine starts:
// there must be one window, opened once IPC is bound, and every call of that window answered.
import { describe, expect, it } from 'vitest';
import { INVOKE_CHANNELS } from '../../../src/shared/ipc.ts';
import { ENGINE_STOPS_AT_WILL_QUIT, runOnce } from '../../support/fake-electron/run-main.ts';

describe('launches during start-up', () => {
  const main = runOnce('launches', 'quit', { FAKE_ELECTRON_LAUNCHES: '10' });

  it('ten launches arrive while the engine starts, before any IPC handler exists', () => {
    expect(main.run.quit.launches).toEqual({ made: 10, beforeIpc: 10 });
  });

  it('opens exactly one window over the whole run', () => {
    expect(main.run.quit.windowsCreated).toBe(1);
    expect(main.run.report.window.count).toBe(1);
    expect(main.run.report.driverError).toBeUndefined();
  });

  it('answers every call of that window: none finds its handler missing', () => {
    const r = main.run.report;
    for (const [name, answer] of Object.entries({
      appInfo: r.appInfo,
      sessionBefore: r.sessionBefore,
      signIn: r.signIn,
      sessionAfter: r.sessionAfter,
      templates: r.templates,
    })) {
      expect(answer, `${name}: ${JSON.stringify(answer)}`).not.toHaveProperty('missing');
      expect(answer.ok, `${name}: ${JSON.stringify(answer)}`).toBe(true);
    }
    // Every handler was there when the window first called.
    expect([...r.ipcChannels].sort()).toEqual([...INVOKE_CHANNELS].sort());
    // The engine's events reach this window, the one the vet sees.
    expect(r.sentToWindow).toContainEqual({
      channel: 'session:changed',
      args: [expect.objectContaining({ signedIn: true })],
    });
  });

  it('quits cleanly afterwards', () => {
    expect(main.run.quit.quitLog).toEqual(['before-quit', 'window closed', ...ENGINE_STOPS_AT_WILL_QUIT]);
    expect(main.run.quit.errorBoxes).toEqual([]);
    expect(main.run.quit.unimplemented).toEqual([]);
    expect(main.run.code).toBe(0);
  });
});
