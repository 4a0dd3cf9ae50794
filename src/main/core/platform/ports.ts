// The platform's features as the engine's parts use them (ports): the built-in sandbox, updates,
// the global shortcut, the clipboard, and the one way a part tells the window something. Each is
// given by whoever creates the engine (core-options.ts), so the engine imports neither Electron
// nor the embedded sandbox.
import type { EventPayloads } from '../../../shared/ipc.ts';
import type { UpdateInfo } from '../../../shared/updates.ts';

/** A running local stand-in for the service, as the engine uses it. */
export interface EmbeddedService {
  urls: { agents_url: string; scribe_url: string; agents_api_url: string };
  origin: string;
  /** Its demo account, offered on the sign-in screen. */
  demo: { email: string; password: string };
  /** Why it cannot keep its state on disk (it runs in memory); null while it can. */
  stateProblem(): string | null;
  /** Its own practice-management system (a Provet double), offered in Settings while it is the service. */
  provet?: { address: string; clientId: string };
  close(): Promise<void>;
}

/**
 * Starts the built-in sandbox (src/main/embedded-sandbox.ts builds it from src/sandbox). `S` is
 * what it starts, handed back as it came by AppCore.embeddedSandbox, so a test sees its counters.
 */
export interface EmbeddedServicePort<S extends EmbeddedService = EmbeddedService> {
  /**
   * `secretKey` is asked only when the port was not given a key of its own: the engine keeps
   * one in the secret store, beside the session, so the sandbox's sign-ins outlive a restart.
   */
  start(where: { dataDir: string; secretKey: () => Promise<string> }): Promise<S>;
  newSecret(): string;
  /** Why a kept secret is not a key (altered by hand); null when it is one. */
  secretProblem(secret: string): string | null;
}

export interface UpdatePort {
  info(): UpdateInfo;
  /** Uses this feed from now on ('' = no updates). */
  configure(feedUrl: string): void;
  /** Quits and installs the downloaded update; the core has checked that nothing is under way. */
  restart(): void;
}

export interface ShortcutPort {
  /**
   * Makes `accelerator` the recording shortcut in place of the one in force ('' = none). Null
   * when done; else why not, in words (another app holds it), with the old one still in force.
   */
  apply(accelerator: string): string | null;
  /** Why the desktop may not pass the shortcut on, for Settings; null where it does. */
  caveat?(): string | null;
}

export interface ClipboardPort {
  /** Puts the three flavours on the clipboard at once, so a paste keeps headings where it can. */
  write(flavours: { text: string; html: string; rtf: string }): Promise<void> | void;
}

/** How the engine's parts tell the window something (AppCore's events, bound to each transport). */
export type Emit = <K extends keyof EventPayloads>(channel: K, payload: EventPayloads[K]) => void;
