// Webhook deliveries of scribe events, from the sandbox to the reference receiver over real
// loopback HTTP, with the retry schedule of SPEC section 8 scaled down by --time-scale.
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { RETRY_DELAYS_SECONDS } from '../../src/sandbox/webhooks.ts';
import { startWebhookReceiver } from '../../src/webhook-receiver/receiver.ts';
import { call, fakeWebm, signIn, uploadRecording, waitFor } from './support/http.ts';

const VECTORS_SCRIPT = join(import.meta.dirname, '../../scripts/make-webhook-vectors.py');
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()?.();
});

/** A receiver in front of which the first `failures` deliveries are answered with `status`. */
async function flakyFront(target: string, failures: number, status = 500): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  const server: Server = createServer((req, res) => {
    hits += 1;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (hits <= failures) {
        res.writeHead(status).end();
        return;
      }
      void request(target, { method: 'POST', body: Buffer.concat(chunks), headers: { 'content-type': 'application/json', 'x-webhook-signature': String(req.headers['x-webhook-signature']) } }).then(
        async (a) => {
          res.writeHead(a.statusCode, { 'content-type': 'application/json' }).end(await a.body.text());
        },
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise((r) => server.close(() => r())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`, hits: () => hits };
}

async function scribeOnce(s: Sandbox, bytes = fakeWebm()): Promise<string> {
  const { access } = await signIn(s);
  const { sessionId, fileKey } = await uploadRecording(s, access, bytes);
  const t = await call<{ data: { items: { public_id: string }[] } }>('GET', `${s.urls.scribe_url}/templates/all?page=1&limit=50`, { token: access });
  const r = await call<{ data: { public_id: string } }>('POST', `${s.urls.scribe_url}/scribe/request`, {
    token: access,
    body: { recording_session_public_id: sessionId, template_public_id: t.json.data.items[0]?.public_id, file_key: fileKey },
  });
  return r.json.data.public_id;
}

async function sandboxWith(url: string, secret: string, timeScale = 0.0002): Promise<Sandbox> {
  const s = await startSandbox({ scribeSeconds: 0.2, webhookUrl: url, webhookSecret: secret, timeScale });
  closers.push(() => s.close());
  return s;
}

describe('webhook deliveries', () => {
  it('a finished scribe job is delivered, signed, and verified by the receiver', async () => {
    const receiver = await startWebhookReceiver({ port: 0, secret: 'clinic-secret', out: () => {} });
    closers.push(() => receiver.close());
    const s = await sandboxWith(receiver.url, 'clinic-secret');
    const scribeId = await scribeOnce(s);
    const event = await waitFor(async () => receiver.events[0]);
    expect(event.payload).toMatchObject({ event_type: 'scribe', status: 'completed', scribe_public_id: scribeId });
    expect(event.event_id).toEqual(expect.any(String));
    expect(s.stats().deliveries).toMatchObject({ delivered: 1, pending: 0 });
  });

  it('what the sandbox delivers verifies with Python\'s canonical form (scripts/make-webhook-vectors.py)', async () => {
    const bodies: { raw: Buffer; signature: string }[] = [];
    const capture = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        bodies.push({ raw: Buffer.concat(chunks), signature: String(req.headers['x-webhook-signature']) });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => capture.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise((r) => capture.close(() => r())));
    const secret = 'sécret-🔑-clinic';
    const s = await sandboxWith(`http://127.0.0.1:${(capture.address() as AddressInfo).port}/hook`, secret);
    await scribeOnce(s);
    await scribeOnce(s, Buffer.from('not audio'));
    const both = await waitFor(async () => (bodies.length >= 2 ? bodies : undefined));
    for (const { raw, signature } of both) {
      const python = spawnSync('python3', [VECTORS_SCRIPT, '--verify', secret, signature], { input: raw, encoding: 'utf8' });
      expect(python.stdout.trim(), raw.toString('utf8')).toBe('ok');
      const tampered = spawnSync('python3', [VECTORS_SCRIPT, '--verify', secret, signature], { input: Buffer.from(raw.toString('utf8').replace('"scribe"', '"other"')), encoding: 'utf8' });
      expect(tampered.stdout.trim()).toBe('bad');
    }
    expect(both.map((b) => (JSON.parse(b.raw.toString('utf8')) as { status: string }).status).sort()).toEqual(['completed', 'failed']);
  });

  it('a failed job is announced as failed', async () => {
    const receiver = await startWebhookReceiver({ port: 0, secret: 'k', out: () => {} });
    closers.push(() => receiver.close());
    const s = await sandboxWith(receiver.url, 'k');
    await scribeOnce(s, Buffer.from('not audio'));
    const event = await waitFor(async () => receiver.events[0]);
    expect(event.payload).toMatchObject({ status: 'failed' });
  });

  it('retries after 4xx/5xx on the scaled schedule and stops once delivered', async () => {
    const receiver = await startWebhookReceiver({ port: 0, secret: 'k', out: () => {} });
    closers.push(() => receiver.close());
    const front = await flakyFront(receiver.url, 3, 503);
    const s = await sandboxWith(front.url, 'k', 0.0005);
    await scribeOnce(s);
    await waitFor(async () => receiver.events[0], { timeoutMs: 15_000 });
    // The receiver has the event a moment before the sandbox has noted the 200 it answered.
    await waitFor(async () => (s.stats().webhookAttempts.length >= 4 ? true : undefined), { timeoutMs: 5_000 });
    const attempts = s.stats().webhookAttempts;
    expect(attempts.map((a) => a.status)).toEqual([503, 503, 503, 200]);
    // The gaps follow 1 min, 5 min, 15 min, scaled by 0.0005 (30, 150, 450 ms), never shorter.
    for (let i = 1; i < attempts.length; i++) {
      const gap = (attempts[i]?.at ?? 0) - (attempts[i - 1]?.at ?? 0);
      expect(gap).toBeGreaterThanOrEqual((RETRY_DELAYS_SECONDS[i - 1] ?? 0) * 1000 * 0.0005 - 5);
    }
    await new Promise((r) => setTimeout(r, 500));
    expect(front.hits()).toBe(4);
    expect(receiver.events).toHaveLength(1);
  });

  it('gives up after 5 retries when the receiver refuses the signature (403), and never sends again', async () => {
    const receiver = await startWebhookReceiver({ port: 0, secret: 'the-right-secret', out: () => {} });
    closers.push(() => receiver.close());
    const s = await sandboxWith(receiver.url, 'a-wrong-secret', 0.0002);
    await scribeOnce(s);
    await waitFor(async () => (s.stats().deliveries.givenUp === 1 ? true : undefined), { timeoutMs: 20_000 });
    const attempts = s.stats().webhookAttempts;
    expect(attempts.map((a) => a.status)).toEqual([403, 403, 403, 403, 403, 403]);
    // The five gaps: 1 min, 5 min, 15 min, 1 h, 2 h scaled by 0.0002 (12, 60, 180, 720, 1440 ms);
    // never shorter, and not much longer (the sandbox looks at its deliveries every few ms).
    const gaps = attempts.slice(1).map((a, i) => a.at - (attempts[i]?.at ?? 0));
    expect(gaps).toHaveLength(RETRY_DELAYS_SECONDS.length);
    gaps.forEach((gap, i) => {
      const due = (RETRY_DELAYS_SECONDS[i] ?? 0) * 1000 * 0.0002;
      expect(gap, `gap ${i + 1}`).toBeGreaterThanOrEqual(due - 5);
      expect(gap, `gap ${i + 1}`).toBeLessThan(due + 1000);
    });
    // Never again: 3 times the last delay later there is still no seventh attempt.
    await new Promise((r) => setTimeout(r, 3 * 1440));
    expect(s.stats().webhookAttempts).toHaveLength(6);
    expect(receiver.events).toHaveLength(0);
  });

  it('an unreachable receiver is retried too', async () => {
    const front = await flakyFront('http://127.0.0.1:9/', 0);
    const dead = front.url.replace(/:\d+\//, ':9/');
    const s = await sandboxWith(dead, 'k', 0.0001);
    await scribeOnce(s);
    await waitFor(async () => (s.stats().deliveries.givenUp === 1 ? true : undefined), { timeoutMs: 20_000 });
    expect(s.stats().webhookAttempts.map((a) => a.status)).toEqual([null, null, null, null, null, null]);
  });

  it('a switched-off webhook sends nothing', async () => {
    const receiver = await startWebhookReceiver({ port: 0, secret: 'k', out: () => {} });
    closers.push(() => receiver.close());
    const s = await sandboxWith(receiver.url, 'k');
    const me = await signIn(s);
    const off = await call('PATCH', `${s.urls.scribe_url}/webhook/status`, {
      token: me.access,
      body: { event_type: 'scribe', is_active: false, organization_public_id: me.user.organization_id },
    });
    expect(off.status).toBe(200);
    await scribeOnce(s);
    await new Promise((r) => setTimeout(r, 800));
    expect(s.stats().webhookAttempts).toHaveLength(0);
  });
});
