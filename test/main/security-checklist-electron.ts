// The parts of Electron that src/main/window.ts, src/main/ipc.ts, src/main/security.ts and the
// preload use, as fakes that record what the code asks of them: the options of the window it
// creates, the handlers it installs on the session and on every web contents, the IPC handlers,
// what the preload exposes. There is no Electron binary here; each security-checklist-*.test.ts
// hands these to the code with vi.mock('electron'), and calls what was installed the way Electron
// would.
import { vi } from 'vitest';

export type Listener = (...args: unknown[]) => unknown;

export const electron = (() => {
  class Emitter {
    readonly listeners = new Map<string, Listener[]>();
    on(name: string, listener: Listener): this {
      this.listeners.set(name, [...(this.listeners.get(name) ?? []), listener]);
      return this;
    }
    once(name: string, listener: Listener): this {
      return this.on(name, listener);
    }
    emit(name: string, ...args: unknown[]): void {
      for (const listener of this.listeners.get(name) ?? []) listener(...args);
    }
  }
  class WebContents extends Emitter {
    windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
    setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
      this.windowOpenHandler = handler;
    }
  }
  const windows: { options: Record<string, unknown>; win: BrowserWindow }[] = [];
  const ourContents = new Set<unknown>();
  class BrowserWindow extends Emitter {
    readonly webContents = new WebContents();
    readonly loaded: string[] = [];
    constructor(options: Record<string, unknown>) {
      super();
      windows.push({ options, win: this });
      ourContents.add(this.webContents);
    }
    loadURL(url: string): Promise<void> {
      this.loaded.push(url);
      return Promise.resolve();
    }
    static fromWebContents(contents: unknown): BrowserWindow | null {
      return ourContents.has(contents) ? (windows.find((w) => w.win.webContents === contents)?.win ?? null) : null;
    }
  }
  return {
    WebContents,
    windows,
    app: Object.assign(new Emitter(), { isPackaged: true }),
    BrowserWindow,
    session: {
      defaultSession: {
        setPermissionRequestHandler: vi.fn(),
        setPermissionCheckHandler: vi.fn(),
        webRequest: { onHeadersReceived: vi.fn() },
      },
    },
    shell: { openExternal: vi.fn((_url: string) => Promise.resolve()) },
    dialog: { showMessageBoxSync: vi.fn(() => 0) },
    nativeTheme: { shouldUseDarkColors: false },
    systemPreferences: {
      getMediaAccessStatus: vi.fn((_media: string) => 'granted'),
      askForMediaAccess: vi.fn((_media: string) => Promise.resolve(true)),
    },
    ipcMain: { handle: vi.fn(), removeHandler: vi.fn() },
    contextBridge: { exposeInMainWorld: vi.fn() },
    ipcRenderer: {
      invoke: vi.fn((_channel: string, _input: unknown) => Promise.resolve({ ok: true, data: null })),
      on: vi.fn(),
      removeListener: vi.fn(),
    },
  };
})();
