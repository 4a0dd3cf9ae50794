// Electron's security checklist (https://www.electronjs.org/docs/latest/tutorial/security), one
// describe per item, shown on the real code of src/main: the items about the window itself, the
// options it is created with, the page it loads, and the Electron it runs on. The other items:
// security-checklist-content.test.ts (permissions, the policy, the recordings' protocol),
// security-checklist-navigation.test.ts (navigation, new windows, links) and
// security-checklist-ipc.test.ts (the IPC's senders, the preload's bridge).
//
// What these tests cannot show without the binary, and where it is shown instead:
// - 4 (sandbox) and 3 (context isolation) are shown as the options the window is created
//   with; that Chromium honours them is Electron's part.
// - 11 and 12 (<webview>): the app uses no <webview>; the tag is off and every attach is
//   refused, which is what is tested.
// - 19 (fuses) are set in the packaging configuration and tested with it
//   (test/build/packaging.test.ts).
// - 16 (current Electron) compares the pinned release with its stable date, recorded in
//   security/electron-release.json from the npm registry; it fails once that major is likely
//   out of support, which is the point.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../src/main/security.ts';
import { appUrl } from '../../src/main/window.ts';
import { settingsPatchSchema } from '../../src/shared/settings.ts';
import { filesMatching, hardenedApp, ROOT } from './security-checklist-support.ts';
import { electron } from './security-checklist-electron.ts';

vi.mock('electron', async () => (await import('./security-checklist-electron.ts')).electron);

const app = hardenedApp();

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
    expect(app.webPreferences['nodeIntegration']).toBe(false);
    expect(app.webPreferences['nodeIntegrationInWorker']).toBe(false);
    expect(app.webPreferences['nodeIntegrationInSubFrames']).not.toBe(true);
  });

  it('the app creates no other window: createMainWindow is the only `new BrowserWindow`', () => {
    expect(filesMatching(/new BrowserWindow\(/)).toEqual(['src/main/window.ts']);
    expect(readFileSync(join(ROOT, 'src/main/window.ts'), 'utf8').match(/new BrowserWindow\(/g)).toHaveLength(1);
    expect(filesMatching(/new BrowserView\(|new WebContentsView\(/)).toEqual([]);
  });
});

describe('checklist 3: context isolation', () => {
  it('the window is created with contextIsolation: true', () => {
    expect(app.webPreferences['contextIsolation']).toBe(true);
  });
});

describe('checklist 4: process sandboxing', () => {
  it('the window is created with sandbox: true, and the preload is the one built for it (one CommonJS file)', () => {
    expect(app.webPreferences['sandbox']).toBe(true);
    expect(String(app.webPreferences['preload'])).toMatch(/[/\\]preload[/\\]index\.cjs$/);
  });

  it('no code turns the sandbox off for every window', () => {
    expect(filesMatching(/no-sandbox|\bsandbox:\s*false|enableSandbox\s*\(\s*false/)).toEqual([]);
  });
});

describe('checklist 6: webSecurity stays on', () => {
  it('the window is created with webSecurity true, and no code turns it off', () => {
    expect(app.webPreferences['webSecurity']).not.toBe(false);
    expect(filesMatching(/webSecurity:\s*false|disable-web-security/)).toEqual([]);
  });
});

describe('checklist 8: allowRunningInsecureContent stays off', () => {
  it('the window is created with allowRunningInsecureContent false', () => {
    expect(app.webPreferences['allowRunningInsecureContent']).not.toBe(true);
    expect(filesMatching(/allowRunningInsecureContent:\s*true|allow-running-insecure-content/)).toEqual([]);
  });
});

describe('checklist 9: no experimental features', () => {
  it('the window is created with experimentalFeatures false', () => {
    expect(app.webPreferences['experimentalFeatures']).not.toBe(true);
    expect(filesMatching(/experimentalFeatures:\s*true|enable-experimental-web-platform-features/)).toEqual([]);
  });
});

describe('checklist 10: no enableBlinkFeatures', () => {
  it('the window sets no Blink features, and no code does', () => {
    expect(app.webPreferences).not.toHaveProperty('enableBlinkFeatures');
    expect(filesMatching(/enableBlinkFeatures|enable-blink-features/)).toEqual([]);
  });
});

describe('checklist 11: <webview> allowpopups (the app uses no <webview>)', () => {
  it('the webview tag is off and no page of the app contains one', () => {
    expect(app.webPreferences['webviewTag']).toBe(false);
    expect(filesMatching(/<webview\b|allowpopups/i)).toEqual([]);
  });
});

describe('checklist 12: verify <webview> options before creation (none is ever created)', () => {
  it('every web contents refuses to attach a webview, whatever its options', () => {
    for (const params of [{ src: 'https://attacker.example.com/' }, { src: appUrl(), nodeintegration: 'on' }, {}]) {
      let prevented = false;
      app.contents.emit(
        'will-attach-webview',
        { preventDefault: () => (prevented = true) },
        { nodeIntegration: true, preload: '/tmp/x.js' },
        params,
      );
      expect(prevented).toBe(true);
    }
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
