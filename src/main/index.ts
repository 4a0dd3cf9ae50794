// Electron's main process: lifecycle and the thin glue between Electron and the core. The
// engine itself (src/main/core) knows nothing of Electron or the sandbox; what it needs from
// the platform (where tokens are kept, desktop notifications, the clipboard, how the window
// plays audio, the built-in sandbox) is handed to it here.
import { join } from 'node:path';
import * as tls from 'node:tls';
import {
  app,
  clipboard,
  ClipboardItem,
  dialog,
  ipcMain,
  Notification,
  protocol,
  safeStorage,
  session,
  type BrowserWindow,
  type WebContents,
} from 'electron';
import log from 'electron-log/main';
import { shortcutLabel, type RecorderAction } from '../shared/desktop.ts';
import { EVENT_CHANNELS, type EventChannel, type Notice } from '../shared/ipc.ts';
import { answerAudioRequest, audioUrl } from './audio-protocol.ts';
import { parseOptions, type SandboxOptions } from '../sandbox/index.ts';
import { AppCore } from './core/app-core.ts';
import { createHandlers } from './core/ipc-handlers.ts';
import { createLogger, redact } from './core/platform/index.ts';
import { trustedRoots } from './core/service/index.ts';
import { chooseSecretStore, loadKeychain } from './core/sign-in/index.ts';
import { AutoUpdate } from './auto-update.ts';
import { Desktop } from './desktop.ts';
import { embeddedSandbox } from './embedded-sandbox.ts';
import { bindIpc } from './ipc.ts';
import { openOnActivation, showNotification } from './notifications.ts';
import { AUDIO_SCHEME, isAppUrl } from './security.ts';
import { appUrl, createMainWindow, hardenSessions, openSignInPage } from './window.ts';

const APP_NAME = 'Vet Scribe';
// electron-builder's appId: Windows shows the app's notifications under this identity.
const APP_USER_MODEL_ID = 'com.vetscribe.desktop';

// Must happen before the app is ready: the audio scheme streams and supports ranges (seeking).
protocol.registerSchemesAsPrivileged([
  { scheme: AUDIO_SCHEME, privileges: { standard: true, secure: true, stream: true } },
]);

log.initialize({ preload: false });
// electron-log listens for the renderer's log lines on a channel of its own, even without its
// preload; this window never logs through it, and it would bypass the IPC sender check.
ipcMain.removeAllListeners('__ELECTRON_LOG__');
ipcMain.removeHandler('__ELECTRON_LOG__');
log.transports.file.level = process.env['VET_SCRIBE_LOG_LEVEL'] === 'debug' ? 'debug' : 'info';
log.transports.console.level = app.isPackaged ? false : 'info';
// Whatever reaches electron-log (the core's lines, uncaught errors) is redacted once more.
log.hooks.push((message) => ({
  ...message,
  data: message.data.map((d: unknown) => (typeof d === 'string' ? redact(d) : d)),
}));
log.errorHandler.startCatching();

const logger = createLogger(
  (level, line) => log[level](line),
  process.env['VET_SCRIBE_LOG_LEVEL'] === 'debug' ? 'debug' : 'info',
);

let mainWindow: BrowserWindow | null = null;
let core: AppCore | null = null;
/**
 * Set once the engine has started and IPC is bound: only then may a window exist. Electron
 * emits `second-instance` (a second launch, a double-click on the icon) as soon as the app is
 * ready (Electron's `app` documentation), which is long before the engine's start ends; a
 * window opened then would call handlers that are not registered yet ("No handler registered
 * for ...", Electron's `ipcMain.handle`) and a second one would be opened when the start ends.
 */
let started = false;
/** The engine is being stopped on the way out (will-quit or the end of the Windows session). */
let quitting = false;
/** From before-quit on: a window that closes is let go even while recording (it asks first). */
let appQuitting = false;
/** Closing the window while recording keeps recording in the tray: said once per run. */
let toldKeptRecording = false;

const desktop = new Desktop({
  activity: () => core?.cache.activity() ?? 'idle',
  command: recorderCommand,
  showWindow,
  quit: () => app.quit(),
  log: (line) => logger.info(line),
});

const updates = new AutoUpdate({
  // Loaded when a feed is set: electron-updater reads the app's version and paths on creation.
  updater: async () => (await import('electron-updater')).autoUpdater,
  isPackaged: app.isPackaged,
  configPath: join(app.getPath('userData'), 'app-update.yml'),
  log: (level, line) => logger[level](line),
  onChange: (info) => core?.emit('update:changed', info),
});

/**
 * The tray's and the global shortcut's commands, to the window's recorder. A start shows the
 * window: the recorder records at once, and the vet sees it (the patient's name can be typed
 * while it records). A window opened for it (on macOS the app lives on with none) has no page
 * yet; the engine holds the command until the page's recorder says it listens
 * (core/computer/recorder-commands.ts).
 */
function recorderCommand(requested: RecorderAction): void {
  if (!core) return;
  const activity = core.cache.activity();
  const action: RecorderAction = requested === 'toggle' ? (activity === 'idle' ? 'start' : 'stop') : requested;
  if (action === 'start') showWindow();
  // No window (the engine is still starting): there is no recorder to command.
  if (!mainWindow) return;
  core.recorderCommands.command(action);
}

function send(contents: WebContents | undefined, channel: EventChannel, payload: unknown): void {
  if (contents && !contents.isDestroyed()) contents.send(channel, payload);
}

/**
 * The embedded sandbox's timings and faults from SANDBOX_* variables (src/sandbox/README.md),
 * for development and the end-to-end suite only: an installed app ignores them.
 */
function sandboxOverrides(): Partial<SandboxOptions> {
  // An installed app writes no token anywhere, the sandbox's demo tokens included.
  if (app.isPackaged) return { tokenLog: null };
  try {
    const { port: _port, host: _host, dataDir: _dataDir, ...overrides } = parseOptions([], process.env);
    return overrides;
  } catch (e) {
    logger.warn(`sandbox: SANDBOX_* variables ignored: ${(e as Error).message}`);
    return {};
  }
}

async function start(): Promise<void> {
  hardenSessions((line) => logger.warn(line));
  const notices: Notice[] = [];
  const secretStore = await chooseSecretStore({
    // A keytar that does not load is logged and said once (chooseSecretStore), not swallowed.
    keychain: () => loadKeychain(APP_NAME),
    safeStorage: {
      isEncryptionAvailable: () => safeStorage.isEncryptionAvailable(),
      backend: () => (process.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : 'os'),
      encrypt: (plain) => safeStorage.encryptString(plain),
      decrypt: (data) => safeStorage.decryptString(data),
    },
    file: join(app.getPath('userData'), 'session.bin'),
    notices,
    log: (line) => logger.error(line),
  });
  logger.info(`tokens are kept ${secretStore.description}`);
  core = new AppCore({
    dataDir: app.getPath('userData'),
    secretStore,
    app: { name: APP_NAME, version: app.getVersion() },
    log: logger,
    notices,
    notify: (title, body, consultId) =>
      void showNotification(Notification, { title, body }, () => openFromNotification(consultId)),
    audioUrl,
    embeddedService: embeddedSandbox(sandboxOverrides()),
    // Clinic networks: Chromium's proxy answer for each address (system settings, PAC scripts,
    // --proxy-server) and the OS store's roots beside Node's (core/service/network.ts).
    network: {
      resolveProxy: (url) => session.defaultSession.resolveProxy(url),
      ca: () => trustedRoots(tls, (line) => logger.warn(line)),
    },
    // One item with the three flavours, written at once: a practice-management system takes the
    // RTF, a mail or web form the HTML, anything else the text.
    clipboard: {
      write: ({ text, html, rtf }) =>
        clipboard.write([new ClipboardItem({ 'text/plain': text, 'text/html': html, 'text/rtf': rtf })]),
    },
    shortcut: { apply: (accelerator) => desktop.applyShortcut(accelerator), caveat: () => desktop.caveat },
    updates: {
      info: () => updates.state(),
      configure: (url) => void updates.configure(url),
      restart: () => updates.restart(),
    },
    // The PIMS's own sign-in page, in the vet's browser (RFC 8252: never in an embedded window).
    openBrowser: (url) => openSignInPage(url),
  });
  const engine = core;

  protocol.handle(AUDIO_SCHEME, (request) =>
    answerAudioRequest(request.url, request.headers.get('range'), {
      // Through the gate: the vet signed in now plays only their own consults' audio.
      audio: (id) => engine.access.audioFor(id),
    }),
  );

  await engine.start();
  bindIpc(createHandlers(engine), appUrl, (line) => logger.warn(line));
  for (const channel of EVENT_CHANNELS) {
    engine.on(channel, (payload: unknown) => send(mainWindow?.webContents, channel, payload));
  }
  engine.on('recorder:activity', () => desktop.update());
  const refused = desktop.start(engine.settings.get().recordShortcut);
  if (refused)
    engine.notice({
      level: 'warning',
      message: `The recording shortcut is off: ${refused} (Settings, Recording shortcut)`,
    });
  // The clinic's feed, from Settings (off without one).
  void updates.configure(engine.settings.get().updateFeedUrl);
  // Launches that arrived while the engine started asked for the window; this is it.
  started = true;
  showWindow();
}

/** The one window; every way of opening it (start, macOS dock click) goes through here. */
function openWindow(): void {
  const window = createMainWindow({ onKeepRecording: () => (appQuitting = false) });
  // Closing the window while a consult is being recorded hides it: the recorder (in the page)
  // goes on, the tray shows it and stops it. Quitting still asks first (will-prevent-unload).
  window.on('close', (event) => {
    if (appQuitting || !core || core.cache.activity() === 'idle') return;
    event.preventDefault();
    window.hide();
    if (toldKeptRecording) return;
    toldKeptRecording = true;
    // Where the desktop may not pass the shortcut on (Wayland), the tray is the way named.
    const shortcut = desktop.caveat ? '' : core.settings.get().recordShortcut;
    void showNotification(
      Notification,
      {
        title: 'Still recording',
        body: `Vet Scribe keeps recording with its window closed. Stop it from the tray icon${shortcut ? ` or with ${shortcutLabel(shortcut, process.platform)}` : ''}.`,
      },
      showWindow,
    );
  });
  window.on('closed', () => {
    if (mainWindow !== window) return;
    mainWindow = null;
    core?.recorderCommands.windowClosed();
  });
  // A window opened has no page yet, and each page it loads (the first, and again after a reload)
  // subscribes anew: until the page's recorder says it listens, the tray's and the shortcut's
  // commands wait for it; one that waited for a page now replaced or gone is let go.
  core?.recorderCommands.windowOpened();
  window.webContents.on('did-navigate', (_event, url) => core?.recorderCommands.pageLoaded(isAppUrl(url, appUrl())));
  window.webContents.on('render-process-gone', () => core?.recorderCommands.pageGone());
  // Windows shutdown, restart or log-off: Electron's `app` documentation says before-quit and
  // will-quit are not emitted then, and BrowserWindow's `session-end` is the last word the app
  // gets before the session ends (it cannot be prevented). The engine is stopped here instead.
  window.on('session-end', (event) => endSession(event.reasons));
  mainWindow = window;
}

/** The end of the Windows session: what will-quit would have done, then the process ends. */
function endSession(reasons: readonly string[]): void {
  logger.info(`session ending (${reasons.join(', ') || 'no reason given'}): stopping`);
  desktop.dispose();
  updates.dispose();
  if (quitting || !core) return;
  quitting = true;
  // app.exit, not app.quit: a quit would ask the window first, and a question while Windows
  // ends the session is never answered. What was recorded so far is on disk (chunks are
  // written as they come) and is recovered at the next start.
  void core
    .stop()
    .then(
      () => logger.info('engine stopped at the end of the session'),
      (e: unknown) => logger.error(`stopping at the end of the session failed: ${(e as Error).message}`),
    )
    .finally(() => app.exit(0));
}

/**
 * A click on a notification about a consult: the window comes forward and opens that consult
 * (the engine checks it is still the signed-in account's). A window opened by the click is told
 * once its page has loaded, for the page subscribes to events as it loads. An Action Center
 * click on Windows (openOnActivation) shows the window only: its toast in the window names the
 * note and opens it.
 */
function openFromNotification(consultId: string | undefined): void {
  const hadWindow = mainWindow !== null;
  showWindow();
  if (consultId === undefined || !core) return;
  if (hadWindow || !mainWindow) {
    core.openConsult(consultId);
    return;
  }
  mainWindow.webContents.once('did-finish-load', () => core?.openConsult(consultId));
}

/**
 * Opens or shows the one window. Before the engine has started it does nothing: the start
 * opens the window when it ends, bound to IPC (see `started`).
 */
function showWindow(): void {
  if (!mainWindow) {
    if (started) openWindow();
    return;
  }
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.setName(APP_NAME);
  // Windows shows a toast only for an AppUserModelId with a Start-menu shortcut: the installer
  // makes one for the app's id; under `npm start` there is none, but Electron's own executable
  // is registered, so its path is the id that works there.
  if (process.platform === 'win32') app.setAppUserModelId(app.isPackaged ? APP_USER_MODEL_ID : process.execPath);
  app.on('second-instance', showWindow);
  void app.whenReady().then(async () => {
    // A click on a Windows toast that has timed out into the Action Center reaches no
    // Notification object (ours is let go on 'close', which fires at the time-out):
    // Electron's Notification.handleActivation is called for those, and for a launch from a
    // toast; every notification of this app opens the window. Asked for before the start so
    // that a cold start's activation is not lost (showWindow waits for the start).
    if (process.platform === 'win32') openOnActivation(Notification, showWindow);
    try {
      await start();
    } catch (e) {
      // Without a window the process would live on unseen, holding the single-instance lock,
      // and every later launch would quit at once: say what failed, and end.
      logger.error(`startup failed: ${(e as Error).stack ?? String(e)}`);
      dialog.showErrorBox(
        `${APP_NAME} could not start`,
        `${(e as Error).message}\n\nRecordings already on this computer are kept. The log is at ${log.transports.file.getFile().path}.`,
      );
      app.exit(1);
      return;
    }
    // macOS: a click on the Dock icon. The window hidden while a consult records (closed to the
    // tray) still counts among BrowserWindow.getAllWindows(), so the pattern in Electron's
    // `app` documentation (open one when there are none) would leave it hidden: show it.
    app.on('activate', () => showWindow());
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('before-quit', () => {
    appQuitting = true;
  });
  // The engine stops on will-quit, not before-quit: before-quit comes before the windows are
  // asked, and a vet who answers "Keep recording" cancels the quit with the engine still needed.
  // will-quit comes only once every window has closed and the quit will happen.
  app.on('will-quit', (event) => {
    desktop.dispose();
    updates.dispose();
    if (quitting || !core) return;
    // Let the pipeline write its last step before the process ends.
    event.preventDefault();
    quitting = true;
    void core.stop().finally(() => app.quit());
  });
}
