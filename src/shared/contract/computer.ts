// The window's calls and events about this computer and who is in front of it: the app, the
// vet's sign-in (`session:*`), the settings, the templates, the clipboard, the updates and the
// recorder's tray and shortcut (main's side: src/main/core/computer/calls.ts).
import { z } from 'zod';
import type { RecorderAction, RecorderActivity } from '../desktop.ts';
import type { UpdateInfo } from '../updates.ts';
import type { Template, User } from '../service/index.ts';
import { serviceUrlsSchema, settingsPatchSchema, type Settings } from '../settings.ts';
import { MAX_EMAIL, MAX_SECRET } from '../limits.ts';
import { answer, MAX_NOTE_FORMAT_CHARS, none, payload } from './fields.ts';

export interface SessionInfo {
  signedIn: boolean;
  user: User | null;
  /** Why the last session ended, when not by the user: shown on the sign-in screen. */
  endedBecause: 'expired' | 'revoked' | null;
  /** The last vet switched user (rather than signing out): a recording they left going goes on. */
  switched?: boolean;
  /**
   * Vets who switched user with consults in flight: those consults go on with their own
   * sign-in, kept in main (only who, never a token).
   */
  background?: { userId: string; name: string }[];
}

export interface AppInfo {
  name: string;
  version: string;
  /** The built-in sandbox, when it is the service in use; its demo account for the sign-in screen. */
  sandbox: { demo: { email: string; password: string } } | null;
  secretStore: { kind: 'keychain' | 'safe-storage' | 'memory'; persistent: boolean; description: string };
  notices: Notice[];
  /** A desktop app with a global shortcut and a tray (Electron); false in the browser host. */
  desktop: boolean;
  /**
   * Where the desktop may not pass the global shortcut on (a Linux Wayland session), what
   * Settings says about it (shared/desktop.ts shortcutCaveat); null where the shortcut works.
   */
  shortcutCaveat: string | null;
  /** The name this computer goes by in the clinic relay's announced edits when Settings gives it none. */
  hostName: string;
}

export interface Notice {
  level: 'info' | 'warning' | 'error';
  message: string;
}

export const computerInvokes = {
  'app:info': { input: none, output: answer<AppInfo>() },
  'session:get': { input: none, output: answer<SessionInfo>() },
  'session:signIn': {
    input: z.object({
      email: z.string().trim().min(1, 'is required').max(MAX_EMAIL, 'is too long'),
      password: z.string().min(1, 'is required').max(MAX_SECRET, 'is too long'),
    }),
    output: answer<SessionInfo>(),
  },
  'session:signOut': { input: none, output: answer<SessionInfo>() },
  'settings:get': { input: none, output: answer<Settings>() },
  'settings:update': { input: settingsPatchSchema, output: answer<Settings>() },
  /**
   * Tries a service's addresses before they are saved: refused (\`invalid_input\`, each address
   * named by its settings path) when nothing answers at one of them; nothing is saved either way.
   */
  'settings:tryService': { input: z.object({ serviceUrls: serviceUrlsSchema }).strict(), output: answer<null>() },
  /** How many recordings' audio a retention would delete now, asked before the vet confirms it. */
  'settings:retentionPreview': {
    input: z.object({ retentionDays: z.number().int().min(0).max(3650).nullable() }),
    output: answer<{ wouldDelete: number }>(),
  },
  'templates:list': {
    input: z.object({ page: z.number().int().min(1).max(10_000), limit: z.number().int().min(1).max(100).optional() }),
    output: answer<{ items: Template[]; page: number; total: number | null; hasMore: boolean }>(),
  },
  /**
   * Writes the three flavours to the system clipboard where main has one (Electron's
   * clipboard.write); `written: false` where it has none (the browser host), and the window
   * writes them with ClipboardItem.
   */
  'clipboard:write': {
    input: z.object({
      text: z.string().max(MAX_NOTE_FORMAT_CHARS, 'is too long'),
      html: z.string().max(MAX_NOTE_FORMAT_CHARS, 'is too long'),
      rtf: z.string().max(MAX_NOTE_FORMAT_CHARS, 'is too long'),
    }),
    output: answer<{ written: boolean }>(),
  },
  /** Where the app is with its updates (the clinic's feed, Settings). */
  'update:get': { input: none, output: answer<UpdateInfo>() },
  /** Restarts into the downloaded update; refused with a sentence while recording or uploading. */
  'update:restart': { input: none, output: answer<{ restarting: true }>() },
  /** Hands the computer to the next vet: the leaving vet's consults in flight go on with their sign-in. */
  'session:switchUser': { input: none, output: answer<SessionInfo>() },
  /**
   * The window's recorder listens to `recorder:command` now (asked once it has subscribed): the
   * command from the tray or the shortcut held for it while it did not, once, or null.
   */
  'recorder:listening': { input: none, output: answer<RecorderAction | null>() },
} as const;

export const computerEvents = {
  'session:changed': payload<SessionInfo>(),
  notice: payload<Notice>(),
  /** Whether a consult is being recorded, for the tray (main draws it from the recordings it keeps). */
  'recorder:activity': payload<{ activity: RecorderActivity }>(),
  /** The tray or the global shortcut asks the window's recorder to act. */
  'recorder:command': payload<{ action: RecorderAction }>(),
  'update:changed': payload<UpdateInfo>(),
  /**
   * The browser host only (Electron opens the system browser itself): a page to open in a new
   * tab, the practice-management system's own sign-in page.
   */
  'browser:open': payload<{ url: string }>(),
} as const;
