// The recording shortcut on a Linux Wayland session, where Electron's globalShortcut goes
// through the xdg-desktop-portal: register() answers true before anything is bound
// (electron/electron#52218), GNOME may never bind it (electron/electron#48669), and
// unregister() does not take back what was bound. The fake Electron plays both desktops
// (FAKE_ELECTRON_SHORTCUT_PORTAL=unbound, =sticky) with XDG_SESSION_TYPE=wayland for main to
// see. Main must not claim the shortcut works (Settings says so through app:info), must keep
// the tray's Start working, and the keys of a changed shortcut must no longer start anything.
// The identity the portal knows the app by (the .desktop name) must be a reverse-DNS name.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import config from '../../../electron-builder.ts';
import { WAYLAND_SHORTCUT_CAVEAT } from '../../../src/shared/desktop.ts';
import { GLUE_PREFIX, type GlueReport } from '../../support/fake-electron/report.ts';
import { builtMainExists, lineOf, runMain, type Run } from '../../support/fake-electron/run-main.ts';

const homes: string[] = [];
async function wayland(portal: 'unbound' | 'sticky' | null): Promise<{ run: Run; glue: GlueReport }> {
  const home = mkdtempSync(join(tmpdir(), `vet-scribe-glue-wayland-${portal ?? 'x11'}-`));
  homes.push(home);
  const env = portal
    ? { XDG_SESSION_TYPE: 'wayland', WAYLAND_DISPLAY: 'wayland-0', FAKE_ELECTRON_SHORTCUT_PORTAL: portal }
    : { XDG_SESSION_TYPE: 'x11' };
  const run = await runMain(home, join(home, 'tokens.txt'), 'wayland', env);
  const glue = lineOf<GlueReport>(run.stdout, GLUE_PREFIX);
  if (!glue) throw new Error(`the run printed no report\n${run.stdout}\n${run.stderr}`);
  expect(glue.driverError).toBeUndefined();
  return { run, glue };
}

function step(glue: GlueReport, name: string) {
  const found = glue.steps.find((s) => s.step === name);
  if (!found) throw new Error(`no step ${name}: ${JSON.stringify(glue.steps.map((s) => s.step))}`);
  return found;
}

const START = [{ channel: 'recorder:command', args: [{ action: 'start' }] }];
const caveatOf = (glue: GlueReport) =>
  (step(glue, 'start').answer?.data as { shortcutCaveat?: unknown } | undefined)?.shortcutCaveat;

beforeAll(() => {
  expect(builtMainExists(), 'out/main/index.js is missing: run "npm run build" first').toBe(true);
});

afterAll(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

describe('a Wayland desktop that never binds the shortcut (GNOME)', () => {
  let glue: GlueReport;
  let run: Run;
  beforeAll(async () => {
    ({ glue, run } = await wayland('unbound'));
  });

  it('tells the window the shortcut may not work, for Settings to say', () => {
    expect(caveatOf(glue)).toEqual(expect.stringMatching(/Wayland session.*tray icon or from this window/));
    expect(caveatOf(glue)).toBe(WAYLAND_SHORTCUT_CAVEAT);
  });

  it('the keys do nothing, and the tray still starts a recording', () => {
    expect(step(glue, 'default shortcut pressed')).toMatchObject({ delivered: false, sentToWindow: [] });
    expect(step(glue, 'tray: start')).toMatchObject({ sentToWindow: START, visible: true });
    expect(run.quit.unimplemented).toEqual([]);
  });
});

describe('a Wayland desktop that binds the shortcut and never lets it go', () => {
  let glue: GlueReport;
  beforeAll(async () => {
    ({ glue } = await wayland('sticky'));
  });

  it('the shortcut in force starts recording; after a change, the old keys (still delivered) start nothing', () => {
    expect(step(glue, 'default shortcut pressed')).toMatchObject({ delivered: true, sentToWindow: START });
    expect(step(glue, 'shortcut changed').answer).toMatchObject({
      ok: true,
      data: { recordShortcut: 'CommandOrControl+Alt+R' },
    });
    expect(step(glue, 'old shortcut pressed')).toMatchObject({ delivered: true, sentToWindow: [], visible: false });
    expect(step(glue, 'new shortcut pressed')).toMatchObject({ delivered: true, sentToWindow: START });
  });
});

describe('an X11 session', () => {
  it("makes no caveat: the shortcut is Electron's own there", async () => {
    const { glue } = await wayland(null);
    expect(caveatOf(glue)).toBeNull();
    expect(step(glue, 'default shortcut pressed')).toMatchObject({ delivered: true, sentToWindow: START });
    expect(step(glue, 'old shortcut pressed')).toMatchObject({ delivered: false, sentToWindow: [] });
  });
});

describe('the identity the desktop knows the app by (Linux)', () => {
  it('is the reverse-DNS appId, whole, in the installed .desktop name', () => {
    const desktopName = String(config.extraMetadata?.['desktopName'] ?? '');
    // Electron and electron-builder's syncDesktopName each strip one ".desktop".
    const id = desktopName.replace(/\.desktop$/, '');
    expect(id).toBe(config.appId);
    // Reverse-DNS as the desktop entry specification names files: three or more elements, each
    // letters, digits, "_" or "-", not starting with a digit.
    expect(id).toMatch(/^[A-Za-z_][\w-]*(\.[A-Za-z_][\w-]*){2,}$/);
    expect(config.linux?.syncDesktopName).toBe(true);
  });
});
