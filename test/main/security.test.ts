// Electron's security checklist rules, as the main process applies them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CONTENT_SECURITY_POLICY,
  contentSecurityPolicyFor,
  externalUrl,
  signInPageUrl,
  isAppUrl,
  isPermissionAllowed,
  isSafeExternalUrl,
  isTrustedSender,
  urlForLog,
} from '../../src/main/security.ts';

describe('openExternal allowlist', () => {
  it.each([
    'https://www.wsava.org/guidelines',
    'https://vetscribe.example.com/help?x=1#y',
    'https://a.b.c.example.org',
  ])('opens %s', (url) => {
    expect(isSafeExternalUrl(url)).toBe(true);
  });

  it.each([
    'http://example.com',
    'file:///etc/passwd',
    'file://server/share/x.exe',
    'smb://evil.example.com/share',
    'ms-msdt:/id PCWDiagnostic',
    'search-ms:query=x',
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'https://user:pass@example.com',
    'https://127.0.0.1/',
    'https://[::1]/',
    'https://0x7f.1/',
    'https://localhost/',
    'https://xn--pple-43d.com/',
    'https://аpple.com/',
    'https://example.com./',
    'https://-bad.example.com/',
    'ftp://example.com',
    'chrome://settings',
    'vetscribe-audio://recording/x',
    'https://exa\r\nmple.com/',
    'https://example.com/\t',
    ' https://example.com/',
    `https://example.com/${'a'.repeat(2100)}`,
    '',
    'not a url',
  ])('refuses %j', (url) => {
    expect(isSafeExternalUrl(url)).toBe(false);
  });

  it('hands the OS the parsed address, not the text it was given', () => {
    expect(externalUrl('HTTPS://Example.COM/a b')).toBeNull();
    expect(externalUrl('HTTPS://Example.COM/a%20b')).toBe('https://example.com/a%20b');
    expect(externalUrl('https://example.com/\u00e9')).toBe('https://example.com/%C3%A9');
    expect(externalUrl('https://example.com')).toBe('https://example.com/');
  });
});

describe("a practice-management system's sign-in page", () => {
  it('opens https as any link, and plain http on the loopback only', () => {
    expect(signInPageUrl('https://provetcloud.com/4321/oauth2/authorize/?state=a')).toBe(
      'https://provetcloud.com/4321/oauth2/authorize/?state=a',
    );
    expect(signInPageUrl('http://127.0.0.1:5173/provet/4321/oauth2/authorize/')).toBe(
      'http://127.0.0.1:5173/provet/4321/oauth2/authorize/',
    );
    expect(signInPageUrl('http://[::1]:80/a')).toBe('http://[::1]/a');
    for (const refused of [
      'http://provetcloud.com/4321/',
      'http://192.168.1.10/provet/',
      'http://127.0.0.1.evil.test/',
      'http://user:pw@127.0.0.1/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'http://127.0.0.1/\u0000',
      `http://127.0.0.1/${'a'.repeat(3000)}`,
    ])
      expect(signInPageUrl(refused), refused).toBeNull();
  });
});

describe('addresses in log lines', () => {
  it('stay on one line and short', () => {
    expect(urlForLog('https://x.example.com/\r\n[info] forged')).toBe(
      JSON.stringify('https://x.example.com/\r\n[info] forged'),
    );
    expect(urlForLog('https://x.example.com/\r\n[info] forged')).not.toMatch(/[\r\n]/);
    expect(urlForLog(`https://x.example.com/${'a'.repeat(500)}`).length).toBeLessThan(210);
  });
});

describe('own page', () => {
  const file = 'file:///opt/Vet%20Scribe/resources/app.asar/out/renderer/index.html';
  it('accepts the built page and the dev server, nothing else', () => {
    expect(isAppUrl(file, file)).toBe(true);
    expect(isAppUrl(`${file}#/consults`, file)).toBe(true);
    expect(isAppUrl('file:///etc/passwd', file)).toBe(false);
    expect(isAppUrl('file:///opt/Vet%20Scribe/resources/app.asar/out/renderer/other.html', file)).toBe(false);
    expect(isAppUrl('http://localhost:5173/', 'http://localhost:5173/')).toBe(true);
    expect(isAppUrl('http://localhost:5174/', 'http://localhost:5173/')).toBe(false);
    expect(isAppUrl('https://evil.example.com/', file)).toBe(false);
    // Same path on another host is a network share on Windows.
    expect(isAppUrl('file://evil.example.com/opt/Vet%20Scribe/resources/app.asar/out/renderer/index.html', file)).toBe(
      false,
    );
  });
});

describe('permissions', () => {
  const app = 'file:///app/out/renderer/index.html';
  it('grants the microphone to our page only', () => {
    expect(isPermissionAllowed({ permission: 'media', requestingUrl: app, mediaTypes: ['audio'] }, app)).toBe(true);
    expect(isPermissionAllowed({ permission: 'media', requestingUrl: app, mediaTypes: ['video'] }, app)).toBe(false);
    expect(isPermissionAllowed({ permission: 'media', requestingUrl: app, mediaTypes: ['audio', 'video'] }, app)).toBe(
      false,
    );
    expect(isPermissionAllowed({ permission: 'media', requestingUrl: app, mediaTypes: [] }, app)).toBe(false);
    expect(
      isPermissionAllowed(
        { permission: 'media', requestingUrl: 'https://evil.example.com/', mediaTypes: ['audio'] },
        app,
      ),
    ).toBe(false);
    for (const permission of [
      'geolocation',
      'notifications',
      'clipboard-read',
      'display-capture',
      'openExternal',
      'midi',
      'hid',
      'serial',
      'usb',
    ]) {
      expect(isPermissionAllowed({ permission, requestingUrl: app }, app)).toBe(false);
    }
  });
});

describe('Content-Security-Policy', () => {
  it('allows no inline or remote script and no eval', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval|\*|https?:/);
    expect(CONTENT_SECURITY_POLICY).toContain("object-src 'none'");
  });

  it('the page carries the same policy in its meta tag (less frame-ancestors, which a meta cannot set)', () => {
    const html = readFileSync(join(import.meta.dirname, '../../src/renderer/index.html'), 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1];
    const expected = CONTENT_SECURITY_POLICY.split('; ')
      .filter((d) => !d.startsWith('frame-ancestors'))
      .join('; ');
    expect(meta).toBe(expected);
  });
});

describe('IPC sender check', () => {
  const app = 'file:///app/out/renderer/index.html';
  it('answers our window top frame on our page only', () => {
    expect(isTrustedSender({ fromOurWindow: true, topFrame: true, frameUrl: app }, app)).toBe(true);
    expect(isTrustedSender({ fromOurWindow: false, topFrame: true, frameUrl: app }, app)).toBe(false);
    expect(isTrustedSender({ fromOurWindow: true, topFrame: false, frameUrl: app }, app)).toBe(false);
    expect(isTrustedSender({ fromOurWindow: true, topFrame: true, frameUrl: 'https://evil.example.com/' }, app)).toBe(
      false,
    );
    expect(isTrustedSender({ fromOurWindow: true, topFrame: true, frameUrl: '' }, app)).toBe(false);
  });
});

describe("the page's Content-Security-Policy", () => {
  it('is the strict one for the built page, whatever its path', () => {
    expect(contentSecurityPolicyFor('file:///opt/Vet%20Scribe/resources/app.asar/out/renderer/index.html')).toBe(
      CONTENT_SECURITY_POLICY,
    );
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-inline');
  });

  it("lets the dev server's page run (inline module script, style tags, its WebSocket), and nothing else in", () => {
    const dev = contentSecurityPolicyFor('http://localhost:5173/');
    expect(dev).toContain("script-src 'self' 'unsafe-inline' http://localhost:5173");
    expect(dev).toContain("style-src 'self' 'unsafe-inline' http://localhost:5173");
    expect(dev).toContain("connect-src 'self' http://localhost:5173 ws://localhost:5173");
    expect(dev).not.toContain('unsafe-eval');
    expect(dev).toContain("object-src 'none'");
    expect(dev).toContain("frame-ancestors 'none'");
    expect(dev.split('; ')).toHaveLength(CONTENT_SECURITY_POLICY.split('; ').length);
  });
});

describe("the page's CSP meta tag under npm run dev", () => {
  it('is loosened for the dev server only (the plugin runs when serving, never in a build)', async () => {
    const { devCspPlugin } = await import('../../electron.vite.config.ts');
    expect(devCspPlugin.apply).toBe('serve');
    const html = readFileSync(join(import.meta.dirname, '../../src/renderer/index.html'), 'utf8');
    const transform = devCspPlugin.transformIndexHtml as (html: string) => string;
    const dev = transform(html);
    expect(dev).toContain("script-src 'self' 'unsafe-inline'");
    expect(dev).toContain("style-src 'self' 'unsafe-inline'");
    expect(dev).toContain("connect-src 'self' ws: wss:");
    expect(dev).toContain("object-src 'none'");
    expect(dev).not.toContain('unsafe-eval');
    // The built page keeps the strict tag.
    const built = readFileSync(join(import.meta.dirname, '../../out/renderer/index.html'), 'utf8');
    expect(built).not.toContain('unsafe-inline');
    expect(built).toContain("script-src 'self';");
  });
});
