// Electron's security checklist (https://www.electronjs.org/docs/latest/tutorial/security), one
// describe per item, shown on the real code of src/main: where the window may go, the windows it
// may open, and the links it may hand to the operating system. The handlers every web contents
// gets are called the way Electron would, with the checklist's hostile links and generated ones.
import { describe, expect, it, vi } from 'vitest';
import { appUrl } from '../../src/main/window.ts';
import { seededRandom } from '../../src/shared/seeded-random.ts';
import { filesMatching, hardenedApp, HOSTILE, navigate, openWindow, pick } from './security-checklist-support.ts';
vi.mock('electron', async () => (await import('./security-checklist-electron.ts')).electron);

const app = hardenedApp();

describe('checklist 13: disable or limit navigation', () => {
  it('every web contents may navigate to our page and nowhere else', () => {
    expect(navigate(app, 'will-navigate', appUrl())).toBe(false);
    expect(navigate(app, 'will-navigate', `${appUrl()}#/consults`)).toBe(false);
    const page = new URL(appUrl());
    const foreign = [
      ...HOSTILE,
      `file://attacker.example.com${page.pathname}`,
      `file://${page.pathname.replace(/index\.html$/, 'other.html')}`,
      `${appUrl()}/../../../../etc/passwd`,
      'https://vetscribe.test.attacker.example.com/',
    ];
    for (const url of foreign) {
      expect(navigate(app, 'will-navigate', url), url).toBe(true);
      expect(navigate(app, 'will-redirect', url), url).toBe(true);
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
      const prevented = navigate(app, 'will-navigate', url);
      expect(prevented, url).toBe(!isOurPage(url));
      if (!prevented) allowed += 1;
    }
    expect(allowed).toBeGreaterThan(0);
  });

  it('a refused navigation is logged on one line', () => {
    navigate(app, 'will-navigate', 'https://attacker.example.com/\r\n[info] tokens are kept in plain text');
    expect(app.logLines).toHaveLength(1);
    expect(app.logLines[0]).not.toMatch(/[\r\n]/);
  });
});

describe('checklist 14: disable or limit the creation of new windows', () => {
  it('every web contents answers every window.open with deny, our own page included', () => {
    for (const url of [appUrl(), 'https://www.wsava.org/', 'about:blank', '', ...HOSTILE]) {
      expect(openWindow(app, url).action, url).toBe('deny');
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
    expect(openWindow(app, 'https://www.wsava.org/guidelines').opened).toBe('https://www.wsava.org/guidelines');
    expect(openWindow(app, 'HTTPS://WWW.Example.COM/Path?q=1').opened).toBe('https://www.example.com/Path?q=1');
    expect(openWindow(app, 'https://example.com:8443/a%20b').opened).toBe('https://example.com:8443/a%20b');
    expect(openWindow(app, 'https://vetscribe.test.attacker.example.com/').opened).toBe(
      'https://vetscribe.test.attacker.example.com/',
    );
    expect(openWindow(app, `https://example.com/${'a'.repeat(2000)}`).opened).toBeDefined();
  });

  it.each(HOSTILE)('never hands %j to the operating system', (url) => {
    expect(openWindow(app, url)).toEqual({ action: 'deny', opened: undefined });
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
      const answer = openWindow(app, url);
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
