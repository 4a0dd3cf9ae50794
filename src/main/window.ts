// The main window and the hardening every web contents gets: context isolation, sandbox, no
// Node in the page, a strict CSP, navigation and new windows refused, links opened in the
// browser only when they are https, and a permission handler that grants the microphone to
// our own page and nothing else.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { app, BrowserWindow, dialog, nativeTheme, session, shell, systemPreferences } from 'electron';
import { channelsArgument } from '../shared/bridge-channels.ts';
import { EVENT_CHANNELS, INVOKE_CHANNELS } from '../shared/ipc.ts';
import {
  contentSecurityPolicyFor,
  externalUrl,
  isAppUrl,
  isPermissionAllowed,
  signInPageUrl,
  urlForLog,
} from './security.ts';

export function appUrl(): string {
  const dev = process.env['ELECTRON_RENDERER_URL'];
  if (!app.isPackaged && dev) return dev;
  return pathToFileURL(join(import.meta.dirname, '../renderer/index.html')).href;
}

/** Whether the operating system lets the app use the microphone, asking it where it must (macOS). */
export async function osMicrophoneAccess(log: (line: string) => void): Promise<boolean> {
  if (process.platform !== 'darwin') return true;
  if (systemPreferences.getMediaAccessStatus('microphone') === 'granted') return true;
  const granted = await systemPreferences.askForMediaAccess('microphone');
  if (!granted) log('macOS refused the microphone: System Settings -> Privacy & Security -> Microphone');
  return granted;
}

/** Applied once at startup, before any window exists. */
export function hardenSessions(log: (line: string) => void): void {
  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_wc, permission, callback, details) => {
    const allowed = isPermissionAllowed(
      {
        permission,
        requestingUrl: details.requestingUrl,
        mediaTypes: 'mediaTypes' in details ? (details.mediaTypes as string[] | undefined) : undefined,
      },
      appUrl(),
    );
    if (!allowed) log(`permission ${permission} refused for ${urlForLog(details.requestingUrl)}`);
    if (!allowed || permission !== 'media') {
      callback(allowed);
      return;
    }
    // Electron does not ask macOS for the microphone itself: without this the first consult is
    // silent and the app never appears under Privacy -> Microphone.
    void osMicrophoneAccess(log).then(callback);
  });
  ses.setPermissionCheckHandler((_wc, permission, requestingOrigin, details) => {
    if (permission !== 'media') return false;
    return isPermissionAllowed(
      {
        permission,
        requestingUrl: details.requestingUrl ?? requestingOrigin,
        mediaTypes: details.mediaType ? [details.mediaType] : ['audio'],
      },
      appUrl(),
    );
  });
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [contentSecurityPolicyFor(appUrl())] },
    });
  });

  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (event, url) => {
      if (!isAppUrl(url, appUrl())) {
        event.preventDefault();
        log(`navigation to ${urlForLog(url)} refused`);
      }
    });
    contents.on('will-redirect', (event, url) => {
      if (!isAppUrl(url, appUrl())) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      const external = externalUrl(url);
      if (external)
        shell.openExternal(external).catch((e: unknown) => log(`opening ${urlForLog(external)} failed: ${String(e)}`));
      else log(`window.open of ${urlForLog(url)} refused`);
      return { action: 'deny' };
    });
  });
}

/**
 * Opens a practice-management system's sign-in page in the system browser (the engine's
 * openBrowser port): the only other place the app hands an address to the operating system,
 * checked as strictly as a link, with plain http allowed on the loopback only.
 */
export async function openSignInPage(url: string): Promise<void> {
  const page = signInPageUrl(url);
  if (!page) throw new Error(`the sign-in page ${urlForLog(url)} is not an address the app opens`);
  await shell.openExternal(page);
}

export function createMainWindow({ onKeepRecording }: { onKeepRecording?: () => void } = {}): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 860,
    minWidth: 900,
    minHeight: 640,
    title: 'Vet Scribe',
    show: false,
    // The page's own background, light or dark as the system is (styles.css), so the window
    // does not flash the other one while it loads.
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#121614' : '#f6f5f1',
    webPreferences: {
      preload: join(import.meta.dirname, '../preload/index.cjs'),
      // The contract's channel names, the only ones the preload lets through.
      additionalArguments: [channelsArgument({ invoke: INVOKE_CHANNELS, events: EVENT_CHANNELS })],
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      spellcheck: true,
    },
  });
  win.once('ready-to-show', () => win.show());
  // The window asks before it unloads while a consult is being recorded; Electron leaves the
  // question to main, so ask it here.
  win.webContents.on('will-prevent-unload', (event) => {
    const choice = dialog.showMessageBoxSync(win, {
      type: 'warning',
      buttons: ['Keep recording', 'Close anyway'],
      defaultId: 0,
      cancelId: 0,
      title: 'A consult is being recorded',
      message: 'A consult is being recorded.',
      detail:
        'If you close now, the recording stops; what was recorded so far is kept and offered for upload next time.',
    });
    if (choice === 1) event.preventDefault();
    // The quit that asked is off: a later close of the window goes to the tray again.
    else onKeepRecording?.();
  });
  void win.loadURL(appUrl());
  return win;
}
