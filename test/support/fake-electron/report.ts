// What the driver (driver.ts, in the child) prints and the test reads: one line per record,
// a prefix and JSON. Shared so both sides agree on the names; it imports nothing.

export const REPORT_PREFIX = 'FAKE_ELECTRON_REPORT ';
export const QUIT_PREFIX = 'FAKE_ELECTRON_QUIT ';
/** After a quit the vet cancelled ("Keep recording"): what the engine still answers. */
export const KEPT_PREFIX = 'FAKE_ELECTRON_KEPT ';

/** The tray and the global shortcut driven as the vet would (the `desktop` command). */
export const DESKTOP_PREFIX = 'FAKE_ELECTRON_DESKTOP ';

/** One of the Electron glue's scenarios (the `activate`, `toast-timeout`, `session-end`, `wayland` commands). */
export const GLUE_PREFIX = 'FAKE_ELECTRON_GLUE ';

export interface GlueReport {
  scenario: string;
  driverError?: string;
  steps: GlueStep[];
}

export interface GlueStep {
  step: string;
  /** The window: whether it is visible (null when there is none), and how many there are. */
  visible: boolean | null;
  windows: number;
  /** What main sent the window on recorder:* channels since the step before. */
  sentToWindow: { channel: string; args: unknown[] }[];
  answer?: Answer;
  /** For a key press: whether the desktop delivered it to main; for a toast click, whether main heard it. */
  delivered?: boolean;
  /**
   * For a window's page: what its recorder heard of the tray's and the shortcut's commands once
   * it listened (a command held for it first, then what was sent).
   */
  heard?: unknown[];
  /** For a click on a notification about a consult: the consult it names, and what main sent on consult:open. */
  opened?: { expected: string; got: unknown[] };
}

export interface TraySnapshot {
  tooltip: string;
  /** The menu's items: id, label, enabled, and the accelerator shown. */
  menu: {
    id?: string;
    label?: string;
    enabled?: boolean;
    accelerator?: string;
    registerAccelerator?: boolean;
    type?: string;
  }[];
  /** The image's centre pixel (BGRA, scale 1), its scales, whether it is a template image. */
  image: { centre: number[]; scales: number[]; template: boolean };
}

export interface DesktopReport {
  driverError?: string;
  /** Each step: what the tray showed and what reached the window after it. */
  steps: {
    step: string;
    tray: TraySnapshot | null;
    shortcuts: string[];
    sentToWindow: { channel: string; args: unknown[] }[];
    visible: boolean | null;
    windows: number;
    answer?: Answer;
  }[];
  notifications: { title: string; body: string }[];
}

export interface KeptReport {
  /** app:info once the quit was cancelled: a running engine still names its sandbox. */
  appInfo: Answer;
  quitLogSoFar: string[];
}

/** An IPC answer envelope as main's handlers return it, or `missing` when no handler was registered. */
export type Answer = { ok: boolean; data?: unknown; error?: { code: string; message: string }; missing?: true };

export interface Report {
  /** Set when the driver itself failed; the rest is then absent. */
  driverError?: string;
  window: { options: Record<string, unknown>; loaded: string[]; visible: boolean; count: number };
  /** Channels with an ipcMain.handle handler. */
  ipcChannels: string[];
  /** Channels with an ipcMain.on listener (these bypass main's sender check in ipc.ts). */
  ipcListeners: string[];
  appInfo: Answer;
  sessionBefore: Answer;
  /** session:get from a web contents that is not the app's window. */
  stranger: Answer;
  signIn: Answer;
  sessionAfter: Answer;
  templates: Answer | { ok: true; count: number };
  wrongPassword: Answer | null;
  /** clipboard:write from the window: its answer, what reached Electron's clipboard, what was sent. */
  clipboard: { answer: Answer; writes: Record<string, string>[]; sent: { text: string; html: string; rtf: string } };
  sentToWindow: { channel: string; args: unknown[] }[];
  csp: unknown;
  permissions: { microphoneForOurPage: boolean; microphoneForAStranger: boolean; cameraForOurPage: boolean } | null;
  navigation: { awayPrevented: boolean; ownPagePrevented: boolean };
  audio: { unknownRecordingStatus: number } | null;
  privilegedSchemes: unknown[];
  protocolSchemes: string[];
  /** process.getActiveResourcesInfo(), counted, once the exercise is done. */
  resourcesWhileRunning: Record<string, number>;
  /** Every Electron API main called, once each, in order of first call. */
  calls: string[];
  unimplemented: string[];
  errorBoxes: { title: string; content: string }[];
  openedExternally: string[];
  /** The tray as the window opened, and the global shortcuts registered then. */
  tray: TraySnapshot | null;
  shortcuts: string[];
}

export interface QuitReport {
  code: number;
  /** The quit as it went: window closed, window-all-closed, before-quit (prevented), ... */
  quitLog: string[];
  /** process.getActiveResourcesInfo(), counted, right before the process ends. */
  resources: Record<string, number>;
  unimplemented: string[];
  errorBoxes: { title: string; content: string }[];
  windows: number;
  /** Global shortcuts still registered, and trays not destroyed, right before the end. */
  shortcuts: string[];
  traysAlive: number;
  /** BrowserWindows created over the whole run. */
  windowsCreated: number;
  /**
   * With FAKE_ELECTRON_LAUNCHES=n: the `second-instance` launches made while main started, and
   * how many of them came before main had bound any IPC handler.
   */
  launches?: { made: number; beforeIpc: number };
}
