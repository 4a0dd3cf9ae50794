// The browser host over real HTTP: it serves the window and the IPC contract to its own origin
// only, never a file outside the window's folder, and answers broken addresses with 400.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startWebHost,
  tokenCookieName,
  windowCookieName,
  windowPass,
  type WebHost,
} from '../../src/main/web-host/host.ts';
import { decodeWire, encodeWire } from '../../src/shared/ipc-wire.ts';
import { OTHER_ACCOUNT } from '../../src/sandbox/state.ts';
import { firstTemplateId, makeRecording, waitForJob } from '../support/core.ts';

let host: WebHost;

beforeAll(async () => {
  const rendererDir = mkdtempSync(join(tmpdir(), 'vet-scribe-window-'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Vet Scribe</title>');
  mkdirSync(join(rendererDir, 'assets'));
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  host = await startWebHost({
    dataDir: mkdtempSync(join(tmpdir(), 'vet-scribe-host-')),
    rendererDir,
    memoryTokens: true,
    sandbox: { scribeSeconds: 0.2 },
  });
});

afterAll(async () => {
  await host?.close();
});

const port = () => Number(new URL(host.url).port);

/**
 * A raw request, so that paths reach the host exactly as written (fetch would normalise them),
 * with this run's token unless `anonymous`.
 */
async function raw(
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer; anonymous?: boolean } = {},
): Promise<{ status: number; text: string; headers: Record<string, string | string[] | undefined> }> {
  const { request } = await import('node:http');
  const url = new URL(host.url);
  const token = init.anonymous ? {} : { 'x-vet-scribe-token': host.accessToken };
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: init.method ?? 'GET',
        headers: { host: url.host, ...token, ...init.headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

describe("the browser host's door", () => {
  it("answers nothing without this run's token: no window, no call, no event, no audio", async () => {
    for (const [path, method] of [
      ['/', 'GET'],
      ['/assets/app.js', 'GET'],
      ['/ipc/app%3Ainfo', 'POST'],
      ['/ipc/session%3AsignIn', 'POST'],
      ['/events', 'GET'],
      ['/audio/x', 'GET'],
    ] as const) {
      const answer = await raw(path, { method, anonymous: true, body: method === 'POST' ? '' : undefined });
      expect(answer.status, path).toBe(403);
      expect(answer.text).toContain('needs the address it printed');
    }
    expect(
      (
        await raw('/ipc/app%3Ainfo', {
          method: 'POST',
          body: '',
          anonymous: true,
          headers: { 'x-vet-scribe-token': `${host.accessToken.slice(0, -1)}x` },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await raw('/ipc/app%3Ainfo', {
          method: 'POST',
          body: '',
          anonymous: true,
          headers: { cookie: `${tokenCookieName(port())}=${host.accessToken}` },
        })
      ).status,
    ).toBe(200);
  });

  it('the printed address puts the token in strict, HttpOnly cookies named after its port and takes it out of the address bar', async () => {
    expect(host.openUrl).toBe(`${host.url}?token=${host.accessToken}`);
    expect(host.accessToken.length).toBeGreaterThanOrEqual(32);
    const opened = await raw(`/?token=${host.accessToken}`, { anonymous: true });
    expect(opened.status).toBe(303);
    expect(opened.headers['location']).toBe('/');
    const [token, pass] = [tokenCookieName(port()), windowCookieName(port())];
    expect(opened.headers['set-cookie']).toEqual([
      `${pass}=${windowPass(host.accessToken)}; HttpOnly; SameSite=Strict; Path=/`,
      `${token}=${host.accessToken}; HttpOnly; SameSite=Strict; Path=/ipc/`,
      `${token}=${host.accessToken}; HttpOnly; SameSite=Strict; Path=/events`,
      `${token}=${host.accessToken}; HttpOnly; SameSite=Strict; Path=/audio/`,
    ]);
    expect((await raw('/?token=not-this-run', { anonymous: true })).status).toBe(403);
  });

  it("takes only its own port's cookies, and the window's pass opens the window's files and nothing else", async () => {
    const cookie = (text: string) => ({ anonymous: true, headers: { cookie: text } });
    const other = port() === 65535 ? 65534 : port() + 1;
    // Another host's cookies, the right token under another port's name, and the old shared name.
    for (const text of [
      `${tokenCookieName(other)}=${host.accessToken}`,
      `vet_scribe_host=${host.accessToken}`,
      `${windowCookieName(other)}=${windowPass(host.accessToken)}`,
    ]) {
      expect((await raw('/ipc/app%3Ainfo', { method: 'POST', body: '', ...cookie(text) })).status, text).toBe(403);
      expect((await raw('/', cookie(text))).status, text).toBe(403);
    }
    const pass = `${windowCookieName(port())}=${windowPass(host.accessToken)}`;
    expect((await raw('/', cookie(pass))).status).toBe(200);
    expect((await raw('/assets/app.js', cookie(pass))).status).toBe(200);
    for (const [path, method] of [
      ['/ipc/app%3Ainfo', 'POST'],
      ['/events', 'GET'],
      ['/audio/x', 'GET'],
      ['/ipc/', 'GET'],
    ] as const) {
      const answer = await raw(path, { method, body: method === 'POST' ? '' : undefined, ...cookie(pass) });
      expect(answer.status, path).toBe(403);
    }
    // A cookie of the same name that someone else set beside it does not shut this one out.
    const both = `${tokenCookieName(port())}=not-this-run; ${tokenCookieName(port())}=${host.accessToken}`;
    expect((await raw('/ipc/app%3Ainfo', { method: 'POST', body: '', ...cookie(both) })).status).toBe(200);
    // A script's header is judged alone: a wrong one is not saved by a right cookie.
    expect(
      (
        await raw('/ipc/app%3Ainfo', {
          method: 'POST',
          body: '',
          anonymous: true,
          headers: { 'x-vet-scribe-token': 'not-this-run', cookie: both },
        })
      ).status,
    ).toBe(403);
  });

  it('refuses a request another site makes, token or not (an <audio> of a page elsewhere)', async () => {
    for (const site of ['cross-site', 'same-site']) {
      expect((await raw('/audio/x', { headers: { 'sec-fetch-site': site } })).status, site).toBe(403);
    }
    expect((await raw('/', { headers: { 'sec-fetch-site': 'same-origin' } })).status).toBe(200);
    expect((await raw('/', { headers: { 'sec-fetch-site': 'none' } })).status).toBe(200);
  });

  it('reads a body that is too large to its end, refuses it with 413 and closes the connection', async () => {
    const answer = await raw('/ipc/app%3Ainfo', { method: 'POST', body: Buffer.alloc(4 * 1024 * 1024 + 10, 0x20) });
    expect(answer.status).toBe(413);
    expect(answer.headers['connection']).toBe('close');
    expect((await raw('/ipc/app%3Ainfo', { method: 'POST', body: '' })).status).toBe(200);
  });

  it('listens on this computer only, and writes an IPv6 address in brackets', async () => {
    const rendererDir = mkdtempSync(join(tmpdir(), 'vet-scribe-window-'));
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html>');
    for (const bad of ['0.0.0.0', '::', '192.168.1.10', 'example.com']) {
      await expect(
        startWebHost({
          dataDir: mkdtempSync(join(tmpdir(), 'vet-scribe-host-')),
          rendererDir,
          memoryTokens: true,
          host: bad,
        }),
        bad,
      ).rejects.toThrow(/listens on this computer only/);
    }
    const six = await startWebHost({
      dataDir: mkdtempSync(join(tmpdir(), 'vet-scribe-host-')),
      rendererDir,
      memoryTokens: true,
      host: '::1',
    });
    try {
      expect(six.url).toMatch(/^http:\/\/\[::1\]:\d+\/$/);
      const answer = await fetch(`${six.url}ipc/app%3Ainfo`, {
        method: 'POST',
        headers: { 'x-vet-scribe-token': six.accessToken },
      });
      expect(answer.status).toBe(200);
    } finally {
      await six.close();
    }
  });
});

describe('browser host', () => {
  it('serves the window and its assets', async () => {
    expect(await raw('/')).toMatchObject({ status: 200, text: expect.stringContaining('<title>Vet Scribe</title>') });
    expect((await raw('/assets/app.js')).status).toBe(200);
  });

  it('serves nothing outside the window folder, however the path is written', async () => {
    for (const path of [
      '/../../../../etc/passwd',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/assets/..%2f..%2f..%2fetc%2fpasswd',
      '/..%5c..%5cetc%5cpasswd',
      '//',
      '/\\',
      '//etc/passwd',
      '/assets',
      '/assets/',
    ]) {
      const answer = await raw(path);
      expect(answer.status, path).toBe(404);
      expect(answer.text).not.toContain('root:');
    }
  });

  it('answers broken percent-encoding with 400, and goes on', async () => {
    for (const path of ['/audio/%E0%A4%A', '/%E0%A4%A', '/ipc/%E0%A4%A']) {
      const answer = await raw(path, { method: path.startsWith('/ipc/') ? 'POST' : 'GET' });
      expect(answer.status, path).toBe(path.startsWith('/ipc/') ? 404 : 400);
    }
    expect((await raw('/')).status).toBe(200);
  });

  it('answers the contract to its own origin only, and no token crosses it', async () => {
    const info = await raw('/ipc/app%3Ainfo', { method: 'POST', body: '' });
    expect(info.status).toBe(200);
    const demo = (
      decodeWire(info.text) as { ok: true; data: { sandbox: { demo: { email: string; password: string } } } }
    ).data.sandbox.demo;
    const signIn = await raw('/ipc/session%3AsignIn', {
      method: 'POST',
      body: JSON.stringify({ email: demo.email, password: demo.password }),
    });
    expect(signIn.status).toBe(200);
    expect(signIn.text).toContain('"ok":true');
    const token = await host.core.session.accessToken();
    for (const channel of ['session:get', 'app:info', 'settings:get']) {
      const answer = await raw(`/ipc/${encodeURIComponent(channel)}`, { method: 'POST', body: '' });
      expect(answer.text, channel).not.toContain(token);
      expect(answer.text, channel).not.toContain(token.split('.')[2]);
    }
    expect(
      (await raw('/ipc/app%3Ainfo', { method: 'POST', body: '', headers: { origin: 'http://evil.example' } })).status,
    ).toBe(403);
    expect((await raw('/ipc/app%3Ainfo', { method: 'POST', body: '', headers: { host: 'evil.example' } })).status).toBe(
      403,
    );
    expect((await raw('/ipc/no%3Asuch', { method: 'POST', body: '' })).status).toBe(404);
    expect((await raw('/ipc/app%3Ainfo', { method: 'POST', body: '{not json' })).status).toBe(400);
  });

  it('carries bytes in an answer: an exported note arrives as the same bytes, and the clipboard is left to the window', async () => {
    const core = host.core;
    if (!core.session.state().signedIn)
      await core.session.signIn(core.appInfo().sandbox!.demo.email, core.appInfo().sandbox!.demo.password);
    const id = await makeRecording(core, null, null, { patientName: 'Bella' });
    await core.pipeline.submit(id, await firstTemplateId(core));
    await waitForJob(core, id, (j) => j.state === 'completed');
    for (const format of ['pdf', 'txt'] as const) {
      const answer = await raw('/ipc/consults%3Aexport', { method: 'POST', body: encodeWire({ id, format }) });
      expect(answer.status).toBe(200);
      const decoded = decodeWire(answer.text) as { ok: true; data: { fileName: string; data: Uint8Array } };
      expect(decoded.ok).toBe(true);
      expect(decoded.data.data).toBeInstanceOf(Uint8Array);
      const direct = await core.notes.export(id, format, null, core.actors.current());
      expect(decoded.data.fileName).toBe(direct.fileName);
      expect(Buffer.from(decoded.data.data).equals(Buffer.from(direct.data))).toBe(true);
    }
    const pdf = decodeWire(
      (await raw('/ipc/consults%3Aexport', { method: 'POST', body: encodeWire({ id, format: 'pdf' }) })).text,
    ) as { data: { data: Uint8Array } };
    expect(Buffer.from(pdf.data.data.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const clip = await raw('/ipc/clipboard%3Awrite', {
      method: 'POST',
      body: encodeWire({ text: 'a', html: '<p>a</p>', rtf: '{\\rtf1 a}' }),
    });
    expect(decodeWire(clip.text)).toEqual({ ok: true, data: { written: false } });
  });

  it("plays a consult's audio to its own clinic only: another clinic's vet signed in gets 404, as for one that does not exist", async () => {
    const core = host.core;
    const demo = core.appInfo().sandbox!.demo;
    if (!core.session.state().signedIn) await core.session.signIn(demo.email, demo.password);
    const id = await makeRecording(core, null, null, { patientName: 'Bella' });
    expect((await raw(`/audio/${id}`, { headers: { range: 'bytes=0-9' } })).status).toBe(206);
    await core.session.signOut('user');
    await core.session.signIn(OTHER_ACCOUNT.email, OTHER_ACCOUNT.password);
    expect((await raw(`/audio/${id}`, { headers: { range: 'bytes=0-9' } })).status).toBe(404);
    expect((await raw(`/audio/${id}`)).status).toBe(404);
    await core.session.signOut('user');
    expect((await raw(`/audio/${id}`)).status).toBe(404);
  });
});
