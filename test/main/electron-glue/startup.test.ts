// Launches that arrive while the app starts: the vet double-clicks the icon again (or a few
// times) during the seconds the engine takes to start. Electron hands each launch to the
// running app as `second-instance`, any time after `ready`. The built main runs under the fake
// Electron (support/fake-electron), which makes ten such launches while the engine starts:
// there must be one window, opened once IPC is bound, and every call of that window answered.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVOKE_CHANNELS } from '../../../src/shared/ipc.ts';
import { builtMainExists, runMain, type Run } from '../../support/fake-electron/run-main.ts';

describe('launches during start-up', () => {
  let home: string;
  let run: Run;

  beforeAll(async () => {
    expect(builtMainExists(), 'out/main/index.js is missing: run "npm run build" first').toBe(true);
    home = mkdtempSync(join(tmpdir(), 'vet-scribe-glue-launches-'));
    run = await runMain(home, join(home, 'tokens.txt'), 'quit', { FAKE_ELECTRON_LAUNCHES: '10' });
  });

  afterAll(() => {
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('ten launches arrive while the engine starts, before any IPC handler exists', () => {
    expect(run.quit.launches).toEqual({ made: 10, beforeIpc: 10 });
  });

  it('opens exactly one window over the whole run', () => {
    expect(run.quit.windowsCreated).toBe(1);
    expect(run.report.window.count).toBe(1);
    expect(run.report.driverError).toBeUndefined();
  });

  it('answers every call of that window: none finds its handler missing', () => {
    const r = run.report;
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
    expect(run.quit.quitLog).toEqual([
      'before-quit',
      'window closed',
      'will-quit (prevented)',
      'before-quit',
      'will-quit',
      'quit',
    ]);
    expect(run.quit.errorBoxes).toEqual([]);
    expect(run.quit.unimplemented).toEqual([]);
    expect(run.code).toBe(0);
  });
});
