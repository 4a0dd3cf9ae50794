// Electron's security checklist (https://www.electronjs.org/docs/latest/tutorial/security),
// one describe per item, shown on the real code of src/main and src/preload. There is no
// Electron binary here, so `electron` is replaced by fakes that record what the code asks of
// it: the options of the window it creates, the handlers it installs on the session and on
// every web contents, the IPC handlers, what the preload exposes. The tests then call those
// handlers the way Electron would, with hostile input.
//
// What these tests cannot show without the binary, and where it is shown instead:
// - 4 (sandbox) and 3 (context isolation) are shown as the options the window is created
//   with; that Chromium honours them is Electron's part.
// - 11 and 12 (<webview>): the app uses no <webview>; the tag is off and every attach is
//   refused, which is what is tested.
// - 18 (custom protocol instead of file://): the recordings' audio is served on the
//   vetscribe-audio:// protocol and tested here; the page itself is still loaded from the
//   built file (file://), and item 13 shows that no other file:// address can be navigated to.
// - 19 (fuses) are set in the packaging configuration and tested with it
//   (test/build/packaging.test.ts).
// - 16 (current Electron) compares the pinned release with its stable date, recorded in
//   security/electron-release.json from the npm registry; it fails once that major is likely
//   out of support, which is the point.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

type Listener = (...args: unknown[]) => unknown;

const electron = vi.hoisted(() => {
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
});
vi.mock('electron', () => electron);

import { answerAudioRequest, audioUrl, recordingIdFromAudioUrl } from '../../src/main/audio-protocol.ts';
import { bindIpc } from '../../src/main/ipc.ts';
import { AUDIO_SCHEME, CONTENT_SECURITY_POLICY } from '../../src/main/security.ts';
import { appUrl, createMainWindow, hardenSessions } from '../../src/main/window.ts';
import type { HandlerTable } from '../../src/main/core/ipc-handlers.ts';
import { channelsFromArgv } from '../../src/shared/bridge-channels.ts';
import { EVENT_CHANNELS, INVOKE_CHANNELS } from '../../src/shared/ipc.ts';
import { settingsPatchSchema } from '../../src/shared/settings.ts';
import { seededRandom } from '../../src/shared/seeded-random.ts';

const ROOT = join(import.meta.dirname, '../..');

const pick = <T>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;

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
const filesMatching = (pattern: RegExp) => srcFiles.filter((f) => pattern.test(f.text)).map((f) => f.file);

// Hostile links and addresses: the checklist's own examples and the usual tricks.
const HOSTILE = [
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

let logLines: string[] = [];
let contents: InstanceType<typeof electron.WebContents>;
let windowOptions: Record<string, unknown>;
let webPreferences: Record<string, unknown>;
// What hardenSessions installed on the session, taken when it ran.
let sessionHooks: { permissionRequest: unknown[][]; permissionCheck: unknown[][]; headers: unknown[][] };

function navigate(event: 'will-navigate' | 'will-redirect', url: string): boolean {
  let prevented = false;
  contents.emit(event, { preventDefault: () => (prevented = true) }, url);
  return prevented;
}

function openWindow(url: string): { action: string; opened: string | undefined } {
  electron.shell.openExternal.mockClear();
  const handler = contents.windowOpenHandler;
  if (!handler) throw new Error('no window-open handler was installed');
  const answer = handler({ url });
  const call = electron.shell.openExternal.mock.calls[0];
  expect(electron.shell.openExternal.mock.calls.length).toBeLessThanOrEqual(1);
  return { action: answer.action, opened: call?.[0] };
}

beforeAll(() => {
  hardenSessions((line) => logLines.push(line));
  const ses = electron.session.defaultSession;
  sessionHooks = {
    permissionRequest: [...ses.setPermissionRequestHandler.mock.calls],
    permissionCheck: [...ses.setPermissionCheckHandler.mock.calls],
    headers: [...ses.webRequest.onHeadersReceived.mock.calls],
  };
  createMainWindow();
  const created = electron.windows[0];
  if (!created) throw new Error('createMainWindow made no window');
  windowOptions = created.options;
  webPreferences = windowOptions['webPreferences'] as Record<string, unknown>;
  contents = new electron.WebContents();
  electron.app.emit('web-contents-created', {}, contents);
});

beforeEach(() => {
  logLines = [];
});

describe('checklist 1: only load secure content', () => {
  it('the packaged window loads the built page from the app itself, whatever the environment says', () => {
    const before = process.env['ELECTRON_RENDERER_URL'];
    process.env['ELECTRON_RENDERER_URL'] = 'http://attacker.example.com/';
    try {
      expect(new URL(appUrl()).protocol).toBe('file:');
      expect(appUrl()).toBe(new URL('../../src/renderer/index.html', import.meta.url).href);
    } finally {
      if (before === undefined) delete process.env['ELECTRON_RENDERER_URL'];
      else process.env['ELECTRON_RENDERER_URL'] = before;
    }
    expect(electron.windows[0]?.win.loaded).toEqual([appUrl()]);
  });

  it('the page names no http(s) resource, and its CSP lets it load and fetch from itself only', () => {
    const html = readFileSync(join(ROOT, 'src/renderer/index.html'), 'utf8');
    expect(html).not.toMatch(/(src|href)\s*=\s*["']?\s*(https?:)?\/\//i);
    const directives = new Map(
      CONTENT_SECURITY_POLICY.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)] as const),
    );
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/https?:|\*/);
  });

  it('the service is reached over https only (http only on this machine, for the sandbox)', () => {
    const url = (agentsUrl: string) => settingsPatchSchema.safeParse({ serviceUrls: { agentsUrl } }).success;
    expect(url('https://agents.example.com')).toBe(true);
    expect(url('http://127.0.0.1:4010/agents')).toBe(true);
    expect(url('http://localhost:4010')).toBe(true);
    for (const bad of [
      'http://agents.example.com',
      'http://localhost.attacker.example.com',
      'http://127.0.0.1@attacker.example.com/',
      'ftp://agents.example.com',
      'file:///etc/passwd',
      'javascript:alert(1)',
    ]) {
      expect(url(bad), bad).toBe(false);
    }
  });
});

describe('checklist 2: no Node.js integration for remote content', () => {
  it('the window is created with nodeIntegration, nodeIntegrationInWorker and nodeIntegrationInSubFrames off', () => {
    expect(webPreferences['nodeIntegration']).toBe(false);
    expect(webPreferences['nodeIntegrationInWorker']).toBe(false);
    expect(webPreferences['nodeIntegrationInSubFrames']).not.toBe(true);
  });

  it('the app creates no other window: createMainWindow is the only `new BrowserWindow`', () => {
    expect(filesMatching(/new BrowserWindow\(/)).toEqual(['src/main/window.ts']);
    expect(readFileSync(join(ROOT, 'src/main/window.ts'), 'utf8').match(/new BrowserWindow\(/g)).toHaveLength(1);
    expect(filesMatching(/new BrowserView\(|new WebContentsView\(/)).toEqual([]);
  });
});

describe('checklist 3: context isolation', () => {
  it('the window is created with contextIsolation: true', () => {
    expect(webPreferences['contextIsolation']).toBe(true);
  });
});

describe('checklist 4: process sandboxing', () => {
  it('the window is created with sandbox: true, and the preload is the one built for it (one CommonJS file)', () => {
    expect(webPreferences['sandbox']).toBe(true);
    expect(String(webPreferences['preload'])).toMatch(/[/\\]preload[/\\]index\.cjs$/);
  });

  it('no code turns the sandbox off for every window', () => {
    expect(filesMatching(/no-sandbox|\bsandbox:\s*false|enableSandbox\s*\(\s*false/)).toEqual([]);
  });
});

describe('checklist 5: session permission request handlers', () => {
  type RequestHandler = (
    wc: unknown,
    permission: string,
    callback: (granted: boolean) => void,
    details: Record<string, unknown>,
  ) => void;
  type CheckHandler = (wc: unknown, permission: string, origin: string, details: Record<string, unknown>) => boolean;
  const request = async (permission: string, details: Record<string, unknown>): Promise<boolean> => {
    const handler = sessionHooks.permissionRequest[0]?.[0] as RequestHandler;
    let granted: boolean | undefined;
    handler({}, permission, (g) => (granted = g), details);
    // The microphone may wait for the operating system's answer (macOS): a few turns at most.
    for (let i = 0; i < 10 && granted === undefined; i++) await new Promise((r) => setImmediate(r));
    if (granted === undefined) throw new Error('the permission request was never answered');
    return granted;
  };
  const check = (permission: string, origin: string, details: Record<string, unknown>): boolean =>
    (sessionHooks.permissionCheck[0]?.[0] as CheckHandler)({}, permission, origin, details);

  it('both handlers are installed on the default session', () => {
    expect(sessionHooks.permissionRequest).toHaveLength(1);
    expect(sessionHooks.permissionCheck).toHaveLength(1);
  });

  it('grants the microphone to our page, and nothing else to anyone', async () => {
    expect(await request('media', { requestingUrl: appUrl(), mediaTypes: ['audio'] })).toBe(true);
    expect(await request('media', { requestingUrl: appUrl(), mediaTypes: ['video'] })).toBe(false);
    expect(await request('media', { requestingUrl: appUrl(), mediaTypes: ['audio', 'video'] })).toBe(false);
    expect(await request('media', { requestingUrl: 'https://attacker.example.com/', mediaTypes: ['audio'] })).toBe(
      false,
    );
    expect(await request('media', { requestingUrl: 'file:///tmp/other.html', mediaTypes: ['audio'] })).toBe(false);
    const others = [
      'clipboard-read',
      'clipboard-sanitized-write',
      'display-capture',
      'fullscreen',
      'geolocation',
      'idle-detection',
      'mediaKeySystem',
      'midi',
      'midiSysex',
      'notifications',
      'pointerLock',
      'keyboardLock',
      'openExternal',
      'speaker-selection',
      'storage-access',
      'top-level-storage-access',
      'window-management',
      'unknown',
      'fileSystem',
      'hid',
      'serial',
      'usb',
    ];
    for (const permission of others) {
      expect(await request(permission, { requestingUrl: appUrl() }), permission).toBe(false);
      expect(check(permission, 'file://', { requestingUrl: appUrl() }), permission).toBe(false);
    }
    expect(check('media', 'file://', { requestingUrl: appUrl(), mediaType: 'audio' })).toBe(true);
    expect(check('media', 'file://', { requestingUrl: appUrl(), mediaType: 'video' })).toBe(false);
    expect(
      check('media', 'https://attacker.example.com', {
        requestingUrl: 'https://attacker.example.com/',
        mediaType: 'audio',
      }),
    ).toBe(false);
  });

  it('on macOS, asks the system for the microphone when it is not yet granted, and follows its answer', async () => {
    const platform = Object.getOwnPropertyDescriptor(process, 'platform')!;
    Object.defineProperty(process, 'platform', { value: 'darwin' });
    try {
      electron.systemPreferences.getMediaAccessStatus.mockReturnValue('not-determined');
      electron.systemPreferences.askForMediaAccess.mockResolvedValueOnce(false);
      expect(await request('media', { requestingUrl: appUrl(), mediaTypes: ['audio'] })).toBe(false);
      electron.systemPreferences.askForMediaAccess.mockResolvedValueOnce(true);
      expect(await request('media', { requestingUrl: appUrl(), mediaTypes: ['audio'] })).toBe(true);
      expect(electron.systemPreferences.askForMediaAccess.mock.calls).toEqual([['microphone'], ['microphone']]);
      // Granted already: no second question.
      electron.systemPreferences.getMediaAccessStatus.mockReturnValue('granted');
      expect(await request('media', { requestingUrl: appUrl(), mediaTypes: ['audio'] })).toBe(true);
      expect(electron.systemPreferences.askForMediaAccess).toHaveBeenCalledTimes(2);
      // Never asked for a page that is not ours.
      expect(await request('media', { requestingUrl: 'https://attacker.example.com/', mediaTypes: ['audio'] })).toBe(
        false,
      );
      expect(electron.systemPreferences.askForMediaAccess).toHaveBeenCalledTimes(2);
    } finally {
      Object.defineProperty(process, 'platform', platform);
    }
  });

  it('a refusal is logged on one line, however the requesting address is written', () => {
    request('geolocation', { requestingUrl: 'https://attacker.example.com/\r\nfake log line' });
    expect(logLines).toHaveLength(1);
    expect(logLines[0]).not.toMatch(/[\r\n]/);
  });
});

describe('checklist 6: webSecurity stays on', () => {
  it('the window is created with webSecurity true, and no code turns it off', () => {
    expect(webPreferences['webSecurity']).not.toBe(false);
    expect(filesMatching(/webSecurity:\s*false|disable-web-security/)).toEqual([]);
  });
});

describe('checklist 7: a Content-Security-Policy', () => {
  type HeadersHook = (
    details: { responseHeaders?: Record<string, string[]> },
    callback: (answer: { responseHeaders: Record<string, string[]> }) => void,
  ) => void;
  it('every answer the session receives carries the app policy, other headers kept', () => {
    expect(sessionHooks.headers).toHaveLength(1);
    const hook = sessionHooks.headers[0]?.[0] as HeadersHook;
    let headers: Record<string, string[]> | undefined;
    hook(
      {
        responseHeaders: {
          'Content-Type': ['text/html'],
          'Content-Security-Policy': ["default-src *; script-src 'unsafe-inline'"],
        },
      },
      (a) => (headers = a.responseHeaders),
    );
    expect(headers?.['Content-Security-Policy']).toEqual([CONTENT_SECURITY_POLICY]);
    expect(headers?.['Content-Type']).toEqual(['text/html']);
    hook({}, (a) => (headers = a.responseHeaders));
    expect(headers?.['Content-Security-Policy']).toEqual([CONTENT_SECURITY_POLICY]);
  });

  it('the policy allows no inline or remote script, no eval, no plugins, no base or form tricks, no framing', () => {
    const directives = new Map(
      CONTENT_SECURITY_POLICY.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')] as const),
    );
    expect(directives.get('script-src')).toBe("'self'");
    expect(directives.get('object-src')).toBe("'none'");
    expect(directives.get('base-uri')).toBe("'none'");
    expect(directives.get('form-action')).toBe("'none'");
    expect(directives.get('frame-ancestors')).toBe("'none'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval|unsafe-hashes|wasm-unsafe-eval/);
  });
});

describe('checklist 8: allowRunningInsecureContent stays off', () => {
  it('the window is created with allowRunningInsecureContent false', () => {
    expect(webPreferences['allowRunningInsecureContent']).not.toBe(true);
    expect(filesMatching(/allowRunningInsecureContent:\s*true|allow-running-insecure-content/)).toEqual([]);
  });
});

describe('checklist 9: no experimental features', () => {
  it('the window is created with experimentalFeatures false', () => {
    expect(webPreferences['experimentalFeatures']).not.toBe(true);
    expect(filesMatching(/experimentalFeatures:\s*true|enable-experimental-web-platform-features/)).toEqual([]);
  });
});

describe('checklist 10: no enableBlinkFeatures', () => {
  it('the window sets no Blink features, and no code does', () => {
    expect(webPreferences).not.toHaveProperty('enableBlinkFeatures');
    expect(filesMatching(/enableBlinkFeatures|enable-blink-features/)).toEqual([]);
  });
});

describe('checklist 11: <webview> allowpopups (the app uses no <webview>)', () => {
  it('the webview tag is off and no page of the app contains one', () => {
    expect(webPreferences['webviewTag']).toBe(false);
    expect(filesMatching(/<webview\b|allowpopups/i)).toEqual([]);
  });
});

describe('checklist 12: verify <webview> options before creation (none is ever created)', () => {
  it('every web contents refuses to attach a webview, whatever its options', () => {
    for (const params of [{ src: 'https://attacker.example.com/' }, { src: appUrl(), nodeintegration: 'on' }, {}]) {
      let prevented = false;
      contents.emit(
        'will-attach-webview',
        { preventDefault: () => (prevented = true) },
        { nodeIntegration: true, preload: '/tmp/x.js' },
        params,
      );
      expect(prevented).toBe(true);
    }
  });
});

describe('checklist 13: disable or limit navigation', () => {
  it('every web contents may navigate to our page and nowhere else', () => {
    expect(navigate('will-navigate', appUrl())).toBe(false);
    expect(navigate('will-navigate', `${appUrl()}#/consults`)).toBe(false);
    const page = new URL(appUrl());
    const foreign = [
      ...HOSTILE,
      `file://attacker.example.com${page.pathname}`,
      `file://${page.pathname.replace(/index\.html$/, 'other.html')}`,
      `${appUrl()}/../../../../etc/passwd`,
      'https://vetscribe.test.attacker.example.com/',
    ];
    for (const url of foreign) {
      expect(navigate('will-navigate', url), url).toBe(true);
      expect(navigate('will-redirect', url), url).toBe(true);
    }
  });

  it('generated addresses: only those that are our page get through', () => {
    const next = seededRandom(13);
    const bases = [
      appUrl(),
      'file:///',
      'file://host/',
      'https://example.com/',
      'http://localhost:5173/',
      'vetscribe-audio://recording/',
      'javascript:',
    ];
    const tails = [
      '',
      '#x',
      '?a=1',
      '/../index.html',
      '..',
      '%2e%2e/',
      'index.html',
      '\\..\\',
      '\r\n',
      '\u0000',
      '@attacker.example.com',
    ];
    const page = new URL(appUrl());
    const isOurPage = (url: string): boolean => {
      try {
        const u = new URL(url);
        return u.protocol === 'file:' && u.host === page.host && u.pathname === page.pathname;
      } catch {
        return false;
      }
    };
    let allowed = 0;
    for (let i = 0; i < 500; i++) {
      const url = pick(next, bases) + pick(next, tails) + pick(next, tails);
      const prevented = navigate('will-navigate', url);
      expect(prevented, url).toBe(!isOurPage(url));
      if (!prevented) allowed += 1;
    }
    expect(allowed).toBeGreaterThan(0);
  });

  it('a refused navigation is logged on one line', () => {
    navigate('will-navigate', 'https://attacker.example.com/\r\n[info] tokens are kept in plain text');
    expect(logLines).toHaveLength(1);
    expect(logLines[0]).not.toMatch(/[\r\n]/);
  });
});

describe('checklist 14: disable or limit the creation of new windows', () => {
  it('every web contents answers every window.open with deny, our own page included', () => {
    for (const url of [appUrl(), 'https://www.wsava.org/', 'about:blank', '', ...HOSTILE]) {
      expect(openWindow(url).action, url).toBe('deny');
    }
  });
});

describe('checklist 15: no shell.openExternal with untrusted content', () => {
  // The policy: a link may leave the app only to the user's browser, only as https to a plain
  // DNS name, without credentials, control characters or white space, at most 2048
  // characters, and the OS gets the parsed form. A look-alike *subdomain* of someone else's
  // domain is an ordinary https site: it may open in the browser (never inside the app, item
  // 13); look-alike *characters* (IDN/punycode) and IP addresses may not.
  it('opens ordinary https links in the browser, as parsed', () => {
    expect(openWindow('https://www.wsava.org/guidelines').opened).toBe('https://www.wsava.org/guidelines');
    expect(openWindow('HTTPS://WWW.Example.COM/Path?q=1').opened).toBe('https://www.example.com/Path?q=1');
    expect(openWindow('https://example.com:8443/a%20b').opened).toBe('https://example.com:8443/a%20b');
    expect(openWindow('https://vetscribe.test.attacker.example.com/').opened).toBe(
      'https://vetscribe.test.attacker.example.com/',
    );
    expect(openWindow(`https://example.com/${'a'.repeat(2000)}`).opened).toBeDefined();
  });

  it.each(HOSTILE)('never hands %j to the operating system', (url) => {
    expect(openWindow(url)).toEqual({ action: 'deny', opened: undefined });
  });

  it('generated links: whatever is opened is a clean https address that is exactly the parsed link', () => {
    const next = seededRandom(15);
    const schemes = [
      'https',
      'https',
      'https',
      'https',
      'HTTPS',
      'Https',
      'http',
      'file',
      'smb',
      'ms-msdt',
      'javascript',
      'data',
      'vbscript',
      'search-ms',
      'ftp',
      'chrome',
      'vetscribe-audio',
      'https\t',
      'ht\ntps',
    ];
    const slashes = ['://', ':', ':/', ':\\\\', '://\\', ':////'];
    const users = ['', '', '', '', '', '', 'user@', 'user:pass@', 'www.wsava.org@', '%40@'];
    const hosts = [
      'example.com',
      'www.wsava.org',
      'vetscribe.test.attacker.example.com',
      'xn--80ak6aa92e.com',
      'аpple.com',
      'bücher.de',
      '例え.jp',
      '127.0.0.1',
      '0x7f.1',
      '[::1]',
      'localhost',
      'example.com.',
      '-bad.example.com',
      'ex ample.com',
      '%65xample.com',
      'attacker.example.com\\@example.com',
      'a..b.com',
      '',
    ];
    const ports = ['', '', ':443', ':8443', ':0', ':99999', ':x'];
    const paths = [
      '',
      '/',
      '/a/b?c=d#e',
      '/%0d%0aSet-Cookie:x',
      '/\u202egnp.exe',
      '/\u00a0',
      '/<script>',
      `/${'a'.repeat(2100)}`,
      '/\'"`',
    ];
    const inject = ['\r', '\n', '\r\n', '\t', '\u0000', '\u001b', '\u007f', '\u0085', ' ', '\u2028'];
    let opened = 0;
    let refused = 0;
    for (let i = 0; i < 3000; i++) {
      let url =
        pick(next, schemes) +
        pick(next, slashes) +
        pick(next, users) +
        pick(next, hosts) +
        pick(next, ports) +
        pick(next, paths);
      if (next() < 0.3) {
        const at = Math.floor(next() * (url.length + 1));
        url = url.slice(0, at) + pick(next, inject) + url.slice(at);
      }
      const answer = openWindow(url);
      expect(answer.action).toBe('deny');
      if (answer.opened === undefined) {
        refused += 1;
        continue;
      }
      opened += 1;
      const out = answer.opened;
      const parsed = new URL(out);
      expect(out, url).toBe(new URL(url).href);
      expect(parsed.protocol, url).toBe('https:');
      expect(parsed.username + parsed.password, url).toBe('');
      expect(parsed.hostname, url).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
      expect(parsed.hostname, url).not.toMatch(/^[\d.]+$|(^|\.)xn--/);
      expect(out, url).toMatch(/^[\x21-\x7e]+$/);
      expect(url.length, url).toBeLessThanOrEqual(2048);
      // eslint-disable-next-line no-control-regex
      expect(url, url).not.toMatch(/[\u0000-\u0020\u007f-\u009f]/);
    }
    // Both sides of the rule were exercised.
    expect(opened).toBeGreaterThan(20);
    expect(refused).toBeGreaterThan(1000);
  });

  it('the window-open handler is the only place that calls shell.openExternal', () => {
    expect(filesMatching(/openExternal\(/)).toEqual(['src/main/window.ts']);
  });
});

describe('checklist 16: a current Electron', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const pin = pkg.dependencies?.['electron'] ?? pkg.devDependencies?.['electron'] ?? '';
  const installed = (
    JSON.parse(readFileSync(join(ROOT, 'node_modules/electron/package.json'), 'utf8')) as { version: string }
  ).version;
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string }>;
  };

  it('package.json pins one exact release, and that release is the one installed and locked', () => {
    expect(pin).toMatch(/^\d+\.\d+\.\d+$/);
    expect(installed).toBe(pin);
    expect(lock.packages['node_modules/electron']?.version).toBe(pin);
  });

  it('the pinned major is still supported: Electron supports its latest three majors, one every 8 weeks', () => {
    const release = JSON.parse(readFileSync(join(ROOT, 'security/electron-release.json'), 'utf8')) as {
      major: number;
      stable: string;
    };
    expect(release.major, 'security/electron-release.json must describe the pinned major').toBe(
      Number(pin.split('.')[0]),
    );
    // The major leaves support when the third one after it is out: 3 x 8 weeks; Electron's
    // own timeline has put the end of support 24 to 27 weeks after the stable date.
    const weeks = (Date.now() - Date.parse(`${release.stable}T00:00:00Z`)) / (7 * 24 * 3600 * 1000);
    expect(
      weeks,
      `Electron ${release.major} came out on ${release.stable}; upgrade Electron and record the new major's stable date`,
    ).toBeLessThan(26);
  });
});

describe('checklist 17: validate the sender of all IPC messages', () => {
  type Handler = (event: unknown, input: unknown) => unknown;
  const calls: { channel: string; input: unknown }[] = [];
  const handlers = Object.fromEntries(
    INVOKE_CHANNELS.map((c) => [
      c,
      (input: unknown) => (calls.push({ channel: c, input }), { ok: true, data: 'answer' }),
    ]),
  ) as unknown as HandlerTable;
  let registered: Map<string, Handler>;
  let unbind: () => void;

  beforeAll(() => {
    electron.ipcMain.handle.mockClear();
    unbind = bindIpc(handlers, appUrl, (line) => logLines.push(line));
    registered = new Map(electron.ipcMain.handle.mock.calls.map((c) => [c[0] as string, c[1] as Handler]));
  });
  afterAll(() => unbind());

  const ours = () => electron.windows[0]!.win.webContents;
  const event = (sender: unknown, frame: { url: string; parent: unknown } | null) => ({ sender, senderFrame: frame });

  it('registers exactly the contract channels, through the one wrapper', () => {
    expect([...registered.keys()].sort()).toEqual([...INVOKE_CHANNELS].sort());
    expect(filesMatching(/ipcMain\.(handle|on|once|handleOnce)\(/)).toEqual(['src/main/ipc.ts']);
  });

  it('answers our window top frame on our page, and refuses every other sender before reading the input', async () => {
    calls.length = 0;
    const call = (e: unknown) => registered.get('session:get')!(e, { probe: true });
    expect(await call(event(ours(), { url: appUrl(), parent: null }))).toEqual({ ok: true, data: 'answer' });
    expect(calls).toHaveLength(1);
    const refused = [
      event(new electron.WebContents(), { url: appUrl(), parent: null }),
      event(ours(), { url: appUrl(), parent: { url: appUrl() } }),
      event(ours(), { url: 'https://attacker.example.com/', parent: null }),
      event(ours(), { url: 'file:///tmp/evil.html', parent: null }),
      event(ours(), { url: `file://attacker.example.com${new URL(appUrl()).pathname}`, parent: null }),
      event(ours(), null),
    ];
    for (const e of refused) {
      const answer = (await call(e)) as { ok: boolean; error?: { code: string } };
      expect(answer.ok).toBe(false);
      expect(answer.error?.code).toBe('forbidden_sender');
    }
    expect(calls).toHaveLength(1);
    expect(logLines.every((l) => !/[\r\n]/.test(l))).toBe(true);
  });
});

describe('checklist 18: a custom protocol instead of file:// (recordings)', () => {
  const known = '2026-11-21T10-15-02Z-ab12cd';
  let dir: string;
  let asked: string[];
  const library = {
    // As AppCore.audioFor: a path only for a recording the app knows (and the vet may play).
    audio: (id: string) => {
      if (id !== known) return null;
      asked.push(id);
      return { path: join(dir, id, 'audio.webm'), mimeType: 'audio/webm;codecs=opus' };
    },
  };
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'vet-scribe-audio-protocol-'));
    mkdirSync(join(dir, known));
    writeFileSync(join(dir, known, 'audio.webm'), Buffer.from('0123456789'));
    writeFileSync(join(dir, 'secret.txt'), 'not audio');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  beforeEach(() => {
    asked = [];
  });

  it('the window gets recordings as vetscribe-audio://recording/<id>, allowed by the CSP as media only', async () => {
    expect(audioUrl(known)).toBe(`vetscribe-audio://recording/${known}`);
    expect(recordingIdFromAudioUrl(audioUrl(known))).toBe(known);
    const whole = await answerAudioRequest(audioUrl(known), null, library);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('audio/webm');
    expect(Buffer.from(await whole.arrayBuffer()).toString()).toBe('0123456789');
    const part = await answerAudioRequest(audioUrl(known), 'bytes=2-5', library);
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).toString()).toBe('2345');
    const media = CONTENT_SECURITY_POLICY.split('; ').find((d) => d.startsWith('media-src'));
    expect(media).toContain(`${AUDIO_SCHEME}:`);
    expect(CONTENT_SECURITY_POLICY.split('; ').filter((d) => d.includes(AUDIO_SCHEME))).toEqual([media]);
  });

  it.each([
    '../secret.txt',
    '..%2Fsecret.txt',
    '%2e%2e/secret.txt',
    '%2e%2e%2fsecret.txt',
    '%2E%2E%5Csecret.txt',
    '..%5Csecret.txt',
    '..',
    '.',
    '%2e',
    '/etc/passwd',
    '%2Fetc%2Fpasswd',
    'C:%5CWindows%5Cwin.ini',
    'C:',
    '%00',
    `${known}%00`,
    `${known}%00.txt`,
    '%E0%A4%A',
    '%',
    '',
    `${known}/extra`,
    `${known}%2F..%2F..%2Fsecret.txt`,
    '%0d%0a',
  ])('refuses the id %j without asking for a path', async (id) => {
    const url = `${AUDIO_SCHEME}://recording/${id}`;
    const answer = await answerAudioRequest(url, null, library);
    expect(answer.status).toBe(404);
    expect(asked).toEqual([]);
  });

  it.each([
    `${AUDIO_SCHEME}://attacker/${known}`,
    `${AUDIO_SCHEME}://user@recording/${known}`,
    `file:///${known}`,
    `https://recording/${known}`,
    `${AUDIO_SCHEME}:${known}`,
    'not a url',
  ])('refuses the address %j', async (url) => {
    expect(recordingIdFromAudioUrl(url)).toBeNull();
    expect((await answerAudioRequest(url, null, library)).status).toBe(404);
    expect(asked).toEqual([]);
  });

  it('generated addresses: an id reaches the disk only when it is a recording the app knows', async () => {
    const next = seededRandom(18);
    const pieces = [
      '..',
      '.',
      '/',
      '\\',
      '%2e',
      '%2E',
      '%2f',
      '%5c',
      '%00',
      '%',
      '%25',
      'a',
      known,
      'C:',
      '~',
      '%c0%ae',
      '\u0000',
      '%E2%80%AE',
      ';',
      '?x',
      '#y',
    ];
    let parsedIds = 0;
    for (let i = 0; i < 1500; i++) {
      let id = '';
      const count = 1 + Math.floor(next() * 5);
      for (let j = 0; j < count; j++) id += pick(next, pieces);
      const url = `${AUDIO_SCHEME}://recording/${id}`;
      const parsed = recordingIdFromAudioUrl(url);
      if (parsed !== null) {
        parsedIds += 1;
        // eslint-disable-next-line no-control-regex
        expect(parsed, url).not.toMatch(/[/\\:\u0000-\u001f]|^\.\.?$/);
      }
      const answer = await answerAudioRequest(url, null, library);
      expect(answer.status === 404 || parsed === known, url).toBe(true);
    }
    expect(asked.every((id) => id === known)).toBe(true);
    expect(parsedIds).toBeGreaterThan(0);
  });
});

describe('checklist 20: do not expose Electron APIs to untrusted web content', () => {
  type Bridge = {
    invoke: (channel: string, input: unknown) => Promise<unknown>;
    on: (event: string, listener: (...args: unknown[]) => void) => () => void;
  };
  let exposed: { key: string; api: Bridge };

  beforeAll(async () => {
    electron.contextBridge.exposeInMainWorld.mockClear();
    // The preload runs in the window's renderer process, whose command line main gave it: the
    // contract's channel names, the only ones it lets through.
    const given = webPreferences['additionalArguments'] as string[];
    expect(given).toHaveLength(1);
    process.argv.push(...given);
    try {
      await import('../../src/preload/index.ts');
    } finally {
      process.argv.splice(process.argv.length - given.length, given.length);
    }
    const calls = electron.contextBridge.exposeInMainWorld.mock.calls as unknown as [string, Bridge][];
    expect(calls).toHaveLength(1);
    exposed = { key: calls[0]![0], api: calls[0]![1] };
  });

  it('the preload is given exactly the contract’s channels, and none when its argument is missing or malformed', () => {
    const given = channelsFromArgv(webPreferences['additionalArguments'] as string[]);
    expect([...given.invoke].sort()).toEqual([...INVOKE_CHANNELS].sort());
    expect([...given.events].sort()).toEqual([...EVENT_CHANNELS].sort());
    const none = { invoke: [], events: [] };
    expect(channelsFromArgv(['electron', '--type=renderer'])).toEqual(none);
    expect(channelsFromArgv(['--vet-scribe-ipc={"invoke":'])).toEqual(none);
    expect(
      channelsFromArgv(['--vet-scribe-ipc={"invoke":["app:info",7,"__proto__","a:b c"],"events":"notice"}']),
    ).toEqual({ invoke: ['app:info'], events: [] });
  });

  it('the preload exposes one object, window.bridge, with invoke and on, and no Electron object', () => {
    expect(exposed.key).toBe('bridge');
    expect(Object.keys(exposed.api).sort()).toEqual(['invoke', 'on']);
    for (const value of Object.values(exposed.api)) {
      expect(typeof value).toBe('function');
      expect(Object.values(electron.ipcRenderer)).not.toContain(value);
    }
    expect(Object.values(exposed.api)).not.toContain(electron.ipcRenderer);
  });

  it('invoke passes the contract channels and refuses every other name before it reaches ipcRenderer', async () => {
    for (const channel of INVOKE_CHANNELS) {
      electron.ipcRenderer.invoke.mockClear();
      await exposed.api.invoke(channel, { x: 1 });
      expect(electron.ipcRenderer.invoke).toHaveBeenCalledWith(channel, { x: 1 });
    }
    const next = seededRandom(20);
    const names = [
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      'app:info ',
      'APP:INFO',
      'app:*',
      '*',
      '',
      'ELECTRON_BROWSER_REQUIRE',
      'ipc:any',
      'session:getToken',
      'settings:get\u0000',
    ];
    for (let i = 0; i < 300; i++) {
      const base = pick(next, [...INVOKE_CHANNELS, ...names]);
      names.push(base + pick(next, ['x', ' ', ':', '\n', '.', '/..']));
    }
    electron.ipcRenderer.invoke.mockClear();
    for (const name of names) {
      const answer = (await exposed.api.invoke(name, {})) as { ok: boolean; error?: { code: string } };
      expect(answer, name).toEqual({ ok: false, error: { code: 'unknown_channel', message: expect.any(String) } });
    }
    expect(electron.ipcRenderer.invoke).not.toHaveBeenCalled();
  });

  it('on subscribes to contract events only, hands the page the payload alone, and unsubscribes', () => {
    for (const name of ['__proto__', 'constructor', 'ipc-message', 'session:changed ', ...INVOKE_CHANNELS]) {
      expect(() => exposed.api.on(name, () => {}), name).toThrow();
    }
    for (const channel of EVENT_CHANNELS) {
      electron.ipcRenderer.on.mockClear();
      electron.ipcRenderer.removeListener.mockClear();
      const received: unknown[][] = [];
      const off = exposed.api.on(channel, (...args) => received.push(args));
      const [name, handler] = electron.ipcRenderer.on.mock.calls[0] as unknown as [string, Listener];
      expect(name).toBe(channel);
      // The IPC event carries `sender` (ipcRenderer itself): the page must never get it.
      handler({ sender: electron.ipcRenderer, ports: [] }, { payload: 1 });
      expect(received).toEqual([[{ payload: 1 }]]);
      off();
      expect(electron.ipcRenderer.removeListener).toHaveBeenCalledWith(channel, handler);
    }
  });
});
