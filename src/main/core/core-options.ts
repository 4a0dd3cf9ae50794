// What the engine is given by whoever creates it (Electron's main, the browser host, the tests):
// its data folder, and the platform's features as ports, so the engine itself imports neither
// Electron nor the embedded sandbox.
import type { Notice } from '../../shared/ipc.ts';
import type { PipelineOptions } from './jobs/index.ts';
import type { Logger } from './platform/index.ts';
import type {
  ClipboardPort,
  EmbeddedService,
  EmbeddedServicePort,
  ShortcutPort,
  UpdatePort,
} from './platform/index.ts';
import type { NetworkOptions } from './service/index.ts';
import type { OpenBrowser } from './pims/index.ts';
import type { RelayOptions } from './relay/index.ts';
import type { SecretStore } from './sign-in/index.ts';

export interface CoreOptions<S extends EmbeddedService = EmbeddedService> {
  dataDir: string;
  secretStore: SecretStore;
  app: { name: string; version: string };
  log?: Logger;
  /**
   * A desktop notification (Electron's Notification); optional elsewhere. `consultId` names the
   * consult it is about: a click opens it (AppCore.openConsult), if it is still the account's.
   */
  notify?: (title: string, body: string, consultId?: string) => void;
  /** The address at which the window can play a recording's audio (a custom protocol, an HTTP route). */
  audioUrl: (recordingId: string) => string;
  /** The built-in sandbox ("Built-in sandbox (demo)"), where this build has one; without it that choice cannot start. */
  embeddedService?: EmbeddedServicePort<S>;
  client?: { timeoutMs?: number; uploadStallMs?: number };
  /** The computer's proxy and trusted roots (Electron: session.resolveProxy and the OS store); absent: direct, Node's roots. */
  network?: NetworkOptions;
  pipeline?: Partial<Omit<PipelineOptions, 'recordings' | 'session' | 'client'>>;
  /** Notices to show from the start (e.g. that tokens are kept in memory only). */
  notices?: Notice[];
  /** The system clipboard, where main has one (Electron's clipboard.write); none in the browser host. */
  clipboard?: ClipboardPort;
  /** The global shortcut, where main has one (Electron's globalShortcut); none in the browser host. */
  shortcut?: ShortcutPort;
  /** Updates from the clinic's feed, where main has them (electron-updater); none in the browser host. */
  updates?: UpdatePort;
  /**
   * Opens the practice-management system's sign-in page in the system browser (Electron's shell;
   * a new tab in the browser host). Without it, signing in to the PIMS says it cannot.
   */
  openBrowser?: OpenBrowser;
  /** The practice-management system's timings: the sign-in's time-out, how often waiting notes are looked at. */
  pims?: { signInTimeoutMs?: number; recheckMs?: number; timeoutMs?: number };
  /** How long after a change the consults' index is written again (tests make it short). */
  indexDelayMs?: number;
  /**
   * The clinic relay's timings (tests make them short): its heartbeat, backoff, answer time-out
   * and the wait before an edit is announced; and the name this computer goes by in an announced
   * edit when Settings gives it none, instead of its host name.
   */
  relay?: Partial<
    Pick<RelayOptions, 'heartbeatMs' | 'backoff' | 'answerTimeoutMs' | 'refusedRetryMs' | 'editDebounceMs'> & {
      computerName: string;
    }
  >;
}

export type { OpenBrowser } from './pims/index.ts';
export type {
  ClipboardPort,
  EmbeddedService,
  EmbeddedServicePort,
  Emit,
  ShortcutPort,
  UpdatePort,
} from './platform/index.ts';
