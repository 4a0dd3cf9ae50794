// The BUILT main (out/main/index.js, as electron-vite makes it) started under plain Node, with
// the module `electron` replaced by a small fake (support/fake-electron/): the fake records
// what main asks of Electron and refuses loudly any API it does not have, and its driver, once
// main has opened its window, calls main's IPC handlers as the window would and reports what it
// saw. So the bundle itself is shown to start: its imports resolve, electron-log initializes,
// the secret store is chosen, the core starts its embedded sandbox, and a sign-in goes over
// real HTTP. Then the window is closed (and, in a second run on the same folder, the app is
// quit), and the process must end by itself with main's core stopped first. A third run on a
// data folder that cannot be created shows the failed start: an error box, and exit 1.
//
// What this cannot show: anything Chromium does (the page, the preload, the sandbox of the
// renderer); the end-to-end suite's `electron` target runs those with the real binary.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createProxy, type ProxyServer } from 'proxy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMORY_ONLY_NOTICE } from '../../src/main/core/sign-in/secret-store.ts';
import { CONTENT_SECURITY_POLICY } from '../../src/main/security.ts';
import { INVOKE_CHANNELS } from '../../src/shared/ipc.ts';
import {
  DESKTOP_PREFIX,
  KEPT_PREFIX,
  type DesktopReport,
  type KeptReport,
  type Report,
} from '../support/fake-electron/report.ts';
import {
  ENGINE_STOPS_AT_WILL_QUIT,
  leftOpen,
  MAIN,
  ROOT,
  runMain,
  type Run,
} from '../support/fake-electron/run-main.ts';

const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  productName: string;
};
const ELECTRON_LOG_CHANNEL = '__ELECTRON_LOG__';
// The warnings the driver provokes on purpose (a stranger calling IPC, a navigation away);
// electron-log's console transport writes warnings to stderr. Anything else there fails.
const EXPECTED_STDERR = [
  /› ipc session:get: refused a call from https:\/\/attacker\.example\/$/,
  /› navigation to "https:\/\/attacker\.example\/" refused$/,
];

/** Every file under `dir`, as paths relative to it. */
function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(dir, f)).isFile());
}

const answerData = <T>(answer: { ok: boolean; data?: unknown }): T => {
  expect(answer.ok, JSON.stringify(answer)).toBe(true);
  return answer.data as T;
};

describe('the built main, under plain Node with a fake Electron', () => {
  let home: string;
  let tokenLog: string;
  let first: Run;
  let kept: Run;
  let day: Run;
  let dayHome: string;
  let desktop: DesktopReport;
  let second: Run;
  let failed: Run<Report | null>;
  let failedHome: string;
  let userData: string;
  let proxy: ProxyServer;
  const proxied: string[] = [];

  beforeAll(async () => {
    expect(existsSync(MAIN), 'out/main/index.js is missing: run "npm run build" first').toBe(true);
    home = mkdtempSync(join(tmpdir(), 'vet-scribe-built-main-'));
    tokenLog = join(home, 'tokens.txt');
    userData = join(home, 'config', PACKAGE.productName);
    // The first run's computer is set to use a proxy: every service call must go through it.
    proxy = createProxy(createServer());
    proxy.on('request', (req: { url?: string }) => proxied.push(req.url ?? ''));
    proxy.on('connect', (req: { url?: string }) => proxied.push(`CONNECT ${req.url ?? ''}`));
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', () => resolve()));
    first = await runMain(home, tokenLog, 'close', {
      FAKE_ELECTRON_PROXY: `PROXY 127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    });
    second = await runMain(home, tokenLog, 'quit');
    kept = await runMain(home, tokenLog, 'keep-recording');
    // The tray and the shortcut, with notifications supported and Alt+F4 held by "another app".
    dayHome = mkdtempSync(join(tmpdir(), 'vet-scribe-built-main-desktop-'));
    day = await runMain(dayHome, join(dayHome, 'tokens.txt'), 'desktop', {
      FAKE_ELECTRON_NOTIFICATIONS: '1',
      FAKE_ELECTRON_TAKEN_SHORTCUTS: 'Alt+F4',
    });
    const dayLine = day.stdout
      .split('\n')
      .find((l) => l.startsWith(DESKTOP_PREFIX))
      ?.slice(DESKTOP_PREFIX.length);
    if (!dayLine) throw new Error(`the desktop run printed no report\n${day.stdout}\n${day.stderr}`);
    desktop = JSON.parse(dayLine) as DesktopReport;
    // Where the data folder should be, a file: the core cannot create its folder.
    failedHome = mkdtempSync(join(tmpdir(), 'vet-scribe-built-main-failed-'));
    writeFileSync(join(failedHome, 'config'), 'not a folder');
    failed = await runMain(failedHome, join(failedHome, 'tokens.txt'), null);
  });

  afterAll(async () => {
    proxy.closeAllConnections();
    await new Promise((resolve) => proxy.close(resolve));
    for (const dir of [home, failedHome, dayHome]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('starts, using only Electron APIs the fake has, and shows no error box', () => {
    for (const run of [first, second]) {
      expect(run.report.driverError).toBeUndefined();
      expect(run.report.unimplemented).toEqual([]);
      expect(run.quit.unimplemented).toEqual([]);
      expect(run.report.errorBoxes).toEqual([]);
      expect(run.quit.errorBoxes).toEqual([]);
    }
    // What main asked of Electron, so a change in it shows here first.
    expect(first.report.calls).toEqual(
      expect.arrayContaining([
        'app.requestSingleInstanceLock',
        'app.setName',
        'app.whenReady',
        'protocol.registerSchemesAsPrivileged',
        'protocol.handle',
        'new BrowserWindow',
        'BrowserWindow.loadURL',
        'BrowserWindow.show',
      ]),
    );
  });

  it('opens one hardened window on the built page, with the built preload, shown once ready', () => {
    const { window } = first.report;
    expect(window.count).toBe(1);
    expect(window.loaded).toEqual([pathToFileURL(join(ROOT, 'out', 'renderer', 'index.html')).href]);
    expect(existsSync(join(ROOT, 'out', 'renderer', 'index.html'))).toBe(true);
    expect(window.options['show']).toBe(false);
    expect(window.visible).toBe(true);
    const prefs = window.options['webPreferences'] as Record<string, unknown>;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      webviewTag: false,
      allowRunningInsecureContent: false,
    });
    expect(prefs['preload']).toBe(join(ROOT, 'out', 'preload', 'index.cjs'));
    expect(existsSync(prefs['preload'] as string)).toBe(true);
  });

  it('registers exactly the contract channels, and no ipcMain.on listener at all', () => {
    // electron-log/main adds a channel of its own on import, which would bypass main's sender
    // check (src/main/ipc.ts); main removes it.
    expect(first.report.ipcChannels).not.toContain(ELECTRON_LOG_CHANNEL);
    expect([...first.report.ipcChannels].sort()).toEqual([...INVOKE_CHANNELS].sort());
    expect(first.report.ipcListeners).toEqual([]);
  });

  it('answers its own window, refuses a stranger, and says tokens are kept in memory', () => {
    const info = answerData<{
      name: string;
      version: string;
      sandbox: { demo: { email: string } } | null;
      secretStore: { kind: string; persistent: boolean };
      notices: { level: string; message: string }[];
    }>(first.report.appInfo);
    expect(info.name).toBe('Vet Scribe');
    expect(info.version).toBe(PACKAGE.version);
    expect(info.sandbox?.demo.email).toMatch(/@/);
    expect(info.secretStore).toMatchObject({ kind: 'memory', persistent: false });
    expect(info.notices).toContainEqual({ level: 'warning', message: MEMORY_ONLY_NOTICE });
    expect(answerData(first.report.sessionBefore)).toEqual({ signedIn: false, user: null, endedBecause: null });
    expect(first.report.stranger).toEqual({
      ok: false,
      error: { code: 'forbidden_sender', message: expect.any(String) },
    });
  });

  it('signs in with the embedded sandbox demo account over real HTTP, and uses the session', () => {
    const demo = (first.report.appInfo.data as { sandbox: { demo: { email: string } } }).sandbox.demo;
    const signedIn = answerData<{ signedIn: boolean; user: { email: string } | null }>(first.report.signIn);
    expect(signedIn.signedIn).toBe(true);
    expect(signedIn.user?.email).toBe(demo.email);
    expect(answerData<{ signedIn: boolean }>(first.report.sessionAfter).signedIn).toBe(true);
    expect(first.report.templates).toMatchObject({ ok: true, count: expect.any(Number) });
    expect((first.report.templates as { count: number }).count).toBeGreaterThan(0);
    expect(first.report.wrongPassword).toMatchObject({ ok: false, error: { code: 'invalid_credentials' } });
    // The window heard about it, without a token.
    expect(first.report.sentToWindow).toContainEqual({
      channel: 'session:changed',
      args: [expect.objectContaining({ signedIn: true })],
    });
    // The sandbox really served it: it issued tokens, and main logged the HTTP calls.
    const issued = readFileSync(tokenLog, 'utf8').split('\n').filter(Boolean);
    expect(issued.length).toBeGreaterThanOrEqual(2);
    const log = readFileSync(join(userData, 'logs', 'main.log'), 'utf8');
    expect(log).toMatch(/sandbox: serving on http:\/\/127\.0\.0\.1:\d+/);
    expect(log).toMatch(/sign-in: POST 200/);
    expect(log).toMatch(/templates: GET 200/);
    expect(first.report.resourcesWhileRunning['TCPServerWrap'] ?? 0).toBeGreaterThanOrEqual(1);
  });

  it('shows a tray icon (idle) and registers the default recording shortcut at start', () => {
    expect(first.report.shortcuts).toEqual(['CommandOrControl+Shift+R']);
    expect(first.report.tray).toMatchObject({
      tooltip: 'Vet Scribe — not recording',
      image: { scales: [1, 2], template: false },
    });
    const menu = first.report.tray?.menu ?? [];
    expect(menu.filter((i) => i.enabled).map((i) => i.id)).toEqual(['start', 'show', 'quit']);
    // The menu shows the shortcut without registering it a second time.
    expect(menu.find((i) => i.id === 'start')).toMatchObject({
      accelerator: 'CommandOrControl+Shift+R',
      registerAccelerator: false,
    });
  });

  it('the tray and the shortcut through a day: a taken shortcut refused, the recorder driven, the window closed to the tray and said once', () => {
    expect(desktop.driverError).toBeUndefined();
    const step = (name: string) => {
      const found = desktop.steps.find((s) => s.step === name);
      if (!found) throw new Error(`no step ${name}: ${JSON.stringify(desktop.steps.map((s) => s.step))}`);
      return found;
    };
    expect(step('taken shortcut').answer).toEqual({
      ok: false,
      error: {
        code: 'invalid_input',
        message: 'recordShortcut: Alt+F4 is already used by another app or by the system; choose another.',
      },
    });
    expect(step('taken shortcut').shortcuts).toEqual(['CommandOrControl+Shift+R']);
    expect(step('new shortcut').answer).toMatchObject({ ok: true, data: { recordShortcut: 'CommandOrControl+Alt+R' } });
    expect(step('new shortcut').shortcuts).toEqual(['CommandOrControl+Alt+R']);
    // Pressed while idle: the window is shown and its recorder asked to start.
    expect(step('shortcut pressed while idle')).toMatchObject({
      visible: true,
      sentToWindow: [{ channel: 'recorder:command', args: [{ action: 'start' }] }],
    });
    const recording = step('recording started');
    expect(recording.tray).toMatchObject({ tooltip: 'Vet Scribe — recording', image: { centre: [40, 40, 214, 255] } });
    expect(recording.tray?.menu.filter((i) => i.enabled).map((i) => i.id)).toEqual(['pause', 'stop', 'show', 'quit']);
    expect(recording.sentToWindow).toContainEqual({ channel: 'recorder:activity', args: [{ activity: 'recording' }] });
    expect(step('tray: pause').sentToWindow).toEqual([{ channel: 'recorder:command', args: [{ action: 'pause' }] }]);
    expect(step('recording paused').tray).toMatchObject({ tooltip: 'Vet Scribe — recording paused' });
    expect(step('recording paused').tray?.menu.map((i) => i.id)).toContain('resume');
    // Closed while recording: hidden, not closed, and said once.
    expect(step('window closed while paused')).toMatchObject({ windows: 1, visible: false });
    expect(step('window closed again')).toMatchObject({ windows: 1, visible: false });
    expect(desktop.notifications).toEqual([
      {
        title: 'Still recording',
        body: 'Vet Scribe keeps recording with its window closed. Stop it from the tray icon or with Ctrl+Alt+R.',
      },
    ]);
    expect(step('tray: show').visible).toBe(true);
    expect(
      step('shortcut pressed while recording').sentToWindow.filter((m) => m.channel === 'recorder:command'),
    ).toEqual([{ channel: 'recorder:command', args: [{ action: 'stop' }] }]);
    expect(step('recording stopped').tray).toMatchObject({ tooltip: 'Vet Scribe — not recording' });
    // The quit lets go of the shortcut and the tray.
    expect(day.quit).toMatchObject({ shortcuts: [], traysAlive: 0, unimplemented: [], errorBoxes: [] });
    expect(day.code).toBe(0);
  });

  it("goes through the proxy Chromium names for each address (session.resolveProxy), the clinic network's way", () => {
    expect(first.report.calls).toContain('session.resolveProxy');
    const paths = proxied.map((u) => (u.startsWith('http') ? new URL(u).pathname : u));
    expect(paths.some((p) => p.endsWith('/auth/sign-in'))).toBe(true);
    expect(paths.some((p) => p.includes('/templates/all'))).toBe(true);
    // The runs without a proxy went direct: the proxy saw only the first run's calls.
    expect(proxied.every((u) => u.startsWith('http://127.0.0.1:'))).toBe(true);
  });

  it("puts a note on the system clipboard in its three flavours at once, through Electron's clipboard.write", () => {
    const { clipboard } = first.report;
    expect(clipboard.answer).toEqual({ ok: true, data: { written: true } });
    // One ClipboardItem, the three flavours under their MIME types.
    expect(clipboard.writes).toEqual([
      { 'text/plain': clipboard.sent.text, 'text/html': clipboard.sent.html, 'text/rtf': clipboard.sent.rtf },
    ]);
    expect(clipboard.sent.rtf).toMatch(/^\{\\rtf1/);
    expect(first.report.calls).toContain('clipboard.write');
  });

  it('installs the CSP, the microphone-only permission check, the navigation guard and the audio protocol', () => {
    const r = first.report;
    expect(r.csp).toEqual([CONTENT_SECURITY_POLICY]);
    expect(r.permissions).toEqual({
      microphoneForOurPage: true,
      microphoneForAStranger: false,
      cameraForOurPage: false,
    });
    expect(r.navigation).toEqual({ awayPrevented: true, ownPagePrevented: false });
    expect(r.privilegedSchemes).toEqual([
      { scheme: 'vetscribe-audio', privileges: { standard: true, secure: true, stream: true } },
    ]);
    expect(r.protocolSchemes).toEqual(['vetscribe-audio']);
    expect(r.audio).toEqual({ unknownRecordingStatus: 404 });
    expect(r.openedExternally).toEqual([]);
  });

  it('writes no token: not in its log file, its data folder, its console, nor to the window', () => {
    const issued = [...new Set(readFileSync(tokenLog, 'utf8').split('\n').filter(Boolean))];
    expect(issued.every((t) => t.startsWith('eyJ'))).toBe(true);
    const logs = files(home).filter((f) => f.endsWith('.log'));
    expect(logs).toEqual([relative(home, join(userData, 'logs', 'main.log'))]);
    // The sandbox's own state (the server side) and the test's token list are not main's.
    const mainFiles = files(home).filter(
      (f) => f !== 'tokens.txt' && !f.startsWith(relative(home, join(userData, 'sandbox'))),
    );
    expect(mainFiles.length).toBeGreaterThan(0);
    for (const f of mainFiles) {
      const text = readFileSync(join(home, f), 'utf8');
      expect(text, f).not.toContain('eyJ');
      for (const t of issued) expect(text.includes(t) || text.includes(t.split('.')[2] ?? '\u0000'), f).toBe(false);
    }
    for (const run of [first, second]) {
      expect(run.stdout).not.toContain('eyJ');
      expect(run.stderr).not.toContain('eyJ');
    }
  });

  it('quits when its window is closed: the core stops first, nothing is left running, exit 0', () => {
    // The engine stops at will-quit (prevented once while it stops), after the windows are gone.
    expect(first.quit.quitLog).toEqual([
      'window closed',
      'window-all-closed',
      'before-quit',
      ...ENGINE_STOPS_AT_WILL_QUIT,
    ]);
    expect(first.quit.windows).toBe(0);
    // Only this process's own stdio pipes: the sandbox's server and sockets are closed.
    expect(leftOpen(first.quit)).toEqual([]);
    expect(first.code).toBe(0);
    expect(first.signal).toBeNull();
  });

  it('a quit the vet cancels ("Keep recording") leaves the engine running; the next quit stops it', () => {
    const line = kept.stdout
      .split('\n')
      .find((l) => l.startsWith(KEPT_PREFIX))
      ?.slice(KEPT_PREFIX.length);
    expect(line, kept.stdout).toBeDefined();
    const report = JSON.parse(line ?? '{}') as KeptReport & { driverError?: string };
    expect(report.driverError).toBeUndefined();
    expect(report.quitLogSoFar).toEqual(['before-quit', 'a window refused to close']);
    // The embedded sandbox still serves: the engine was not stopped by the cancelled quit.
    expect(answerData<{ sandbox: { demo: unknown } | null }>(report.appInfo).sandbox).not.toBeNull();
    expect(kept.quit.quitLog).toEqual([
      'before-quit',
      'a window refused to close',
      'before-quit',
      'window closed',
      ...ENGINE_STOPS_AT_WILL_QUIT,
    ]);
    expect(leftOpen(kept.quit)).toEqual([]);
    expect(kept.code).toBe(0);
  });

  it('quits on app.quit() too, and a restart has forgotten the session (kept in memory only)', () => {
    expect(answerData(second.report.sessionBefore)).toEqual({ signedIn: false, user: null, endedBecause: null });
    expect(second.quit.quitLog).toEqual(['before-quit', 'window closed', ...ENGINE_STOPS_AT_WILL_QUIT]);
    expect(leftOpen(second.quit)).toEqual([]);
    expect(second.code).toBe(0);
    expect(second.signal).toBeNull();
  });

  it('prints nothing on stderr but the warnings the test provoked', () => {
    for (const run of [first, second]) {
      const lines = run.stderr.split('\n').filter((l) => l.trim() !== '');
      const unexpected = lines.filter((l) => !EXPECTED_STDERR.some((p) => p.test(l)));
      expect(unexpected).toEqual([]);
      expect(lines.length).toBe(EXPECTED_STDERR.length);
    }
  });

  it('a start that fails says why in an error box and on its console, and ends with exit 1 (no lingering process)', () => {
    expect(failed.report).toBeNull();
    expect(failed.quit.unimplemented).toEqual([]);
    expect(failed.quit.quitLog).toEqual(['exit(1)']);
    expect(failed.quit.errorBoxes).toEqual([
      { title: 'Vet Scribe could not start', content: expect.stringContaining('ENOTDIR') },
    ]);
    expect(failed.stderr).toMatch(/startup failed: Error: ENOTDIR/);
    expect(failed.code).toBe(1);
  });
});
