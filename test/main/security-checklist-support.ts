// What the tests of Electron's security checklist (security-checklist-*.test.ts) share: the
// app's window created and its sessions hardened once per file, on the fakes of
// security-checklist-electron.ts (each file mocks `electron` with them); the sources of src/,
// searched for what no code may do; and the hostile links and addresses the checklist names.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, beforeEach, expect } from 'vitest';
import { AUDIO_SCHEME } from '../../src/main/security.ts';
import { createMainWindow, hardenSessions } from '../../src/main/window.ts';
import { electron } from './security-checklist-electron.ts';

export const ROOT = join(import.meta.dirname, '../..');

export const pick = <T>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;

/** Source files of a folder (recursively), with their text. */
function sources(dir: string, ext = /\.(ts|tsx|html)$/): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sources(path, ext));
    else if (ext.test(name))
      out.push({ file: relative(ROOT, path).split('\\').join('/'), text: readFileSync(path, 'utf8') });
  }
  return out;
}
const srcFiles = sources(join(ROOT, 'src'));
export const filesMatching = (pattern: RegExp) => srcFiles.filter((f) => pattern.test(f.text)).map((f) => f.file);

// Hostile links and addresses: the checklist's own examples and the usual tricks.
export const HOSTILE = [
  'file:///etc/passwd',
  'file:///C:/Windows/System32/calc.exe',
  'file://attacker.example.com/share/payload.exe',
  'smb://attacker.example.com/share',
  'ms-msdt:/id PCWDiagnostic /skip force',
  'ms-officecmd:{"id":3}',
  'search-ms:query=invoice&crumb=location:\\\\attacker.example.com\\share',
  'javascript:alert(1)',
  'JAVASCRIPT:alert(1)',
  ' javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  'http://example.com/',
  'ftp://example.com/',
  'chrome://settings',
  'devtools://devtools/bundled/inspector.html',
  'https://user@evil.example.com/',
  'https://vetscribe.example.com:pass@evil.example.com/',
  'https://127.0.0.1/',
  'https://[::1]/',
  'https://0x7f.1/',
  'https://2130706433/',
  'https://localhost/',
  'https://xn--pple-43d.com/',
  'https://аpple.com/',
  'https://vetscrіbe.com/',
  'https://example.com./',
  'https://-bad.example.com/',
  'https://exa\r\nmple.com/',
  'https://example.com/\r\nSet-Cookie: a=b',
  'https://example.com/\u0000',
  'https://exa\tmple.com/',
  `https://example.com/${'a'.repeat(3000)}`,
  `${AUDIO_SCHEME}://recording/x`,
  '',
  'not a url',
];

/** The app as main sets it up, seen through the fakes: filled in before the file's first test. */
export interface HardenedApp {
  /** What was logged during the current test. */
  logLines: string[];
  /** A web contents created after the app started: every one gets the app's guards. */
  contents: InstanceType<typeof electron.WebContents>;
  webPreferences: Record<string, unknown>;
  /** What hardenSessions installed on the session, taken when it ran. */
  sessionHooks: { permissionRequest: unknown[][]; permissionCheck: unknown[][]; headers: unknown[][] };
}

/**
 * Hardens the sessions and creates the main window once for the calling test file, as main
 * does at start, and empties the log before each test.
 */
export function hardenedApp(): HardenedApp {
  const app = { logLines: [] } as unknown as HardenedApp;
  beforeAll(() => {
    hardenSessions((line) => app.logLines.push(line));
    const ses = electron.session.defaultSession;
    app.sessionHooks = {
      permissionRequest: [...ses.setPermissionRequestHandler.mock.calls],
      permissionCheck: [...ses.setPermissionCheckHandler.mock.calls],
      headers: [...ses.webRequest.onHeadersReceived.mock.calls],
    };
    createMainWindow();
    const created = electron.windows[0];
    if (!created) throw new Error('createMainWindow made no window');
    app.webPreferences = created.options['webPreferences'] as Record<string, unknown>;
    app.contents = new electron.WebContents();
    electron.app.emit('web-contents-created', {}, app.contents);
  });
  beforeEach(() => {
    app.logLines = [];
  });
  return app;
}

/** Asks a web contents of the app to navigate (or be redirected) to `url`: whether it was prevented. */
export function navigate(app: HardenedApp, event: 'will-navigate' | 'will-redirect', url: string): boolean {
  let prevented = false;
  app.contents.emit(event, { preventDefault: () => (prevented = true) }, url);
  return prevented;
}

/** A window.open of `url` in a web contents of the app: its answer, and what was handed to the OS. */
export function openWindow(app: HardenedApp, url: string): { action: string; opened: string | undefined } {
  electron.shell.openExternal.mockClear();
  const handler = app.contents.windowOpenHandler;
  if (!handler) throw new Error('no window-open handler was installed');
  const answer = handler({ url });
  const call = electron.shell.openExternal.mock.calls[0];
  expect(electron.shell.openExternal.mock.calls.length).toBeLessThanOrEqual(1);
  return { action: answer.action, opened: call?.[0] };
}
