// Runs in the child next to the built main (loaded by register.ts). Once main has created its
// window and loaded its page, it does what Electron and the page would: calls the IPC handlers
// main registered (with an event whose sender is that window, and once with a stranger), the
// session's header and permission hooks, the navigation guard and the audio protocol; then it
// prints one line `FAKE_ELECTRON_REPORT <json>` on stdout (report.ts). A line `close` on stdin
// closes the window as the user would, a line `quit` quits the app (app.quit()); right before
// the process ends it prints `FAKE_ELECTRON_QUIT <json>`, with the handles still open then.
//
// It is one long file on purpose: it is loaded into main's process by one `--import`, and every
// scenario (the desktop day, the launches during start-up, the glue's scenarios below) needs the
// same window, IPC calls and waits of that one process; split, its parts would only import each
// other. Each scenario is a section of its own, run by the line or variable that names it.
import {
  activateFromActionCenter,
  app,
  fake,
  FakeWebContents,
  ipcMain,
  preventable,
  pressShortcut,
  strict,
  timeOutToast,
  type FakeBrowserWindow,
} from './electron.ts';
import {
  DESKTOP_PREFIX,
  GLUE_PREFIX,
  KEPT_PREFIX,
  QUIT_PREFIX,
  REPORT_PREFIX,
  type Answer,
  type DesktopReport,
  type GlueReport,
  type GlueStep,
  type KeptReport,
  type QuitReport,
  type Report,
  type TraySnapshot,
} from './report.ts';

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const WAIT_MS = 15_000;

function print(prefix: string, value: unknown): void {
  process.stdout.write(`${prefix}${JSON.stringify(value)}\n`);
}

function resources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of process.getActiveResourcesInfo()) counts[r] = (counts[r] ?? 0) + 1;
  return counts;
}

async function until(what: string, condition: () => boolean): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** An IpcMainInvokeEvent as Electron builds it for a call from `sender`'s top frame at `url`. */
function invokeEvent(sender: unknown, url: string): unknown {
  return strict('IpcMainInvokeEvent', {
    sender,
    senderFrame: strict('IpcMainInvokeEvent.senderFrame', { url, parent: null, origin: new URL(url).origin }),
    processId: 1,
    frameId: 1,
  });
}

type Observed = Omit<Report, 'calls' | 'unimplemented' | 'errorBoxes' | 'openedExternally'>;

function traySnapshot(): TraySnapshot | null {
  const tray = fake.trays.find((t) => !t.destroyed);
  if (!tray) return null;
  return {
    tooltip: tray.tooltip,
    menu: (tray.menu?.items ?? []).map(({ id, label, enabled, accelerator, registerAccelerator, type }) => ({
      id,
      label,
      enabled,
      accelerator,
      registerAccelerator,
      type,
    })),
    image: {
      centre: tray.image.centre,
      scales: tray.image.representations.map((r) => r.scaleFactor),
      template: tray.image.template,
    },
  };
}

/** Clicks the tray menu's item as the vet would. */
function clickTray(id: string): void {
  const item = fake.trays.find((t) => !t.destroyed)?.menu?.items.find((i) => i.id === id);
  if (!item?.click) throw new Error(`the tray menu has no item ${id}`);
  if (item.enabled === false) throw new Error(`the tray menu's ${id} is disabled`);
  item.click();
}

async function exercise(win: FakeBrowserWindow): Promise<Observed> {
  await until('the window to load a page and show', () => win.loaded.length > 0 && win.visible);
  const page = win.loaded[0]!;
  const ours = invokeEvent(win.webContents, page);
  const invoke = async (channel: string, input: unknown, event: unknown = ours): Promise<Answer> => {
    const handler = fake.ipcHandlers.get(channel) as ((event: unknown, input: unknown) => unknown) | undefined;
    if (!handler) return { ok: false, missing: true };
    // Electron hands main a structured clone of what the page sent, and the page a clone of
    // the answer (an answer that cannot be cloned fails here as it would there).
    return structuredClone((await handler(event, structuredClone(input))) as Answer);
  };

  const appInfo = await invoke('app:info', undefined);
  const sessionBefore = await invoke('session:get', undefined);
  const stranger = await invoke(
    'session:get',
    undefined,
    invokeEvent(strict('webContents', new FakeWebContents()), 'https://attacker.example/'),
  );
  const demo = (appInfo.data as { sandbox?: { demo?: { email: string; password: string } } } | undefined)?.sandbox
    ?.demo;
  const signIn = demo
    ? await invoke('session:signIn', { email: demo.email, password: demo.password })
    : { ok: false, error: { code: 'test', message: 'app:info named no demo account' } };
  const sessionAfter = await invoke('session:get', undefined);
  // Signed in, the page shows its recorder, which subscribes to the tray's and the shortcut's
  // commands and then says it listens (recorder-controller.ts, initRecorder).
  await invoke('recorder:listening', undefined);
  const templates = await invoke('templates:list', { page: 1, limit: 5 });
  const wrongPassword = demo
    ? await invoke('session:signIn', { email: demo.email, password: `${demo.password}-wrong` })
    : null;
  const flavours = {
    text: 'Bella\n\nSubjective\nVomiting for two days.',
    html: '<h2>Subjective</h2><p>Vomiting for two days.</p>',
    rtf: '{\\rtf1\\ansi Subjective\\par Vomiting.}',
  };
  const clipboardAnswer = await invoke('clipboard:write', flavours);
  const clipboard = { answer: clipboardAnswer, writes: structuredClone(fake.clipboardWrites), sent: flavours };

  let csp: unknown = null;
  // As Chromium would for the page's own response: the hook adds the CSP header.
  for (const listener of fake.headersReceived) {
    (listener as (details: unknown, callback: (r: { responseHeaders: Record<string, string[]> }) => void) => void)(
      { url: page, responseHeaders: { 'Content-Type': ['text/html'] } },
      (r) => (csp = r.responseHeaders['Content-Security-Policy'] ?? null),
    );
  }
  const check = fake.permissionCheckHandler as
    ((wc: unknown, permission: string, origin: string, details: Record<string, unknown>) => boolean) | null;
  const permissions = check
    ? {
        microphoneForOurPage: check(win.webContents, 'media', 'file:///', { requestingUrl: page, mediaType: 'audio' }),
        microphoneForAStranger: check(win.webContents, 'media', 'https://attacker.example', {
          requestingUrl: 'https://attacker.example/',
          mediaType: 'audio',
        }),
        cameraForOurPage: check(win.webContents, 'media', 'file:///', { requestingUrl: page, mediaType: 'video' }),
      }
    : null;
  const navigate = (url: string) => {
    const event = preventable('will-navigate event');
    win.webContents.emit('will-navigate', event, url);
    return event.defaultPrevented;
  };
  const navigation = { awayPrevented: navigate('https://attacker.example/'), ownPagePrevented: navigate(page) };
  const audioHandler = fake.protocolHandlers.get('vetscribe-audio');
  const audio = audioHandler
    ? {
        unknownRecordingStatus: (
          (await audioHandler(new Request('vetscribe-audio://recording/no-such-id'))) as Response
        ).status,
      }
    : null;

  return {
    window: { options: win.options, loaded: win.loaded, visible: win.visible, count: fake.windows.length },
    ipcChannels: [...fake.ipcHandlers.keys()],
    ipcListeners: ipcMain.eventNames().map(String),
    appInfo,
    sessionBefore,
    stranger,
    signIn,
    sessionAfter,
    templates: templates.ok ? { ok: true, count: (templates.data as { items: unknown[] }).items.length } : templates,
    wrongPassword,
    clipboard,
    sentToWindow: win.webContents.sent.filter((m) => !m.channel.startsWith('__ELECTRON_LOG')),
    csp,
    permissions,
    navigation,
    audio,
    privilegedSchemes: fake.privilegedSchemes,
    protocolSchemes: [...fake.protocolHandlers.keys()],
    resourcesWhileRunning: resources(),
    tray: traySnapshot(),
    shortcuts: [...fake.shortcuts.keys()],
  };
}

/**
 * The vet's day with the tray and the shortcut: a taken shortcut refused, another chosen, the
 * shortcut pressed, a recording started, paused from the tray, the window closed while
 * recording (twice), shown again from the tray, stopped with the shortcut; then a quit.
 */
async function desktopDay(): Promise<DesktopReport> {
  const win = fake.windows[0];
  if (!win) throw new Error('no window');
  const page = win.loaded[0]!;
  const invoke = async (channel: string, input: unknown): Promise<Answer> => {
    const handler = fake.ipcHandlers.get(channel) as ((event: unknown, input: unknown) => unknown) | undefined;
    if (!handler) return { ok: false, missing: true };
    return structuredClone((await handler(invokeEvent(win.webContents, page), structuredClone(input))) as Answer);
  };
  const steps: DesktopReport['steps'] = [];
  let seen = win.webContents.sent.length;
  const note = (step: string, answer?: Answer) => {
    const sent = win.webContents.sent.slice(seen).filter((m) => m.channel.startsWith('recorder:'));
    seen = win.webContents.sent.length;
    steps.push({
      step,
      tray: traySnapshot(),
      shortcuts: [...fake.shortcuts.keys()],
      sentToWindow: sent,
      visible: win.destroyed ? null : win.visible,
      windows: fake.windows.length,
      ...(answer ? { answer } : {}),
    });
  };
  const press = (accelerator: string) => {
    if (!pressShortcut(accelerator)) throw new Error(`${accelerator} is not registered`);
  };
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  note('start');
  note('taken shortcut', await invoke('settings:update', { recordShortcut: 'Alt+F4' }));
  note('new shortcut', await invoke('settings:update', { recordShortcut: 'CommandOrControl+Alt+R' }));
  win.hide();
  press('CommandOrControl+Alt+R');
  note('shortcut pressed while idle');
  const started = await invoke('recording:start', { mimeType: 'audio/webm;codecs=opus', patientName: 'Bella' });
  const id = (started.data as { id?: string } | undefined)?.id ?? '';
  await tick();
  note('recording started', started);
  clickTray('pause');
  note('tray: pause');
  await invoke('recording:pause', { id });
  await tick();
  note('recording paused');
  win.close();
  await tick();
  note('window closed while paused');
  win.show();
  win.close();
  await tick();
  note('window closed again');
  clickTray('show');
  note('tray: show');
  await invoke('recording:resume', { id });
  press('CommandOrControl+Alt+R');
  note('shortcut pressed while recording');
  await invoke('recording:stop', { id, durationMs: 1000 });
  await tick();
  note('recording stopped');
  return { steps, notifications: [...fake.notifications] };
}

fake.events.once('window', (win: FakeBrowserWindow) => {
  void exercise(win)
    .catch((e: unknown) => ({ driverError: (e as Error).stack ?? String(e) }) as Partial<Observed>)
    .then((observed) => {
      const report: Partial<Report> = {
        ...observed,
        calls: [...new Set(fake.calls)],
        unimplemented: fake.unimplemented,
        errorBoxes: fake.errorBoxes,
        openedExternally: fake.openedExternally,
      };
      print(REPORT_PREFIX, report);
    });
});

// --- launches during start-up (FAKE_ELECTRON_LAUNCHES=n) ------------------------------------

/**
 * The vet double-clicks the app's icon again while it starts: Electron emits `second-instance`
 * in the running app for each launch, any time after `ready`. The launches start when main
 * hands the audio protocol its handler (the engine exists and is starting) and come 3 ms
 * apart, each its own task, as Electron delivers them.
 */
const LAUNCHES = Number(process.env['FAKE_ELECTRON_LAUNCHES'] ?? '0');
const launches = { made: 0, beforeIpc: 0 };
if (LAUNCHES > 0) {
  const onCall = (name: string) => {
    if (name !== 'protocol.handle') return;
    fake.events.off('call', onCall);
    for (let i = 0; i < LAUNCHES; i++) {
      setTimeout(() => {
        launches.made += 1;
        if (fake.ipcHandlers.size === 0) launches.beforeIpc += 1;
        app.emit('second-instance', preventable('second-instance event'), [process.execPath, '.'], process.cwd(), {});
      }, i * 3);
    }
  };
  fake.events.on('call', onCall);
}

// --- the glue's scenarios (GLUE_PREFIX) ------------------------------------------------------

/** Runs `scenario` with a step recorder on the first window, and prints its report. */
async function glue(name: string, scenario: (s: GlueSession) => Promise<void>): Promise<void> {
  const report: GlueReport = { scenario: name, steps: [] };
  try {
    const win = fake.windows[0];
    if (!win) throw new Error('no window');
    const page = win.loaded[0]!;
    let seen = win.webContents.sent.length;
    const session: GlueSession = {
      win,
      invoke: async (channel, input) => {
        const handler = fake.ipcHandlers.get(channel) as ((event: unknown, input: unknown) => unknown) | undefined;
        if (!handler) return { ok: false, missing: true };
        return structuredClone((await handler(invokeEvent(win.webContents, page), structuredClone(input))) as Answer);
      },
      note: (step, extra = {}) => {
        const sent = win.webContents.sent.slice(seen).filter((m) => m.channel.startsWith('recorder:command'));
        seen = win.webContents.sent.length;
        report.steps.push({
          step,
          visible: win.destroyed ? null : win.visible,
          windows: fake.windows.length,
          sentToWindow: sent,
          ...extra,
        });
      },
      tick: () => new Promise((resolve) => setTimeout(resolve, 20)),
    };
    await scenario(session);
  } catch (e) {
    report.driverError = (e as Error).stack ?? String(e);
  }
  print(GLUE_PREFIX, report);
}

interface GlueSession {
  win: FakeBrowserWindow;
  invoke: (channel: string, input: unknown) => Promise<Answer>;
  note: (step: string, extra?: Partial<GlueStep>) => void;
  tick: () => Promise<void>;
}

/** Starts a recording from the window and closes the window, which hides it (main keeps recording). */
async function recordThenClose(s: GlueSession): Promise<string> {
  const started = await s.invoke('recording:start', { mimeType: 'audio/webm;codecs=opus', patientName: 'Bella' });
  const id = (started.data as { id?: string } | undefined)?.id ?? '';
  s.note('recording started', { answer: started });
  s.win.close();
  await s.tick();
  s.note('window closed while recording');
  return id;
}

/** macOS: the window was closed to the tray while recording; the vet clicks the Dock icon. */
async function activateHidden(s: GlueSession): Promise<void> {
  const id = await recordThenClose(s);
  app.emit('activate', preventable('activate event'), true);
  await s.tick();
  s.note('dock icon clicked');
  await s.invoke('recording:stop', { id, durationMs: 1000 });
}

/**
 * Windows: a "Still recording" toast times out into the Action Center (its object gets
 * 'close'); the vet clicks it there later.
 */
async function toastTimeout(s: GlueSession): Promise<void> {
  const id = await recordThenClose(s);
  const toast = fake.notificationObjects.at(-1);
  if (!toast) throw new Error('main showed no notification when the window was closed while recording');
  timeOutToast(toast);
  await s.tick();
  s.note('toast timed out');
  const delivered = activateFromActionCenter();
  await s.tick();
  s.note('toast clicked in the Action Center', { delivered });
  await s.invoke('recording:stop', { id, durationMs: 1000 });
}

/** How long Windows lets an app run on after it was told the session ends, here. */
const SESSION_END_GRACE_MS = 3000;

/**
 * Windows: the vet logs off while recording. The window gets `session-end` (not preventable);
 * before-quit and will-quit never come; Windows ends the process soon after, whatever it does.
 */
async function sessionEnd(s: GlueSession): Promise<void> {
  await recordThenClose(s);
  const event = Object.assign(preventable('session-end event'), { reasons: ['logoff'] });
  fake.quitLog.push('session-end');
  s.note('before session-end');
  s.win.emit('session-end', event);
  setTimeout(() => {
    fake.quitLog.push('terminated by Windows at the end of the session');
    fake.events.emit('quitting', 1);
    process.exit(1);
  }, SESSION_END_GRACE_MS).unref();
}

/**
 * A Linux Wayland session (FAKE_ELECTRON_SHORTCUT_PORTAL): the default shortcut pressed, a new
 * one chosen, the old and the new pressed, then the tray's Start.
 */
async function waylandShortcut(s: GlueSession): Promise<void> {
  s.note('start', { answer: await s.invoke('app:info', undefined) });
  const oldKeys = 'CommandOrControl+Shift+R';
  const newKeys = 'CommandOrControl+Alt+R';
  let delivered = pressShortcut(oldKeys);
  await s.tick();
  s.note('default shortcut pressed', { delivered });
  s.note('shortcut changed', { answer: await s.invoke('settings:update', { recordShortcut: newKeys }) });
  s.win.hide();
  delivered = pressShortcut(oldKeys);
  await s.tick();
  s.note('old shortcut pressed', { delivered });
  delivered = pressShortcut(newKeys);
  await s.tick();
  s.note('new shortcut pressed', { delivered });
  s.win.hide();
  clickTray('start');
  await s.tick();
  s.note('tray: start');
}

/**
 * The vet quits while recording and answers "Keep recording": the window refuses to close once
 * (as the page's beforeunload and main's question make it), so the quit is cancelled. The driver
 * then asks the engine what it still does, reports it, and quits again, this time for good.
 */
async function keepRecordingThenQuit(): Promise<void> {
  const win = fake.windows[0];
  if (!win) throw new Error('no window to keep');
  let refused = false;
  win.on('close', (event: { preventDefault(): void }) => {
    if (refused) return;
    refused = true;
    event.preventDefault();
  });
  app.quit();
  await until('the quit to be cancelled by the window', () => refused && !fake.quitting);
  const handler = fake.ipcHandlers.get('app:info') as ((event: unknown, input: unknown) => unknown) | undefined;
  const appInfo = handler
    ? (structuredClone(await handler(invokeEvent(win.webContents, win.loaded[0]!), undefined)) as Answer)
    : { ok: false, missing: true as const };
  const kept: KeptReport = { appInfo, quitLogSoFar: [...fake.quitLog] };
  print(KEPT_PREFIX, kept);
  app.quit();
}

/** A five-second consult for `patientName`, recorded from the window and stopped (Stop sends it). */
async function recordConsult(s: GlueSession, patientName: string, templateId: string): Promise<string> {
  const started = await s.invoke('recording:start', { mimeType: 'audio/webm;codecs=opus', patientName, templateId });
  const id = (started.data as { id?: string } | undefined)?.id;
  if (!id) throw new Error(`recording:start failed: ${JSON.stringify(started)}`);
  const dir = join(import.meta.dirname, '../../fixtures/audio/mediarecorder-5s');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.bin'))
    .sort();
  for (const [seq, file] of files.entries()) {
    const data = new Uint8Array(readFileSync(join(dir, file)));
    const answer = await s.invoke('recording:chunk', { id, seq, data, elapsedMs: (seq + 1) * 1000 });
    if (!answer.ok) throw new Error(`recording:chunk failed: ${JSON.stringify(answer)}`);
  }
  const stopped = await s.invoke('recording:stop', { id, durationMs: 5000 });
  if (!stopped.ok) throw new Error(`recording:stop failed: ${JSON.stringify(stopped)}`);
  return id;
}

/** What a window's page heard on consult:open. */
function opened(win: FakeBrowserWindow): unknown[] {
  return win.webContents.heardByPage.filter((m) => m.channel === 'consult:open').map((m) => m.args[0]);
}

/**
 * macOS (the app lives on with no window): a "Note ready" notification clicked while the window
 * is open opens that consult in it; one clicked after the window was closed opens a new window,
 * which is told once its page has loaded.
 */
async function noteClick(s: GlueSession): Promise<void> {
  const info = await s.invoke('app:info', undefined);
  const demo = (info.data as { sandbox?: { demo?: { email: string; password: string } } } | undefined)?.sandbox?.demo;
  if (!demo) throw new Error('app:info named no demo account');
  s.note('signed in', { answer: await s.invoke('session:signIn', { email: demo.email, password: demo.password }) });
  const templates = await s.invoke('templates:list', { page: 1, limit: 5 });
  const templateId = (templates.data as { items: { id: string }[] } | undefined)?.items[0]?.id;
  if (!templateId) throw new Error(`templates:list failed: ${JSON.stringify(templates)}`);
  const ready = (count: number) =>
    fake.notificationObjects.filter((n) => n.options.title === 'Note ready').length >= count;

  const bella = await recordConsult(s, 'Bella', templateId);
  await until('the note of Bella to be announced', () => ready(1));
  fake.notificationObjects.filter((n) => n.options.title === 'Note ready')[0]!.emit('click', {});
  await s.tick();
  s.note('note ready clicked with the window open', { opened: { expected: bella, got: opened(s.win) } });

  const rex = await recordConsult(s, 'Rex', templateId);
  s.win.close();
  await s.tick();
  s.note('window closed');
  await until('the note of Rex to be announced', () => ready(2));
  fake.notificationObjects.filter((n) => n.options.title === 'Note ready')[1]!.emit('click', {});
  await until('a new window to load its page', () => fake.windows.some((w) => w !== s.win && w.loaded.length > 0));
  await s.tick();
  const fresh = fake.windows.find((w) => w !== s.win)!;
  s.note('note ready clicked with no window', { opened: { expected: rex, got: opened(fresh) } });
}

/**
 * A window's page as the renderer is: once it has loaded and the vet is signed in, its recorder
 * subscribes to `recorder:command` and then says it listens (`recorder:listening`), which
 * answers the command held for it. What its recorder hears from then on, the held command first.
 */
function pageRecorder(win: FakeBrowserWindow): { listen(): Promise<Answer>; heard(): unknown[] } {
  let from: number | null = null;
  let handed: unknown[] = [];
  return {
    async listen() {
      await until('the window to load its page', () => win.webContents.url !== '' && win.visible);
      from = win.webContents.sent.length;
      const handler = fake.ipcHandlers.get('recorder:listening') as
        ((event: unknown, input: unknown) => unknown) | undefined;
      if (!handler) return { ok: false, missing: true };
      const answer = structuredClone(
        (await handler(invokeEvent(win.webContents, win.webContents.url), undefined)) as Answer,
      );
      handed = answer.ok && answer.data ? [{ action: answer.data }] : [];
      return answer;
    },
    heard() {
      if (from === null) return [];
      const sent = win.webContents.sent.slice(from).filter((m) => m.channel === 'recorder:command');
      return [...handed, ...sent.map((m) => m.args[0])];
    },
  };
}

/** The newest window, once main has opened one other than `than`. */
async function newWindow(than: readonly FakeBrowserWindow[]): Promise<FakeBrowserWindow> {
  await until('main to open a window', () => fake.windows.some((w) => !than.includes(w)));
  return fake.windows.find((w) => !than.includes(w))!;
}

/**
 * macOS, where the app lives on with no window: the tray's Start (and the shortcut pressed again
 * while the window loads) opens a window whose recorder must record once it listens, once; a
 * start held for a window closed before its page listened is not a later window's, nor the
 * next vet's after a Switch user; a page reloaded hears what came while it loaded.
 */
async function heldStart(s: GlueSession): Promise<void> {
  const info = await s.invoke('app:info', undefined);
  const demo = (info.data as { sandbox?: { demo?: { email: string; password: string } } } | undefined)?.sandbox?.demo;
  if (!demo) throw new Error('app:info named no demo account');
  const seen: FakeBrowserWindow[] = [s.win];
  s.win.close();
  await s.tick();
  s.note('window closed');
  /** The tray's `command` with no window open: the window main opens for it. */
  const trayOpens = async (command: string): Promise<FakeBrowserWindow> => {
    clickTray(command);
    const opened = await newWindow(seen);
    seen.push(opened);
    return opened;
  };

  const first = await trayOpens('start');
  const firstPage = pageRecorder(first);
  // Pressed again while the window loads: still one start.
  const delivered = pressShortcut('CommandOrControl+Shift+R');
  await until('the window to load its page', () => first.webContents.url !== '');
  await s.tick();
  await firstPage.listen();
  await s.tick();
  s.note('tray start with no window, then the shortcut', { delivered, heard: firstPage.heard() });

  first.close();
  await s.tick();
  const closedEarly = await trayOpens('start');
  closedEarly.close();
  await s.tick();
  const later = await trayOpens('show');
  const laterPage = pageRecorder(later);
  await laterPage.listen();
  await s.tick();
  s.note('a start for a window closed before it listened, then a window shown', { heard: laterPage.heard() });

  later.close();
  await s.tick();
  const switched = await trayOpens('start');
  const switchedPage = pageRecorder(switched);
  await until('the window to load its page', () => switched.webContents.url !== '');
  const invoke = (channel: string, input: unknown) =>
    (fake.ipcHandlers.get(channel) as (event: unknown, input: unknown) => Promise<Answer>)(
      invokeEvent(switched.webContents, switched.webContents.url),
      input,
    );
  const switchUser = await invoke('session:switchUser', undefined);
  await invoke('session:signIn', { email: demo.email, password: demo.password });
  await switchedPage.listen();
  await s.tick();
  s.note('a start, then Switch user before the page listened', {
    answer: structuredClone(switchUser),
    heard: switchedPage.heard(),
  });

  switched.webContents.reload();
  const reloadedPage = pageRecorder(switched);
  pressShortcut('CommandOrControl+Shift+R');
  await s.tick();
  await reloadedPage.listen();
  await s.tick();
  s.note('the shortcut while the page reloads', { heard: reloadedPage.heard() });
}

/** The glue's scenarios by command: what runs, and whether the app is quit after it. */
const GLUE: Record<string, [string, (s: GlueSession) => Promise<void>, boolean]> = {
  activate: ['activate', activateHidden, true],
  'toast-timeout': ['toast-timeout', toastTimeout, true],
  'session-end': ['session-end', sessionEnd, false],
  wayland: ['wayland', waylandShortcut, true],
  'note-click': ['note-click', noteClick, true],
  'held-start': ['held-start', heldStart, true],
};

// Commands from the test, one a line: `close` (the user closes the window), `quit` (the app is
// quit from its menu or the keyboard), `keep-recording` (a quit the vet cancels, then a quit).
// The test going away (stdin closed) quits the app too.
process.stdin.setEncoding('utf8');
process.stdin.on('data', (text: string) => {
  for (const command of text.split('\n')) {
    if (
      command !== 'close' &&
      command !== 'quit' &&
      command !== 'keep-recording' &&
      command !== 'desktop' &&
      !(command in GLUE)
    )
      continue;
    // Nothing more to read: stdin no longer keeps the process alive, so what does at the end
    // is main's own.
    process.stdin.destroy();
    if (command === 'close') fake.windows[0]?.close();
    else if (command === 'quit') app.quit();
    else if (command in GLUE) {
      const [name, scenario, then] = GLUE[command]!;
      void glue(name, scenario).then(() => then && app.quit());
    } else if (command === 'desktop') {
      void desktopDay()
        .catch((e: unknown): DesktopReport => ({
          driverError: (e as Error).stack ?? String(e),
          steps: [],
          notifications: [],
        }))
        .then((report) => {
          print(DESKTOP_PREFIX, report);
          app.quit();
        });
    } else
      void keepRecordingThenQuit().catch((e: unknown) =>
        print(KEPT_PREFIX, { driverError: (e as Error).stack ?? String(e) }),
      );
    return;
  }
});
process.stdin.on('end', () => app.quit());

fake.events.once('quitting', (code: number) => {
  const report: QuitReport = {
    code,
    quitLog: fake.quitLog,
    resources: resources(),
    unimplemented: fake.unimplemented,
    errorBoxes: fake.errorBoxes,
    windows: fake.windows.length,
    shortcuts: [...fake.shortcuts.keys()],
    traysAlive: fake.trays.filter((t) => !t.destroyed).length,
    windowsCreated: fake.windowsCreated,
    ...(LAUNCHES > 0 ? { launches: { ...launches } } : {}),
  };
  print(QUIT_PREFIX, report);
});
