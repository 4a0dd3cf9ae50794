// Electron's security checklist (https://www.electronjs.org/docs/latest/tutorial/security), one
// describe per item, shown on the real code of src/main: what the page may use and load, the
// permissions the session grants, its Content-Security-Policy, and the recordings' own protocol.
// The session's handlers are called the way Electron would, with hostile input.
//
// 18 (custom protocol instead of file://): the recordings' audio is served on the
// vetscribe-audio:// protocol and tested here; the page itself is still loaded from the built
// file (file://), and item 13 (security-checklist-navigation.test.ts) shows that no other
// file:// address can be navigated to.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { answerAudioRequest, audioUrl, recordingIdFromAudioUrl } from '../../src/main/audio-protocol.ts';
import { AUDIO_SCHEME, CONTENT_SECURITY_POLICY } from '../../src/main/security.ts';
import { appUrl } from '../../src/main/window.ts';
import { seededRandom } from '../../src/shared/seeded-random.ts';
import { hardenedApp, pick } from './security-checklist-support.ts';
import { electron } from './security-checklist-electron.ts';

vi.mock('electron', async () => (await import('./security-checklist-electron.ts')).electron);

const app = hardenedApp();

describe('checklist 5: session permission request handlers', () => {
  type RequestHandler = (
    wc: unknown,
    permission: string,
    callback: (granted: boolean) => void,
    details: Record<string, unknown>,
  ) => void;
  type CheckHandler = (wc: unknown, permission: string, origin: string, details: Record<string, unknown>) => boolean;
  const request = async (permission: string, details: Record<string, unknown>): Promise<boolean> => {
    const handler = app.sessionHooks.permissionRequest[0]?.[0] as RequestHandler;
    let granted: boolean | undefined;
    handler({}, permission, (g) => (granted = g), details);
    // The microphone may wait for the operating system's answer (macOS): a few turns at most.
    for (let i = 0; i < 10 && granted === undefined; i++) await new Promise((r) => setImmediate(r));
    if (granted === undefined) throw new Error('the permission request was never answered');
    return granted;
  };
  const check = (permission: string, origin: string, details: Record<string, unknown>): boolean =>
    (app.sessionHooks.permissionCheck[0]?.[0] as CheckHandler)({}, permission, origin, details);

  it('both handlers are installed on the default session', () => {
    expect(app.sessionHooks.permissionRequest).toHaveLength(1);
    expect(app.sessionHooks.permissionCheck).toHaveLength(1);
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
    expect(app.logLines).toHaveLength(1);
    expect(app.logLines[0]).not.toMatch(/[\r\n]/);
  });
});

describe('checklist 7: a Content-Security-Policy', () => {
  type HeadersHook = (
    details: { responseHeaders?: Record<string, string[]> },
    callback: (answer: { responseHeaders: Record<string, string[]> }) => void,
  ) => void;
  it('every answer the session receives carries the app policy, other headers kept', () => {
    expect(app.sessionHooks.headers).toHaveLength(1);
    const hook = app.sessionHooks.headers[0]?.[0] as HeadersHook;
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
