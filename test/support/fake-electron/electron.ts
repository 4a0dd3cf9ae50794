// A small fake of the `electron` module, for running the BUILT main (out/main/index.js) under
// plain Node (test/build/built-main.test.ts; register.ts points the specifier `electron`
// here, for both `import` and `require`). It implements only what main and electron-log ask
// of Electron, the way Electron answers on Linux with no keyring, and records every call in
// `fake`. Anything else is refused loudly: reading a property the fake lacks (on the module,
// on app, on a window, on an IPC event...) throws "fake electron: X is not implemented", writes
// that line to stderr and lists it in fake.unimplemented, so that main needing a new Electron
// API fails the test even where main swallows the error. The rules of Electron that main
// could break without noticing are kept too: no window, session, protocol handler or
// safeStorage before `ready`, no privileged scheme after it, no second handler per channel.
//
// It is one long file on purpose: it stands for one module, `electron`, whose parts share one
// record (`fake`), one `ready` and one refusal of what is missing; it is cut into sections as
// Electron's documentation is (app, windows, the other modules, tray and shortcuts).
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const HOME = process.env['FAKE_ELECTRON_HOME'];
if (!HOME)
  throw new Error('fake electron: FAKE_ELECTRON_HOME (the folder that stands for the user profile) is not set');
const APP_PATH = process.env['FAKE_ELECTRON_APP_PATH'] ?? process.cwd();
const PACKAGE = JSON.parse(readFileSync(join(APP_PATH, 'package.json'), 'utf8')) as {
  name: string;
  productName?: string;
  version: string;
};

type Listener = (...args: never[]) => unknown;

/** What main asked of Electron; the driver (driver.ts) reads it. */
export const fake = {
  /** Every call into the fake, in order, as "app.setName". */
  calls: [] as string[],
  /** The APIs main (or electron-log) reached for and the fake does not have. */
  unimplemented: [] as string[],
  windows: [] as FakeBrowserWindow[],
  ipcHandlers: new Map<string, Listener>(),
  privilegedSchemes: [] as unknown[],
  protocolHandlers: new Map<string, (request: Request) => unknown>(),
  permissionRequestHandler: null as Listener | null,
  permissionCheckHandler: null as Listener | null,
  headersReceived: [] as Listener[],
  errorBoxes: [] as { title: string; content: string }[],
  openedExternally: [] as string[],
  /** What main put on the clipboard, one entry per clipboard.write. */
  clipboardWrites: [] as Record<string, string>[],
  /** The order in which the quit went: events emitted, whether each was prevented. */
  quitLog: [] as string[],
  /** Notifications shown, when FAKE_ELECTRON_NOTIFICATIONS=1 makes them supported. */
  notifications: [] as { title: string; body: string }[],
  trays: [] as FakeTray[],
  /** Accelerator -> callback, as globalShortcut holds them. */
  shortcuts: new Map<string, () => void>(),
  /**
   * Accelerator -> callback, as the desktop delivers a key press (pressShortcut). The same as
   * `shortcuts` except on a Wayland session's portal (FAKE_ELECTRON_SHORTCUT_PORTAL).
   */
  boundShortcuts: new Map<string, () => void>(),
  /** The Notification objects main made, to play the toast's life (time-out, click). */
  notificationObjects: [] as FakeNotification[],
  /** Notification.handleActivation's callback (Windows), or null when main registered none. */
  activationHandler: null as ((details: { type: string; arguments: string }) => void) | null,
  /** How many BrowserWindows were ever created. */
  windowsCreated: 0,
  /**
   * 'window' (a window was created), 'quitting' (right before the process ends), 'call' (main
   * called into the fake, with the name as in `calls`).
   */
  events: new EventEmitter(),
  ready: false,
  /** Between app.quit() and the end (or a listener preventing it). */
  quitting: false,
};

// Properties every object may be asked for without being an Electron API: promise
// resolution, JSON, util.inspect.
const ALWAYS = new Set<PropertyKey>(['then', 'toJSON', 'constructor', 'inspect']);

/**
 * The object itself, except that reading a property it lacks throws and is recorded; the
 * `absent` names read as undefined, as they do in Electron (e.g. the renderer's modules on
 * main's `electron`).
 */
export function strict<T extends object>(name: string, target: T, absent: readonly string[] = []): T {
  return new Proxy(target, {
    get(t, property, receiver) {
      if (typeof property === 'symbol' || property in t || ALWAYS.has(property))
        return Reflect.get(t, property, receiver) as unknown;
      if (absent.includes(property)) return undefined;
      const what = `${name}.${property}`;
      fake.unimplemented.push(what);
      process.stderr.write(`fake electron: ${what} is not implemented\n`);
      throw new Error(`fake electron: ${what} is not implemented (test/support/fake-electron/electron.ts)`);
    },
  });
}

function call(name: string): void {
  fake.calls.push(name);
  fake.events.emit('call', name);
}

function mustBeReady(what: string): void {
  if (!fake.ready)
    throw new Error(`fake electron: ${what} cannot be used before the app is ready (Electron refuses it too)`);
}

/** An event main may prevent, as Electron hands to before-quit, will-navigate, etc. */
export function preventable(name: string): { defaultPrevented: boolean; preventDefault(): void } {
  const event = {
    defaultPrevented: false,
    preventDefault() {
      event.defaultPrevented = true;
    },
  };
  return strict(name, event);
}

// --- app -------------------------------------------------------------------------------

const PATHS: Record<string, string> = {
  home: join(HOME, 'home'),
  appData: join(HOME, 'config'),
  userData: join(HOME, 'config', PACKAGE.productName ?? PACKAGE.name),
  sessionData: join(HOME, 'config', PACKAGE.productName ?? PACKAGE.name),
  // Electron on Linux keeps logs under userData.
  logs: join(HOME, 'config', PACKAGE.productName ?? PACKAGE.name, 'logs'),
  temp: join(HOME, 'tmp'),
  crashDumps: join(HOME, 'config', PACKAGE.productName ?? PACKAGE.name, 'Crashpad'),
};

class FakeApp extends EventEmitter {
  readonly isPackaged = false;
  name = PACKAGE.productName ?? PACKAGE.name;
  private readyScheduled = false;
  private readonly readyPromise: Promise<void>;
  private resolveReady: () => void = () => {};

  constructor() {
    super();
    this.readyPromise = new Promise((resolve) => (this.resolveReady = resolve));
  }

  /**
   * Electron emits `ready` once the main script has run its synchronous part. Main's bundle
   * is one module, evaluated in one go, so a macrotask scheduled at its first question about
   * readiness runs after it.
   */
  private scheduleReady(): void {
    if (this.readyScheduled) return;
    this.readyScheduled = true;
    setImmediate(() => {
      fake.ready = true;
      call('(event) app.ready');
      this.emit('ready', preventable('ready event'), {});
      this.resolveReady();
    });
  }

  override on(name: string | symbol, listener: (...args: never[]) => void): this {
    if (name === 'ready') this.scheduleReady();
    return super.on(name, listener as (...args: unknown[]) => void);
  }

  override once(name: string | symbol, listener: (...args: never[]) => void): this {
    if (name === 'ready') this.scheduleReady();
    return super.once(name, listener as (...args: unknown[]) => void);
  }

  whenReady(): Promise<void> {
    call('app.whenReady');
    this.scheduleReady();
    return this.readyPromise;
  }

  isReady(): boolean {
    call('app.isReady');
    this.scheduleReady();
    return fake.ready;
  }

  getName(): string {
    call('app.getName');
    return this.name;
  }

  setName(name: string): void {
    call('app.setName');
    this.name = name;
  }

  getVersion(): string {
    call('app.getVersion');
    return PACKAGE.version;
  }

  getAppPath(): string {
    call('app.getAppPath');
    return APP_PATH;
  }

  getPath(name: string): string {
    call(`app.getPath(${name})`);
    const path = PATHS[name];
    // Electron throws for a name it does not know; so does the fake for one it did not set up.
    if (!path) throw new Error(`fake electron: app.getPath('${name}') is not implemented`);
    return path;
  }

  requestSingleInstanceLock(): boolean {
    call('app.requestSingleInstanceLock');
    return true;
  }

  setAppUserModelId(_id: string): void {
    call('app.setAppUserModelId');
  }

  /**
   * As Electron: before-quit (preventable); the windows are closed (each may refuse, which
   * ends the quit) without window-all-closed; will-quit (preventable); quit; the process ends.
   */
  quit(): void {
    call('app.quit');
    if (fake.quitting) return;
    fake.quitting = true;
    setImmediate(() => {
      const stop = (why: string) => {
        fake.quitLog.push(why);
        fake.quitting = false;
      };
      const before = preventable('before-quit event');
      this.emit('before-quit', before);
      if (before.defaultPrevented) return stop('before-quit (prevented)');
      fake.quitLog.push('before-quit');
      for (const win of [...fake.windows]) win.close();
      if (fake.windows.length > 0) return stop('a window refused to close');
      const will = preventable('will-quit event');
      this.emit('will-quit', will);
      if (will.defaultPrevented) return stop('will-quit (prevented)');
      fake.quitLog.push('will-quit');
      this.emit('quit', preventable('quit event'), 0);
      fake.quitLog.push('quit');
      fake.events.emit('quitting', 0);
      process.exit(0);
    });
  }

  exit(code = 0): void {
    call(`app.exit(${code})`);
    fake.quitLog.push(`exit(${code})`);
    fake.events.emit('quitting', code);
    process.exit(code);
  }
}

// --- windows ---------------------------------------------------------------------------

let nextContentsId = 1;

export class FakeWebContents extends EventEmitter {
  readonly id = nextContentsId++;
  readonly sent: { channel: string; args: unknown[] }[] = [];
  /**
   * What the page can have heard: what was sent once it had loaded (did-finish-load). Electron
   * delivers a message sent before then to no listener of the page's.
   */
  readonly heardByPage: { channel: string; args: unknown[] }[] = [];
  private pageLoaded = false;
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
  destroyed = false;

  send(channel: string, ...args: unknown[]): void {
    if (this.destroyed)
      throw new Error(
        'fake electron: webContents.send on a destroyed webContents (Electron throws "Object has been destroyed")',
      );
    this.sent.push({ channel, args: structuredClone(args) });
    if (this.pageLoaded) this.heardByPage.push({ channel, args: structuredClone(args) });
  }

  /** The page has loaded: its listeners hear what is sent from now on. */
  pageHasLoaded(): void {
    this.pageLoaded = true;
    this.emit('did-finish-load');
  }

  /**
   * The page loads (again): Electron emits did-navigate once the main frame's navigation is
   * committed (the page before, and whatever it subscribed to, is gone), then did-finish-load.
   */
  navigated(url: string): void {
    this.pageLoaded = false;
    this.emit('did-navigate', preventable('did-navigate event'), url, 200, 'OK');
  }

  /** The vet reloads the page (View, Reload; Cmd+R): the same address loads anew. */
  reload(): void {
    call('webContents.reload');
    const url = this.url;
    if (!url) throw new Error('fake electron: webContents.reload with no page loaded');
    this.navigated(url);
    setImmediate(() => {
      if (!this.destroyed) this.pageHasLoaded();
    });
  }

  /** The address of the page last loaded ('' before any). */
  url = '';

  isDestroyed(): boolean {
    return this.destroyed;
  }

  isCrashed(): boolean {
    return false;
  }

  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    call('webContents.setWindowOpenHandler');
    this.windowOpenHandler = handler;
  }
}

export class FakeBrowserWindow extends EventEmitter {
  readonly options: Record<string, unknown>;
  readonly webContents: FakeWebContents;
  readonly loaded: string[] = [];
  visible = false;
  destroyed = false;

  static getAllWindows(): FakeBrowserWindow[] {
    call('BrowserWindow.getAllWindows');
    return [...fake.windows];
  }

  static fromWebContents(contents: unknown): FakeBrowserWindow | null {
    call('BrowserWindow.fromWebContents');
    return fake.windows.find((w) => w.webContents === contents) ?? null;
  }

  constructor(options: Record<string, unknown> = {}) {
    super();
    call('new BrowserWindow');
    if (!fake.ready) throw new Error('fake electron: Cannot create BrowserWindow before app is ready');
    this.options = structuredClone(options);
    this.visible = options['show'] !== false;
    this.webContents = strict('webContents', new FakeWebContents());
    const self = strict('BrowserWindow instance', this);
    fake.windows.push(self);
    fake.windowsCreated += 1;
    app.emit('web-contents-created', preventable('web-contents-created event'), this.webContents);
    fake.events.emit('window', self);
    return self;
  }

  loadURL(url: string): Promise<void> {
    call('BrowserWindow.loadURL');
    this.loaded.push(url);
    // The page "renders": Electron then emits ready-to-show.
    setImmediate(() => {
      if (this.destroyed) return;
      this.webContents.url = url;
      this.webContents.navigated(url);
      this.webContents.pageHasLoaded();
      this.emit('ready-to-show');
    });
    return Promise.resolve();
  }

  loadFile(path: string): Promise<void> {
    call('BrowserWindow.loadFile');
    return this.loadURL(pathToFileURL(path).href);
  }

  show(): void {
    call('BrowserWindow.show');
    this.visible = true;
  }

  hide(): void {
    call('BrowserWindow.hide');
    this.visible = false;
  }

  focus(): void {
    call('BrowserWindow.focus');
  }

  isMinimized(): boolean {
    return false;
  }

  restore(): void {
    call('BrowserWindow.restore');
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  close(): void {
    call('BrowserWindow.close');
    if (this.destroyed) return;
    const event = preventable('close event');
    this.emit('close', event);
    if (event.defaultPrevented) return;
    this.destroyed = true;
    this.webContents.destroyed = true;
    fake.windows.splice(fake.windows.indexOf(this), 1);
    this.emit('closed');
    fake.quitLog.push('window closed');
    // The user closed the last window (not a quit in progress): Electron tells the app.
    if (fake.windows.length === 0 && !fake.quitting) {
      fake.quitLog.push('window-all-closed');
      app.emit('window-all-closed');
    }
  }
}

// --- the other modules -----------------------------------------------------------------

class FakeIpcMain extends EventEmitter {
  handle(channel: string, listener: Listener): void {
    call('ipcMain.handle');
    if (fake.ipcHandlers.has(channel))
      throw new Error(`fake electron: Attempted to register a second handler for '${channel}'`);
    fake.ipcHandlers.set(channel, listener);
  }

  removeHandler(channel: string): void {
    call('ipcMain.removeHandler');
    fake.ipcHandlers.delete(channel);
  }
}

// Unsupported (as on a Linux desktop without a notification daemon), unless the test sets
// FAKE_ELECTRON_NOTIFICATIONS=1 to see what main says.
const NOTIFICATIONS = process.env['FAKE_ELECTRON_NOTIFICATIONS'] === '1';
class FakeNotification extends EventEmitter {
  static isSupported(): boolean {
    call('Notification.isSupported');
    return NOTIFICATIONS;
  }

  /**
   * Windows only (Electron 45's Notification documentation): the one callback for a click on
   * any of the app's toasts, the ones in the Action Center whose object is gone included
   * (activateFromActionCenter below plays such a click).
   */
  static handleActivation(callback: (details: { type: string; arguments: string }) => void): void {
    call('Notification.handleActivation');
    if (process.platform !== 'win32')
      throw new Error('fake electron: Notification.handleActivation exists on Windows only');
    fake.activationHandler = callback;
  }

  readonly options: { title: string; body: string };

  constructor(options: { title?: string; body?: string } = {}) {
    super();
    call('new Notification');
    if (!NOTIFICATIONS)
      throw new Error('fake electron: new Notification is not implemented (Notification.isSupported() says false)');
    this.options = { title: options.title ?? '', body: options.body ?? '' };
    fake.notificationObjects.push(this);
  }

  show(): void {
    call('Notification.show');
    fake.notifications.push(this.options);
  }
}

/**
 * A toast left on screen until Windows times it out: 'close' fires on its object (as Electron
 * does on Windows at the time-out) and the toast moves to the Action Center. Main lets go of
 * the object then, so a later click there reaches only Notification.handleActivation.
 */
export function timeOutToast(notification: FakeNotification): void {
  notification.emit('close', preventable('notification close event'));
}

/** The vet clicks a timed-out toast in the Action Center: true when anything of main's heard it. */
export function activateFromActionCenter(): boolean {
  if (!fake.activationHandler) return false;
  fake.activationHandler(strict('ActivationArguments', { type: 'click', arguments: '' }));
  return true;
}

// --- tray, menu, images, global shortcuts -------------------------------------------------

class FakeNativeImage {
  readonly representations: { scaleFactor: number; width: number; height: number }[] = [];
  template = false;
  /** A few pixels, to tell the images apart: the centre pixel's BGRA at scale 1. */
  centre: number[] = [];

  addRepresentation(options: { scaleFactor: number; width: number; height: number; buffer?: Buffer }): void {
    call('NativeImage.addRepresentation');
    const { scaleFactor, width, height, buffer } = options;
    if (!buffer || buffer.length !== width * height * 4)
      throw new Error(
        `fake electron: a ${width}x${height} bitmap needs ${width * height * 4} bytes, got ${buffer?.length}`,
      );
    this.representations.push({ scaleFactor, width, height });
    if (scaleFactor === 1) {
      const i = (Math.floor(height / 2) * width + Math.floor(width / 2)) * 4;
      this.centre = [...buffer.subarray(i, i + 4)];
    }
  }

  setTemplateImage(option: boolean): void {
    call('NativeImage.setTemplateImage');
    this.template = option;
  }

  isEmpty(): boolean {
    return this.representations.length === 0;
  }
}

const nativeImage = {
  createEmpty(): FakeNativeImage {
    call('nativeImage.createEmpty');
    return strict('NativeImage', new FakeNativeImage());
  },
};

export interface FakeMenuItem {
  id?: string;
  label?: string;
  type?: string;
  enabled?: boolean;
  accelerator?: string;
  registerAccelerator?: boolean;
  click?: () => void;
}

class FakeMenu {
  readonly items: FakeMenuItem[];
  constructor(items: FakeMenuItem[]) {
    this.items = items;
  }
}

const Menu = {
  buildFromTemplate(template: FakeMenuItem[]): FakeMenu {
    call('Menu.buildFromTemplate');
    mustBeReady('Menu.buildFromTemplate');
    return strict('Menu', new FakeMenu(template));
  },
};

export class FakeTray extends EventEmitter {
  image: FakeNativeImage;
  tooltip = '';
  menu: FakeMenu | null = null;
  destroyed = false;
  /** How many times the image was set after the first. */
  imageChanges = 0;

  constructor(image: FakeNativeImage) {
    super();
    call('new Tray');
    mustBeReady('new Tray');
    if (!(image instanceof FakeNativeImage) || image.isEmpty())
      throw new Error('fake electron: new Tray needs a non-empty NativeImage');
    this.image = image;
    const self = strict('Tray instance', this);
    fake.trays.push(self);
    return self;
  }

  setImage(image: FakeNativeImage): void {
    call('Tray.setImage');
    if (this.destroyed) throw new Error('fake electron: Tray.setImage on a destroyed tray');
    this.image = image;
    this.imageChanges += 1;
  }

  setToolTip(text: string): void {
    call('Tray.setToolTip');
    this.tooltip = text;
  }

  setContextMenu(menu: FakeMenu | null): void {
    call('Tray.setContextMenu');
    if (this.destroyed) throw new Error('fake electron: Tray.setContextMenu on a destroyed tray');
    this.menu = menu;
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  destroy(): void {
    call('Tray.destroy');
    this.destroyed = true;
  }
}

// Accelerators "another app" holds: FAKE_ELECTRON_TAKEN_SHORTCUTS, comma-separated.
const TAKEN = new Set((process.env['FAKE_ELECTRON_TAKEN_SHORTCUTS'] ?? '').split(',').filter(Boolean));

/**
 * A Linux Wayland session, where Electron's globalShortcut goes through the xdg-desktop-portal
 * and register() answers true before anything is bound (electron/electron#52218):
 * FAKE_ELECTRON_SHORTCUT_PORTAL=unbound, the desktop never delivers the keys (GNOME,
 * electron/electron#48669); =sticky, it delivers them, and unregister() does not take them
 * back. Unset: the keys arrive as registered (Windows, macOS, X11).
 */
const PORTAL = process.env['FAKE_ELECTRON_SHORTCUT_PORTAL'] ?? '';
if (PORTAL !== '' && PORTAL !== 'unbound' && PORTAL !== 'sticky')
  throw new Error(`fake electron: FAKE_ELECTRON_SHORTCUT_PORTAL=${PORTAL} is neither unbound nor sticky`);

/** The vet presses `accelerator`: true when the desktop delivered it to a callback of main's. */
export function pressShortcut(accelerator: string): boolean {
  const callback = fake.boundShortcuts.get(accelerator);
  if (!callback) return false;
  callback();
  return true;
}

const globalShortcut = {
  register(accelerator: string, callback: () => void): boolean {
    call('globalShortcut.register');
    mustBeReady('globalShortcut.register');
    if (typeof accelerator !== 'string' || accelerator === '')
      throw new TypeError('fake electron: globalShortcut.register needs an accelerator');
    // Electron answers false for a shortcut another app (or this one) holds; the portal has not
    // asked the desktop yet, so it answers true.
    if (PORTAL === '' && (TAKEN.has(accelerator) || fake.shortcuts.has(accelerator))) return false;
    if (PORTAL !== '' && fake.shortcuts.has(accelerator)) return false;
    fake.shortcuts.set(accelerator, callback);
    if (PORTAL !== 'unbound') fake.boundShortcuts.set(accelerator, callback);
    return true;
  },
  unregister(accelerator: string): void {
    call('globalShortcut.unregister');
    fake.shortcuts.delete(accelerator);
    if (PORTAL === '') fake.boundShortcuts.delete(accelerator);
  },
  unregisterAll(): void {
    call('globalShortcut.unregisterAll');
    fake.shortcuts.clear();
    if (PORTAL === '') fake.boundShortcuts.clear();
  },
  isRegistered(accelerator: string): boolean {
    call('globalShortcut.isRegistered');
    return fake.shortcuts.has(accelerator);
  },
};

const dialog = {
  showErrorBox(title: string, content: string): void {
    call('dialog.showErrorBox');
    fake.errorBoxes.push({ title, content });
    // Where Electron has no display it prints the box on stderr; so does the fake.
    process.stderr.write(`fake electron: error box: ${title}\n${content}\n`);
  },
};

const protocol = {
  registerSchemesAsPrivileged(schemes: unknown[]): void {
    call('protocol.registerSchemesAsPrivileged');
    if (fake.ready)
      throw new Error('fake electron: protocol.registerSchemesAsPrivileged must be called before the app is ready');
    fake.privilegedSchemes.push(...structuredClone(schemes));
  },
  handle(scheme: string, handler: (request: Request) => unknown): void {
    call('protocol.handle');
    mustBeReady('protocol.handle');
    if (fake.protocolHandlers.has(scheme)) throw new Error(`fake electron: the scheme ${scheme} is already handled`);
    fake.protocolHandlers.set(scheme, handler);
  },
};

const safeStorage = {
  isEncryptionAvailable(): boolean {
    call('safeStorage.isEncryptionAvailable');
    return false;
  },
  getSelectedStorageBackend(): string {
    call('safeStorage.getSelectedStorageBackend');
    mustBeReady('safeStorage.getSelectedStorageBackend');
    // Linux without a Secret Service or KWallet: Chromium's fixed-key fallback.
    return 'basic_text';
  },
  encryptString(_plain: string): Buffer {
    call('safeStorage.encryptString');
    throw new Error(
      'Error while encrypting the text provided to safeStorage.encryptString. Encryption is not available.',
    );
  },
  decryptString(_data: Buffer): string {
    call('safeStorage.decryptString');
    throw new Error(
      'Error while decrypting the ciphertext provided to safeStorage.decryptString. Decryption is not available.',
    );
  },
};

const defaultSession = {
  setPermissionRequestHandler(handler: Listener | null): void {
    call('session.setPermissionRequestHandler');
    fake.permissionRequestHandler = handler;
  },
  setPermissionCheckHandler(handler: Listener | null): void {
    call('session.setPermissionCheckHandler');
    fake.permissionCheckHandler = handler;
  },
  /**
   * Chromium's proxy for an address, in PAC result form: FAKE_ELECTRON_PROXY (a proxy the test
   * runs), else DIRECT, as Electron answers without proxy settings.
   */
  resolveProxy(url: string): Promise<string> {
    call('session.resolveProxy');
    if (typeof url !== 'string' || !/^https?:\/\//.test(url))
      return Promise.reject(new TypeError(`resolveProxy: not an address: ${String(url)}`));
    return Promise.resolve(process.env['FAKE_ELECTRON_PROXY'] ?? 'DIRECT');
  },
  webRequest: strict('session.defaultSession.webRequest', {
    onHeadersReceived(filterOrListener: unknown, maybeListener?: Listener): void {
      call('session.webRequest.onHeadersReceived');
      const listener = (typeof filterOrListener === 'function' ? filterOrListener : maybeListener) as
        Listener | undefined;
      if (listener) fake.headersReceived.push(listener);
    },
  }),
};

const session = {
  get defaultSession() {
    mustBeReady('session.defaultSession');
    return strictDefaultSession;
  },
};
const strictDefaultSession = strict('session.defaultSession', defaultSession);

const shell = {
  openExternal(url: string): Promise<void> {
    call('shell.openExternal');
    // Recorded only: the test opens nothing on this machine.
    fake.openedExternally.push(url);
    return Promise.resolve();
  },
};

/** Electron's ClipboardItem, modelled on the W3C one: MIME type -> payload. */
class FakeClipboardItem {
  readonly items: Record<string, unknown>;
  constructor(items: Record<string, unknown>) {
    call('new ClipboardItem');
    this.items = { ...items };
  }
  get types(): string[] {
    return Object.keys(this.items);
  }
  getType(type: string): Promise<Blob> {
    const value = this.items[type];
    if (typeof value !== 'string')
      return Promise.reject(new DOMException(`no ${type} in this clipboard item`, 'NotFoundError'));
    return Promise.resolve(textBlob(type, value));
  }
}

/** A Blob of text, as Electron 45's ClipboardItem.getType resolves for a text type. */
function textBlob(type: string, text: string): Blob {
  return new Blob([text], { type });
}

/**
 * Electron 45's clipboard (node_modules/electron/electron.d.ts): the module was rebuilt on the
 * W3C asynchronous clipboard in Electron 44, so readText() answers a Promise and the other
 * flavours come from read() as ClipboardItems; readHTML, readRTF and their kin are gone, and
 * the strict proxy refuses them as Electron would (a TypeError: not a function).
 */
const clipboard = {
  readText(): Promise<string> {
    call('clipboard.readText');
    mustBeReady('clipboard.readText');
    return Promise.resolve(fake.clipboardWrites.at(-1)?.['text/plain'] ?? '');
  },
  read(): Promise<FakeClipboardItem[]> {
    call('clipboard.read');
    mustBeReady('clipboard.read');
    const last = fake.clipboardWrites.at(-1);
    return Promise.resolve(last ? [strict('ClipboardItem instance', new FakeClipboardItem(last))] : []);
  },
  write(data: FakeClipboardItem[]): Promise<void> {
    call('clipboard.write');
    mustBeReady('clipboard.write');
    if (!Array.isArray(data) || !data.every((d) => d instanceof FakeClipboardItem)) {
      return Promise.reject(new TypeError('fake electron: clipboard.write takes an array of ClipboardItem'));
    }
    for (const item of data) {
      const entry: Record<string, string> = {};
      for (const [type, value] of Object.entries(item.items)) {
        if (typeof value !== 'string')
          return Promise.reject(new TypeError(`fake electron: only string payloads are implemented (${type})`));
        entry[type] = value;
      }
      fake.clipboardWrites.push(entry);
    }
    return Promise.resolve();
  },
};

/** macOS's privacy settings: main asks only on darwin, so here it is never called. */
const systemPreferences = {
  getMediaAccessStatus(_media: string): string {
    call('systemPreferences.getMediaAccessStatus');
    return 'granted';
  },
  askForMediaAccess(_media: string): Promise<boolean> {
    call('systemPreferences.askForMediaAccess');
    return Promise.resolve(true);
  },
};

/** The system's light or dark appearance: light here. */
const nativeTheme = {
  get shouldUseDarkColors(): boolean {
    call('nativeTheme.shouldUseDarkColors');
    return false;
  },
};

// --- the module --------------------------------------------------------------------------

const app = strict('app', new FakeApp());
const BrowserWindow = strict('BrowserWindow', FakeBrowserWindow);
const ipcMain = strict('ipcMain', new FakeIpcMain());
const Notification = strict('Notification', FakeNotification);
const strictDialog = strict('dialog', dialog);
const strictProtocol = strict('protocol', protocol);
const strictSafeStorage = strict('safeStorage', safeStorage);
const strictSession = strict('session', session);
const strictShell = strict('shell', shell);
const strictClipboard = strict('clipboard', clipboard);
const ClipboardItem = strict('ClipboardItem', FakeClipboardItem);
const strictSystemPreferences = strict('systemPreferences', systemPreferences);
const strictNativeImage = strict('nativeImage', nativeImage);
const strictNativeTheme = strict('nativeTheme', nativeTheme);
const strictMenu = strict('Menu', Menu);
const Tray = strict('Tray', FakeTray);
const strictGlobalShortcut = strict('globalShortcut', globalShortcut);

/**
 * What `require('electron')` returns (electron-log's CommonJS asks for it). In main,
 * Electron's module has no renderer APIs: electron-log reads `ipcRenderer` to learn where it
 * runs, and gets undefined, as here.
 */
const RENDERER_ONLY = ['ipcRenderer', 'contextBridge', 'webFrame', 'webUtils'];
const electron = strict(
  'electron',
  {
    app,
    BrowserWindow,
    clipboard: strictClipboard,
    ClipboardItem,
    dialog: strictDialog,
    ipcMain,
    Notification,
    protocol: strictProtocol,
    safeStorage: strictSafeStorage,
    session: strictSession,
    shell: strictShell,
    systemPreferences: strictSystemPreferences,
    nativeImage: strictNativeImage,
    nativeTheme: strictNativeTheme,
    Menu: strictMenu,
    Tray,
    globalShortcut: strictGlobalShortcut,
  },
  RENDERER_ONLY,
);

// `import { app } from 'electron'` gets these names (a name not here fails at link time);
// `require('electron')` gets the strict object above.
export {
  app,
  BrowserWindow,
  strictClipboard as clipboard,
  ClipboardItem,
  strictDialog as dialog,
  ipcMain,
  Notification,
  strictProtocol as protocol,
  strictSafeStorage as safeStorage,
  strictSession as session,
  strictShell as shell,
  strictSystemPreferences as systemPreferences,
  strictNativeImage as nativeImage,
  strictNativeTheme as nativeTheme,
  strictMenu as Menu,
  Tray,
  strictGlobalShortcut as globalShortcut,
  electron as default,
  electron as 'module.exports',
};
