// The browser host over real HTTP: it serves the window and the IPC contract to its own origin
// only, never a file outside the window's folder, and answers broken addresses with 400.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebHost, type WebHost } from '../../src/main/web-host/host.ts';
import { decodeWire, encodeWire } from '../../src/shared/ipc-wire.ts';
import { firstTemplateId, makeRecording, waitForJob } from './support/core.ts';

let host: WebHost;

beforeAll(async () => {
  const rendererDir = mkdtempSync(join(tmpdir(), 'vet-scribe-window-'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Vet Scribe</title>');
  mkdirSync(join(rendererDir, 'assets'));
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  host = await startWebHost({ dataDir: mkdtempSync(join(tmpdir(), 'vet-scribe-host-')), rendererDir, memoryTokens: true, sandbox: { scribeSeconds: 0.2 } });
});

afterAll(async () => {
  await host?.close();
});

/** A raw request, so that paths reach the host exactly as written (fetch would normalise them). */
async function raw(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; text: string }> {
  const { request } = await import('node:http');
  const url = new URL(host.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method: init.method ?? 'GET', headers: { host: url.host, ...init.headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

describe('browser host', () => {
  it('serves the window and its assets', async () => {
    expect(await raw('/')).toMatchObject({ status: 200, text: expect.stringContaining('<title>Vet Scribe</title>') });
    expect((await raw('/assets/app.js')).status).toBe(200);
  });

  it('serves nothing outside the window folder, however the path is written', async () => {
    for (const path of ['/../../../../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/assets/..%2f..%2f..%2fetc%2fpasswd', '/..%5c..%5cetc%5cpasswd', '//', '/\\', '//etc/passwd', '/assets', '/assets/']) {
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
    const demo = (decodeWire(info.text) as { ok: true; data: { sandbox: { demo: { email: string; password: string } } } }).data.sandbox.demo;
    const signIn = await raw('/ipc/session%3AsignIn', { method: 'POST', body: JSON.stringify({ email: demo.email, password: demo.password }) });
    expect(signIn.status).toBe(200);
    expect(signIn.text).toContain('"ok":true');
    const token = await host.core.session.accessToken();
    for (const channel of ['session:get', 'app:info', 'settings:get']) {
      const answer = await raw(`/ipc/${encodeURIComponent(channel)}`, { method: 'POST', body: '' });
      expect(answer.text, channel).not.toContain(token);
      expect(answer.text, channel).not.toContain(token.split('.')[2]);
    }
    expect((await raw('/ipc/app%3Ainfo', { method: 'POST', body: '', headers: { origin: 'http://evil.example' } })).status).toBe(403);
    expect((await raw('/ipc/app%3Ainfo', { method: 'POST', body: '', headers: { host: 'evil.example' } })).status).toBe(403);
    expect((await raw('/ipc/no%3Asuch', { method: 'POST', body: '' })).status).toBe(404);
    expect((await raw('/ipc/app%3Ainfo', { method: 'POST', body: '{not json' })).status).toBe(400);
  });

  it('carries bytes in an answer: an exported note arrives as the same bytes, and the clipboard is left to the window', async () => {
    const core = host.core;
    if (!core.session.state().signedIn) await core.session.signIn(core.appInfo().sandbox!.demo.email, core.appInfo().sandbox!.demo.password);
    const id = await makeRecording(core.recordings, null, null, { patientName: 'Bella' });
    core.remember((await core.recordings.get(id))!);
    await core.pipeline.submit(id, await firstTemplateId(core));
    await waitForJob(core, id, (j) => j.state === 'completed');
    for (const format of ['pdf', 'txt'] as const) {
      const answer = await raw('/ipc/consults%3Aexport', { method: 'POST', body: encodeWire({ id, format }) });
      expect(answer.status).toBe(200);
      const decoded = decodeWire(answer.text) as { ok: true; data: { fileName: string; data: Uint8Array } };
      expect(decoded.ok).toBe(true);
      expect(decoded.data.data).toBeInstanceOf(Uint8Array);
      const direct = await core.exportNote(id, format);
      expect(decoded.data.fileName).toBe(direct.fileName);
      expect(Buffer.from(decoded.data.data).equals(Buffer.from(direct.data))).toBe(true);
    }
    const pdf = decodeWire((await raw('/ipc/consults%3Aexport', { method: 'POST', body: encodeWire({ id, format: 'pdf' }) })).text) as { data: { data: Uint8Array } };
    expect(Buffer.from(pdf.data.data.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const clip = await raw('/ipc/clipboard%3Awrite', { method: 'POST', body: encodeWire({ text: 'a', html: '<p>a</p>', rtf: '{\\rtf1 a}' }) });
    expect(decodeWire(clip.text)).toEqual({ ok: true, data: { written: false } });
  });
});
