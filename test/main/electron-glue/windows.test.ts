// The window's ways back and the way out, on the systems where they differ, with the built main
// under the fake Electron (support/fake-electron; FAKE_ELECTRON_PLATFORM makes main see darwin
// or win32): a Dock click on macOS shows the window hidden while a consult records; on Windows
// a click on a toast that timed out into the Action Center opens the window
// (Notification.handleActivation), and the end of the session (log-off, shutdown), which skips
// before-quit and will-quit, still stops the engine before the process ends. A "Note ready"
// notification clicked opens that consult, in the window there is or in the one the click opens.
// On macOS, where the app lives on with no window, the tray's Start opens one that records once
// its page listens, exactly once, and never for a later window or the next vet.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GLUE_PREFIX, type GlueReport } from '../../support/fake-electron/report.ts';
import { builtMainExists, lineOf, runMain, type Run } from '../../support/fake-electron/run-main.ts';

const homes: string[] = [];
async function scenario(
  command: 'activate' | 'toast-timeout' | 'session-end' | 'note-click' | 'held-start',
  platform: string,
): Promise<{ run: Run; glue: GlueReport; home: string }> {
  const home = mkdtempSync(join(tmpdir(), `vet-scribe-glue-${command}-`));
  homes.push(home);
  const run = await runMain(home, join(home, 'tokens.txt'), command, {
    FAKE_ELECTRON_PLATFORM: platform,
    FAKE_ELECTRON_NOTIFICATIONS: '1',
    // The sandbox writes its notes at once here: the scenarios wait for them.
    SANDBOX_SCRIBE_SECONDS: '0.2',
  });
  const glue = lineOf<GlueReport>(run.stdout, GLUE_PREFIX);
  if (!glue) throw new Error(`the ${command} run printed no report\n${run.stdout}\n${run.stderr}`);
  expect(glue.driverError).toBeUndefined();
  return { run, glue, home };
}

function step(glue: GlueReport, name: string) {
  const found = glue.steps.find((s) => s.step === name);
  if (!found) throw new Error(`no step ${name}: ${JSON.stringify(glue.steps.map((s) => s.step))}`);
  return found;
}

beforeAll(() => {
  expect(builtMainExists(), 'out/main/index.js is missing: run "npm run build" first').toBe(true);
});

afterAll(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

describe('macOS: a click on the Dock icon', () => {
  it('shows the window that was closed to the tray while recording', async () => {
    const { run, glue } = await scenario('activate', 'darwin');
    expect(step(glue, 'window closed while recording')).toMatchObject({ visible: false, windows: 1 });
    expect(step(glue, 'dock icon clicked')).toMatchObject({ visible: true, windows: 1 });
    expect(run.quit.windowsCreated).toBe(1);
    expect(run.quit.unimplemented).toEqual([]);
  });
});

describe('a "Note ready" notification clicked', () => {
  it('opens that consult in the window; with no window, in the one it opens, once its page has loaded', async () => {
    const { run, glue } = await scenario('note-click', 'darwin');
    const open = step(glue, 'note ready clicked with the window open');
    expect(open).toMatchObject({ visible: true, windows: 1 });
    expect(open.opened!.got).toEqual([{ id: open.opened!.expected }]);
    expect(step(glue, 'window closed')).toMatchObject({ windows: 0 });
    const closed = step(glue, 'note ready clicked with no window');
    expect(closed).toMatchObject({ windows: 1 });
    expect(closed.opened!.got).toEqual([{ id: closed.opened!.expected }]);
    expect(run.quit.windowsCreated).toBe(2);
    expect(run.quit.unimplemented).toEqual([]);
  }, 60_000);
});

describe("macOS with no window open: the tray's Start or the recording shortcut", () => {
  it('opens the window, whose recorder records once its page listens, once; a start is never kept for a later window, the next vet or after a reload', async () => {
    const { run, glue } = await scenario('held-start', 'darwin');
    const START = [{ action: 'start' }];
    expect(step(glue, 'window closed')).toMatchObject({ windows: 0 });
    // The shortcut pressed again while the window loads makes no second start.
    expect(step(glue, 'tray start with no window, then the shortcut')).toMatchObject({
      windows: 1,
      delivered: true,
      heard: START,
    });
    expect(step(glue, 'a start for a window closed before it listened, then a window shown')).toMatchObject({
      windows: 1,
      heard: [],
    });
    const switched = step(glue, 'a start, then Switch user before the page listened');
    expect(switched.answer).toMatchObject({ ok: true, data: { signedIn: false } });
    expect(switched.heard).toEqual([]);
    expect(step(glue, 'the shortcut while the page reloads')).toMatchObject({ windows: 1, heard: START });
    expect(run.quit.windowsCreated).toBe(5);
    expect(run.quit.unimplemented).toEqual([]);
  });
});

describe('Windows: a toast clicked in the Action Center after it timed out', () => {
  it('opens the window, through Notification.handleActivation', async () => {
    const { run, glue } = await scenario('toast-timeout', 'win32');
    expect(step(glue, 'toast timed out')).toMatchObject({ visible: false });
    expect(step(glue, 'toast clicked in the Action Center')).toMatchObject({
      delivered: true,
      visible: true,
      windows: 1,
    });
    expect(run.report.calls).toContain('Notification.handleActivation');
    expect(run.quit.unimplemented).toEqual([]);
  });
});

describe('Windows: the session ends (log-off, shutdown) while recording', () => {
  let run: Run;
  let home: string;
  beforeAll(async () => {
    ({ run, home } = await scenario('session-end', 'win32'));
  });

  it('stops the engine and ends the process itself, without before-quit or will-quit', () => {
    // exit(0) comes once the engine's stop has ended; without it Windows ends the process.
    expect(run.quit.quitLog).toEqual(['session-end', 'exit(0)']);
    expect(run.code).toBe(0);
  });

  it('stops the engine before the end, and lets go of the shortcut and the tray', () => {
    const log = readFileSync(join(home, 'config', 'Vet Scribe', 'logs', 'main.log'), 'utf8');
    // The next line main writes is the stop's end (electron-log ends lines the Windows way here).
    expect(log).toMatch(/session ending \(logoff\): stopping\r?\n.*engine stopped at the end of the session\r?\n/);
    expect(run.quit.shortcuts).toEqual([]);
    expect(run.quit.traysAlive).toBe(0);
  });
});
