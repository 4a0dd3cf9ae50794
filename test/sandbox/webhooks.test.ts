// Webhook deliveries of scribe events, from the sandbox to the reference receiver over real
// loopback HTTP, with the retry schedule of docs/service.md ("Webhooks") scaled down by --time-scale.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { RETRY_DELAYS_SECONDS } from '../../src/sandbox/webhooks.ts';
import { startWebhookReceiver } from '../../src/webhook-receiver/receiver.ts';
import { call, fakeWebm, signIn, uploadRecording, waitFor } from '../support/http.ts';
import { pythonVerify } from '../support/webhook-vectors.ts';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()?.();
});

/** A receiver in front of which the first `failures` deliveries of each event (status) are answered with `status`. */
async function flakyFront(
  target: string,
  failures: number,
  status = 500,
): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  const perEvent = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    hits += 1;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const event = String((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { status?: string }).status);
      perEvent.set(event, (perEvent.get(event) ?? 0) + 1);
      if ((perEvent.get(event) ?? 0) <= failures) {
        res.writeHead(status).end();
        return;
      }
      void request(target, {
        method: 'POST',
        body: Buffer.concat(chunks),
        headers: {
          'content-type': 'application/json',
          'x-webhook-signature': String(req.headers['x-webhook-signature']),
        },
      }).then(async (a) => {
        res.writeHead(a.statusCode, { 'content-type': 'application/json' }).end(await a.body.text());
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise((r) => server.close(() => r())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`, hits: () => hits };
}

async function scribeOnce(
  s: Sandbox,
  bytes = fakeWebm(),
  patientName = 'Bella',
): Promise<{ scribeId: string; recordingSessionId: string }> {
  const { access } = await signIn(s);
  const { recordingSessionId } = await uploadRecording(s, access, bytes, { patientName });
  const t = await call<{ items: { public_id: string }[] }>(
    'GET',
    `${s.urls.scribe_url}/templates/all?page=1&limit=50`,
    { token: access },
  );
  const r = await call<{ public_id: string }>('POST', `${s.urls.scribe_url}/scribe/request`, {
    token: access,
    body: { recording_session_public_id: recordingSessionId, template_public_id: t.json.items[0]?.public_id },
  });
  return { scribeId: r.json.public_id, recordingSessionId };
}

/** The attempts of one event (the scribe's status), in order. */
function attemptsOf(s: Sandbox, status: string) {
  return s.stats().webhookAttempts.filter((a) => a.event_id.endsWith(`:${status}`));
}

async function sandboxWith(url: string, secret: string, timeScale = 0.0002): Promise<Sandbox> {
  const s = await startSandbox({ scribeSeconds: 0.2, webhookUrl: url, webhookSecret: secret, timeScale });
  closers.push(() => s.close());
  return s;
}

describe('webhook deliveries', () => {
  it('a scribe request is delivered three times, signed, in the published payload: requested, scribing, scribed with the note', async () => {
    const receiver = await startWebhookReceiver({ port: 0, secret: 'clinic-secret', out: () => {} });
    closers.push(() => receiver.close());
    const s = await sandboxWith(receiver.url, 'clinic-secret');
    const { scribeId, recordingSessionId } = await scribeOnce(s);
    const events = await waitFor(async () => (receiver.events.length >= 3 ? receiver.events : undefined));
    const base = { public_id: scribeId, recording_session_public_id: recordingSessionId, event_type: 'scribe' };
    expect(events.map((e) => e.payload)).toEqual([
      { ...base, status: 'requested' },
      { ...base, status: 'scribing' },
      { ...base, status: 'scribed', categories_output: expect.any(Array), html_output: expect.any(String) },
    ]);
    const last = events[2]!.payload as {
      categories_output: { category: string; content: string }[];
      html_output: string;
    };
    expect(last.categories_output[0]?.content).toMatch(/^Example note: the sandbox does not listen to the audio/);
    expect(last.html_output).toContain('<h2>Subjective</h2>');
    expect(last.html_output).not.toMatch(/<script|<img/);
    // No event id and no time: the receiver knows a repeat by public_id and status.
    for (const e of events) expect(e.event_id).toBeNull();
    await waitFor(async () => (s.stats().deliveries.delivered === 3 ? true : undefined));
    expect(s.stats().deliveries).toMatchObject({ delivered: 3, pending: 0 });
  });

  it('html_output is the note as escaped HTML: a patient name with markup stays text', async () => {
    const receiver = await startWebhookReceiver({ port: 0, secret: 'clinic-secret', out: () => {} });
    closers.push(() => receiver.close());
    const s = await sandboxWith(receiver.url, 'clinic-secret');
    await scribeOnce(s, fakeWebm(), 'Rex <img src=x onerror="alert(1)"> & Co');
    const last = await waitFor(async () =>
      receiver.events.find((e) => (e.payload as { status?: string }).status === 'scribed'),
    );
    const { html_output: html, categories_output: categories } = last.payload as {
      html_output: string;
      categories_output: { category: string }[];
    };
    expect(html).not.toMatch(/<img|<script|onerror="/);
    expect(html).toContain('Rex &lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; Co');
    expect(html.match(/<h2>[^<]+<\/h2>/g)).toEqual(categories.map((c) => `<h2>${c.category}</h2>`));
  });

  it('delivers to the endpoint and with the secret the organization registered (PUT /webhook/update)', async () => {
    const fromOptions = await startWebhookReceiver({ port: 0, secret: 'options-secret', out: () => {} });
    const registered = await startWebhookReceiver({ port: 0, secret: 'registered-secret-0123', out: () => {} });
    closers.push(
      () => fromOptions.close(),
      () => registered.close(),
    );
    const s = await sandboxWith(fromOptions.url, 'options-secret');
    const me = await signIn(s);
    const put = await call<{ message: string; data: { event_type: string; is_active: boolean } }>(
      'PUT',
      `${s.urls.scribe_url}/webhook/update`,
      {
        token: me.access,
        body: { event_type: 'scribe', webhook_url: registered.url, auth_token: 'registered-secret-0123' },
      },
    );
    expect(put.status).toBe(200);
    expect(put.json.data).toMatchObject({ event_type: 'scribe', is_active: true });
    expect(JSON.stringify(put.json)).not.toContain('registered-secret-0123');
    await scribeOnce(s);
    await waitFor(async () => (registered.events.length >= 3 ? true : undefined));
    expect(fromOptions.events).toHaveLength(0);
  });

  it("what the sandbox delivers verifies with Python's canonical form (scripts/make-webhook-vectors.py)", async () => {
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
    const all = await waitFor(async () => (bodies.length >= 6 ? bodies : undefined));
    for (const { raw, signature } of all) {
      expect(pythonVerify(secret, raw, signature), raw.toString('utf8')).toBe('ok');
      expect(pythonVerify(secret, raw.toString('utf8').replace('"scribe"', '"other"'), signature)).toBe('bad');
    }
    expect(all.map((b) => (JSON.parse(b.raw.toString('utf8')) as { status: string }).status).sort()).toEqual([
      'failed',
      'requested',
      'requested',
      'scribed',
      'scribing',
      'scribing',
    ]);
  });

  it('a failed job is announced as failed', async () => {
    const receiver = await startWebhookReceiver({ port: 0, secret: 'k', out: () => {} });
    closers.push(() => receiver.close());
    const s = await sandboxWith(receiver.url, 'k');
    await scribeOnce(s, Buffer.from('not audio'));
    const event = await waitFor(async () =>
      receiver.events.find((e) => (e.payload as { status: string }).status === 'failed'),
    );
    expect(event.payload).not.toHaveProperty('categories_output');
  });

  it('retries after 4xx/5xx on the scaled schedule and stops once delivered', async () => {
    const receiver = await startWebhookReceiver({ port: 0, secret: 'k', out: () => {} });
    closers.push(() => receiver.close());
    const front = await flakyFront(receiver.url, 3, 503);
    const s = await sandboxWith(front.url, 'k', 0.0005);
    await scribeOnce(s);
    await waitFor(async () => (receiver.events.length >= 3 ? true : undefined), { timeoutMs: 15_000 });
    // The receiver has the event a moment before the sandbox has noted the 200 it answered.
    await waitFor(async () => (s.stats().webhookAttempts.length >= 12 ? true : undefined), { timeoutMs: 5_000 });
    for (const status of ['requested', 'scribing'])
      expect(attemptsOf(s, status).map((a) => a.status)).toEqual([503, 503, 503, 200]);
    const attempts = attemptsOf(s, 'scribed');
    expect(attempts.map((a) => a.status)).toEqual([503, 503, 503, 200]);
    // The gaps follow 1 min, 5 min, 15 min, scaled by 0.0005 (30, 150, 450 ms), never shorter.
    for (let i = 1; i < attempts.length; i++) {
      const gap = (attempts[i]?.at ?? 0) - (attempts[i - 1]?.at ?? 0);
      expect(gap).toBeGreaterThanOrEqual((RETRY_DELAYS_SECONDS[i - 1] ?? 0) * 1000 * 0.0005 - 5);
    }
    await new Promise((r) => setTimeout(r, 500));
    expect(front.hits()).toBe(12);
    expect(receiver.events).toHaveLength(3);
  });

  it('gives up after 5 retries when the receiver refuses the signature (403), and never sends again', async () => {
    const receiver = await startWebhookReceiver({ port: 0, secret: 'the-right-secret', out: () => {} });
    closers.push(() => receiver.close());
    const s = await sandboxWith(receiver.url, 'a-wrong-secret', 0.0002);
    await scribeOnce(s);
    await waitFor(async () => (s.stats().deliveries.givenUp === 3 ? true : undefined), { timeoutMs: 20_000 });
    for (const status of ['requested', 'scribing'])
      expect(attemptsOf(s, status).map((a) => a.status)).toEqual([403, 403, 403, 403, 403, 403]);
    const attempts = attemptsOf(s, 'scribed');
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
    expect(s.stats().webhookAttempts).toHaveLength(18);
    expect(receiver.events).toHaveLength(0);
  });

  it('an unreachable receiver is retried too', async () => {
    const front = await flakyFront('http://127.0.0.1:9/', 0);
    const dead = front.url.replace(/:\d+\//, ':9/');
    const s = await sandboxWith(dead, 'k', 0.0001);
    await scribeOnce(s);
    await waitFor(async () => (s.stats().deliveries.givenUp === 3 ? true : undefined), { timeoutMs: 20_000 });
    expect(s.stats().webhookAttempts.map((a) => a.status)).toEqual(Array.from({ length: 18 }, () => null));
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
