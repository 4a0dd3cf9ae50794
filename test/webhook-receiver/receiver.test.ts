// The reference receiver over real loopback HTTP: its answers, repeats known by event id or by
// (public_id, status) and remembered in a node:sqlite file across restarts, the printed lines,
// copies arriving together, replays, the store's file modes, and the CLI as a real child
// process. Receivers sharing PostgreSQL are in webhook-receiver-postgres.test.ts.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { canonicalJson, canonicalJsonFromValue, signWebhook } from '../../src/shared/webhook/index.ts';
import {
  startWebhookReceiver,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from '../../src/webhook-receiver/receiver.ts';
import { MemorySeenStore } from '../../src/webhook-receiver/memory-seen-store.ts';
import { DEFAULT_REMEMBER_MS, MIN_REMEMBER_MS, RETRY_WINDOW_MS } from '../../src/webhook-receiver/seen-store.ts';
import { SqliteSeenStore } from '../../src/webhook-receiver/sqlite-seen-store.ts';

const SECRET = 'clinic-secret';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()?.();
});

async function receiver(options: Partial<WebhookReceiverOptions> = {}): Promise<WebhookReceiver & { lines: string[] }> {
  const lines: string[] = [];
  const r = await startWebhookReceiver({ port: 0, secret: SECRET, out: (line) => lines.push(line), ...options });
  closers.push(() => r.close());
  return Object.assign(r, { lines });
}

interface Answer {
  status: number;
  json: Record<string, unknown>;
  headers: Record<string, unknown>;
}

async function post(
  url: string,
  body: string | Buffer | undefined,
  headers: Record<string, string> = {},
  method = 'POST',
): Promise<Answer> {
  const a = await request(url, {
    method: method as 'POST',
    body,
    headers: { 'content-type': 'application/json', ...headers },
  });
  const text = await a.body.text();
  expect(a.headers['content-type']).toBe('application/json');
  return { status: a.statusCode, json: JSON.parse(text) as Record<string, unknown>, headers: a.headers };
}

async function deliver(url: string, raw: string, secret = SECRET): Promise<Answer> {
  return post(url, raw, { 'x-webhook-signature': await signWebhook(secret, canonicalJson(raw)) });
}

function scribeEvent(eventId = 'evt-1'): Record<string, unknown> {
  return {
    event_id: eventId,
    event_type: 'scribe',
    status: 'completed',
    scribe_public_id: 'scr_1',
    recording_session_public_id: 'rs_1',
    organization_public_id: '5f0c8a9e-2b4d-4c61-8f3a-7d9e1b2c3a4d',
    occurred_at: '2025-03-14T09:26:53.589Z',
  };
}

function expectError(answer: Answer, status: number, code: string): void {
  expect(answer.status).toBe(status);
  expect(answer.json).toEqual({ detail: expect.any(String), code });
}

describe('webhook receiver', () => {
  it('accepts a correctly signed delivery and prints it as one JSON line', async () => {
    const r = await receiver();
    const raw = canonicalJsonFromValue(scribeEvent());
    const answer = await deliver(r.url, raw);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ received: true, duplicate: false });
    expect(r.lines).toHaveLength(1);
    const line = JSON.parse(r.lines[0] ?? '') as Record<string, unknown>;
    expect(line).toEqual({
      received_at: expect.any(String),
      event_id: 'evt-1',
      event_type: 'scribe',
      delivery_key: 'event:evt-1',
      payload: scribeEvent(),
    });
    expect(Date.parse(String(line['received_at']))).not.toBeNaN();
    expect(r.events[0]).toMatchObject({
      event_id: 'evt-1',
      event_type: 'scribe',
      payload: scribeEvent(),
      canonical: raw,
    });
  });

  it('accepts /webhook as well as /', async () => {
    const r = await receiver();
    expect((await deliver(`${r.url}webhook`, canonicalJsonFromValue(scribeEvent('a')))).status).toBe(200);
    expect((await deliver(`${r.url}webhook?attempt=2`, canonicalJsonFromValue(scribeEvent('b')))).status).toBe(200);
  });

  it('accepts a wire body with other spacing, key order and raw non-ASCII, signed over the canonical form', async () => {
    const r = await receiver();
    const event = { ...scribeEvent('evt-ü'), note: 'Müller 🐕 犬' };
    // Python's requests.post(json=...) spacing, keys reversed, non-ASCII as raw UTF-8, 2.0 kept.
    const raw =
      '{"weight_kg": 2.0, ' + JSON.stringify(Object.fromEntries(Object.entries(event).reverse()), null, 1).slice(1);
    const signature = await signWebhook(SECRET, canonicalJson(raw));
    expect(canonicalJson(raw)).toContain('"weight_kg":2.0');
    const answer = await post(r.url, Buffer.from(raw, 'utf8'), { 'x-webhook-signature': signature });
    expect(answer.status).toBe(200);
    expect(r.events[0]?.payload).toMatchObject({ note: 'Müller 🐕 犬', event_id: 'evt-ü' });
    // The printed payload keeps 2.0 as it was signed.
    expect(r.lines[0]).toContain('"weight_kg":2.0');
    expect(JSON.parse(r.lines[0] ?? '')).toMatchObject({ event_id: 'evt-ü', payload: { note: 'Müller 🐕 犬' } });
  });

  it('accepts every delivery Python signed (the committed vectors), and refuses each with one digit changed', async () => {
    const vectors = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/webhook-vectors.json'), 'utf8')) as {
      name: string;
      secret: string;
      raw: string;
      signature: string;
    }[];
    const bySecret = new Map<string, WebhookReceiver>();
    for (const v of vectors) {
      let r = bySecret.get(v.secret);
      if (!r) bySecret.set(v.secret, (r = await receiver({ secret: v.secret })));
      const ok = await post(r.url, v.raw, { 'x-webhook-signature': v.signature });
      expect(ok.status, v.name).toBe(200);
      const flipped = v.signature.slice(0, -1) + (v.signature.endsWith('0') ? '1' : '0');
      expectError(await post(r.url, v.raw, { 'x-webhook-signature': flipped }), 403, 'invalid_signature');
    }
    expect(bySecret.size).toBeGreaterThan(1);
  });

  it('answers 400 when X-Webhook-Signature is missing or empty', async () => {
    const r = await receiver();
    const raw = canonicalJsonFromValue(scribeEvent());
    expectError(await post(r.url, raw), 400, 'missing_signature');
    expectError(await post(r.url, raw, { 'x-webhook-signature': '' }), 400, 'missing_signature');
    expect(r.lines).toHaveLength(0);
  });

  it('answers 400 for a body that is not JSON, is empty, is not UTF-8 or starts with a BOM', async () => {
    const r = await receiver();
    const sig = { 'x-webhook-signature': 'a'.repeat(64) };
    const notJson = await post(r.url, '{"event_id": ', sig);
    expectError(notJson, 400, 'invalid_json');
    expect(notJson.json['detail']).toMatch(/offset 13/);
    expectError(await post(r.url, '', sig), 400, 'missing_body');
    expectError(await post(r.url, undefined, sig), 400, 'missing_body');
    expectError(await post(r.url, Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]), sig), 400, 'invalid_json');
    const bom = '\ufeff' + canonicalJsonFromValue(scribeEvent());
    expectError(
      await post(r.url, Buffer.from(bom, 'utf8'), {
        'x-webhook-signature': await signWebhook(SECRET, canonicalJsonFromValue(scribeEvent())),
      }),
      400,
      'invalid_json',
    );
  });

  it('answers 403 for a wrong signature, a wrong secret or a tampered body', async () => {
    const r = await receiver();
    const raw = canonicalJsonFromValue(scribeEvent());
    const good = await signWebhook(SECRET, raw);
    expectError(
      await post(r.url, raw, { 'x-webhook-signature': (good[0] === 'a' ? 'b' : 'a') + good.slice(1) }),
      403,
      'invalid_signature',
    );
    expectError(await post(r.url, raw, { 'x-webhook-signature': 'not-hex' }), 403, 'invalid_signature');
    expectError(await deliver(r.url, raw, 'another-secret'), 403, 'invalid_signature');
    expectError(
      await post(r.url, raw.replace('completed', 'failed'), { 'x-webhook-signature': good }),
      403,
      'invalid_signature',
    );
    expect(r.lines).toHaveLength(0);
    expect(r.events).toHaveLength(0);
  });

  it('answers 413 for a body one byte over the limit, and keeps serving', async () => {
    const r = await receiver();
    const limit = 1024 * 1024;
    const tooBig = '"' + 'x'.repeat(limit - 1) + '"';
    expect(Buffer.byteLength(tooBig)).toBe(limit + 1);
    expectError(
      await post(r.url, tooBig, { 'x-webhook-signature': await signWebhook(SECRET, tooBig) }),
      413,
      'payload_too_large',
    );
    // Without a Content-Length (chunked), the limit is found while reading.
    async function* chunks(): AsyncGenerator<Buffer> {
      for (let i = 0; i < 17; i++) yield Buffer.alloc(64 * 1024, 0x20);
    }
    const chunked = await request(r.url, {
      method: 'POST',
      body: Readable.from(chunks()),
      headers: { 'x-webhook-signature': 'a'.repeat(64) },
    });
    expect(chunked.statusCode).toBe(413);
    expect(await chunked.body.json()).toMatchObject({ code: 'payload_too_large' });
    // Exactly at the limit is read (and then judged on its signature).
    const atLimit = '"' + 'x'.repeat(limit - 2) + '"';
    expect((await deliver(r.url, atLimit)).status).toBe(200);
  });

  it('honours a smaller maxBodyBytes', async () => {
    const r = await receiver({ maxBodyBytes: 100 });
    const raw = canonicalJsonFromValue({ event_id: 'x', pad: 'y'.repeat(100) });
    expectError(await deliver(r.url, raw), 413, 'payload_too_large');
  });

  it('answers 405 to other methods and 404 to other paths', async () => {
    const r = await receiver();
    const get = await post(r.url, undefined, {}, 'GET');
    expectError(get, 405, 'method_not_allowed');
    expect(get.headers['allow']).toBe('POST');
    expectError(await post(r.url, '{}', {}, 'PUT'), 405, 'method_not_allowed');
    expectError(await deliver(`${r.url}elsewhere`, '{}'), 404, 'not_found');
  });

  it('handles a repeated event id once', async () => {
    const events: string[] = [];
    const r = await receiver({ onEvent: (e) => void events.push(String(e.event_id)) });
    const raw = canonicalJsonFromValue(scribeEvent('evt-dup'));
    expect((await deliver(r.url, raw)).json).toEqual({ received: true, duplicate: false });
    // A retry may come with other spacing: still the same event.
    const again = await deliver(r.url, JSON.stringify(scribeEvent('evt-dup'), null, 2));
    expect(again.status).toBe(200);
    expect(again.json).toEqual({ received: true, duplicate: true });
    // Two copies at the same moment also count once.
    const [a, b] = await Promise.all([
      deliver(r.url, canonicalJsonFromValue(scribeEvent('evt-twin'))),
      deliver(r.url, canonicalJsonFromValue(scribeEvent('evt-twin'))),
    ]);
    expect([a.json['duplicate'], b.json['duplicate']].sort()).toEqual([false, true]);
    expect(events).toEqual(['evt-dup', 'evt-twin']);
    expect(r.lines).toHaveLength(2);
    expect(r.events.map((e) => e.event_id)).toEqual(['evt-dup', 'evt-twin']);
    // Payloads without an event id cannot be told apart, so each one is handled.
    await deliver(r.url, '{"event_type": "scribe"}');
    await deliver(r.url, '{"event_type": "scribe"}');
    expect(r.lines).toHaveLength(4);
    for (const line of r.lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
  });

  it('handles a published delivery (no event id) once per public_id and status', async () => {
    const handled: string[] = [];
    const r = await receiver({ onEvent: (e) => void handled.push(String((e.payload as { status: string }).status)) });
    const event = (status: string) =>
      canonicalJsonFromValue({ public_id: 'sc-1', recording_session_public_id: 'rs-1', status, event_type: 'scribe' });
    expect((await deliver(r.url, event('requested'))).json).toEqual({ received: true, duplicate: false });
    expect((await deliver(r.url, event('requested'))).json).toEqual({ received: true, duplicate: true });
    expect((await deliver(r.url, event('scribing'))).json).toEqual({ received: true, duplicate: false });
    const scribed = canonicalJsonFromValue({
      public_id: 'sc-1',
      recording_session_public_id: 'rs-1',
      status: 'scribed',
      event_type: 'scribe',
      categories_output: [{ category: 'Plan', content: 'Recheck.' }],
      html_output: '<h2>Plan</h2><p>Recheck.</p>',
    });
    expect((await deliver(r.url, scribed)).json).toEqual({ received: true, duplicate: false });
    expect((await deliver(r.url, scribed)).json).toEqual({ received: true, duplicate: true });
    // Another scribe's same status is another event.
    expect(
      (await deliver(r.url, canonicalJsonFromValue({ public_id: 'sc-2', status: 'requested', event_type: 'scribe' })))
        .json['duplicate'],
    ).toBe(false);
    expect(handled).toEqual(['requested', 'scribing', 'scribed', 'requested']);
  });

  it('with a data folder, a retry after a restart is still known; without one it is not', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'vet-scribe-webhooks-')), 'store');
    const raw = canonicalJsonFromValue({
      public_id: 'sc-9',
      recording_session_public_id: 'rs-9',
      status: 'scribed',
      event_type: 'scribe',
    });
    const first = await startWebhookReceiver({ port: 0, secret: SECRET, out: () => {}, dataDir: dir });
    expect(first.seenStore).toBe(join(dir, 'webhook-seen.sqlite'));
    expect((await deliver(first.url, raw)).json['duplicate']).toBe(false);
    await first.close();
    const second = await receiver({ dataDir: dir });
    expect((await deliver(second.url, raw)).json).toEqual({ received: true, duplicate: true });
    expect(second.lines).toHaveLength(0);

    const memory = await startWebhookReceiver({ port: 0, secret: SECRET, out: () => {} });
    expect(memory.seenStore).toMatch(/^memory/);
    expect((await deliver(memory.url, raw)).json['duplicate']).toBe(false);
    await memory.close();
    const forgetful = await receiver();
    expect((await deliver(forgetful.url, raw)).json['duplicate']).toBe(false);
  });

  it('a delivery whose handler failed is not remembered, even across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vet-scribe-webhooks-'));
    const raw = canonicalJsonFromValue({ public_id: 'sc-5', status: 'scribed', event_type: 'scribe' });
    const failing = await startWebhookReceiver({
      port: 0,
      secret: SECRET,
      out: () => {},
      dataDir: dir,
      onEvent: () => {
        throw new Error('database down');
      },
    });
    expectError(await deliver(failing.url, raw), 500, 'handler_failed');
    await failing.close();
    const next = await receiver({ dataDir: dir });
    expect((await deliver(next.url, raw)).json).toEqual({ received: true, duplicate: false });
  });

  it('answers 500 when the handler fails, so that the retry is handled', async () => {
    let calls = 0;
    const r = await receiver({
      onEvent: () => {
        calls += 1;
        if (calls === 1) throw new Error('disk full');
      },
    });
    const raw = canonicalJsonFromValue(scribeEvent('evt-retry'));
    const first = await deliver(r.url, raw);
    expectError(first, 500, 'handler_failed');
    expect(first.json['detail']).toMatch(/disk full/);
    expect(r.lines).toHaveLength(0);
    expect((await deliver(r.url, raw)).json).toEqual({ received: true, duplicate: false });
    expect(r.lines).toHaveLength(1);
  });

  it('a store that refuses the record after the handler answers 500; the retry calls the handler again with the same key, and a handler filing under the key does its work once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vet-scribe-webhooks-'));
    const filed = join(dir, 'filed');
    mkdirSync(filed);
    // Another program holding the file's write lock as the handler returns: SQLite refuses the record.
    const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
    const other = new DatabaseSync(join(dir, 'webhook-seen.sqlite'));
    closers.push(async () => other.close());
    const keys: (string | null)[] = [];
    const r = await receiver({
      dataDir: dir,
      onEvent: (event) => {
        keys.push(event.delivery_key);
        // The clinic's work, filed once under the delivery key.
        try {
          writeFileSync(join(filed, encodeURIComponent(String(event.delivery_key))), event.canonical, { flag: 'wx' });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        }
        if (keys.length === 1) other.exec('BEGIN IMMEDIATE');
      },
    });
    const raw = canonicalJsonFromValue({ public_id: 'sc-locked', status: 'scribed', event_type: 'scribe' });
    const first = await deliver(r.url, raw);
    expectError(first, 500, 'store_failed');
    expect(first.json['detail']).toMatch(/locked/);
    other.exec('ROLLBACK');
    expect((await deliver(r.url, raw)).json).toEqual({ received: true, duplicate: false });
    expect((await deliver(r.url, raw)).json).toEqual({ received: true, duplicate: true });
    expect(keys).toEqual(['scribe:sc-locked:scribed', 'scribe:sc-locked:scribed']);
    expect(readdirSync(filed)).toEqual([encodeURIComponent('scribe:sc-locked:scribed')]);
    // The printed line carries the key too, for whoever reads the lines rather than giving a handler.
    expect(r.lines.map((line) => (JSON.parse(line) as { delivery_key: string }).delivery_key)).toEqual([
      'scribe:sc-locked:scribed',
      'scribe:sc-locked:scribed',
    ]);
  });

  /** Writes raw bytes to the receiver and collects everything it says until it hangs up. */
  function rawExchange(port: number, text: string): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(text));
      let reply = '';
      socket.on('data', (d: Buffer) => (reply += d.toString()));
      socket.on('close', () => resolve(reply));
      socket.on('error', reject);
    });
  }

  it('survives a malformed HTTP request', async () => {
    const r = await receiver();
    const reply = await rawExchange(r.port, 'NOT HTTP AT ALL\r\n\r\n');
    expect(reply).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(reply).toContain('{"detail":"malformed HTTP request","code":"bad_request"}');
    const huge = await rawExchange(r.port, `POST / HTTP/1.1\r\nhost: x\r\nx-padding: ${'p'.repeat(20_000)}\r\n\r\n`);
    expect(huge).toMatch(/^HTTP\/1\.1 431 /);
    expect(huge).toContain('"code":"headers_too_large"');
    expect((await deliver(r.url, canonicalJsonFromValue(scribeEvent()))).status).toBe(200);
  });

  it('cuts off a client that sends its headers or its body too slowly (408)', async () => {
    const r = await receiver({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
    const started = Date.now();
    const slowHeaders = await rawExchange(r.port, 'POST / HTTP/1.1\r\nhost: x\r\n');
    expect(slowHeaders).toMatch(/^HTTP\/1\.1 408 /);
    expect(slowHeaders).toContain('"code":"request_timeout"');
    const slowBody = await rawExchange(
      r.port,
      `POST / HTTP/1.1\r\nhost: x\r\nx-webhook-signature: ${'a'.repeat(64)}\r\ncontent-length: 100\r\n\r\n{"a":`,
    );
    expect(slowBody).toMatch(/^HTTP\/1\.1 408 /);
    expect(slowBody).toContain('"code":"request_timeout"');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await deliver(r.url, canonicalJsonFromValue(scribeEvent()))).status).toBe(200);
  });
});

describe('webhook receiver: copies together, replays, file modes', () => {
  const published = (publicId: string, status = 'scribed', extra: Record<string, unknown> = {}) =>
    canonicalJsonFromValue({
      public_id: publicId,
      recording_session_public_id: 'rs-1',
      status,
      event_type: 'scribe',
      ...extra,
    });
  const HOUR = 3_600_000;
  const DAY = 24 * HOUR;

  it('a copy that arrives while the first is being handled waits: when the first fails, the copy is handled', async () => {
    let calls = 0;
    const handled: string[] = [];
    const r = await receiver({
      onEvent: async (e) => {
        calls += 1;
        if (calls === 1) {
          await sleep(300);
          throw new Error('database down');
        }
        handled.push(String((e.payload as { public_id: string }).public_id));
      },
    });
    const raw = published('sc-twin');
    const answers = await Promise.all([deliver(r.url, raw), deliver(r.url, raw)]);
    answers.sort((a, b) => a.status - b.status);
    // Answering the copy "duplicate" would have lost the event: the sender stops retrying it.
    expect(answers[0]?.json).toEqual({ received: true, duplicate: false });
    expectError(answers[1] as Answer, 500, 'handler_failed');
    expect(handled).toEqual(['sc-twin']);
    expect(r.lines).toHaveLength(1);
    // The failed copy's retry finds it handled.
    expect((await deliver(r.url, raw)).json).toEqual({ received: true, duplicate: true });
    expect(handled).toHaveLength(1);
  });

  it('a copy of a delivery still being handled is answered 200 only once the first has succeeded', async () => {
    let finishedAt = 0;
    const r = await receiver({
      onEvent: async () => {
        await sleep(300);
        finishedAt = Date.now();
      },
    });
    const raw = published('sc-slow');
    const answeredAt = async (answer: Promise<Answer>) => ({ ...(await answer), at: Date.now() });
    const answers = await Promise.all([answeredAt(deliver(r.url, raw)), answeredAt(deliver(r.url, raw))]);
    expect(answers.map((a) => a.json['duplicate']).sort()).toEqual([false, true]);
    expect(finishedAt).toBeGreaterThan(0);
    for (const a of answers) expect(a.at).toBeGreaterThanOrEqual(finishedAt);
    expect(r.lines).toHaveLength(1);
  });

  it('a copy kept waiting too long is answered 503, so the sender retries it, and the retry is a duplicate', async () => {
    const r = await receiver({ waitMs: 200, onEvent: () => sleep(1_500) });
    const raw = published('sc-long');
    const answers = await Promise.all([deliver(r.url, raw), deliver(r.url, raw)]);
    answers.sort((a, b) => a.status - b.status);
    expect(answers[0]?.json).toEqual({ received: true, duplicate: false });
    expectError(answers[1] as Answer, 503, 'in_progress');
    expect(answers[1]?.headers['retry-after']).toBe('60');
    expect((await deliver(r.url, raw)).json).toEqual({ received: true, duplicate: true });
    expect(r.lines).toHaveLength(1);
  });

  it('recognises a replay long after the old 4 h 21 min memory, and forgets only after the configured one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vet-scribe-webhooks-'));
    const t0 = Date.parse('2026-03-02T08:00:00Z');
    let clock = t0;
    const r = await receiver({ dataDir: dir, now: () => clock });
    const raw = published('sc-replayed');
    expect((await deliver(r.url, raw)).json['duplicate']).toBe(false);
    clock = t0 + (4 * 60 + 21 + 1) * 60_000;
    expect((await deliver(r.url, raw)).json).toEqual({ received: true, duplicate: true });
    clock = t0 + 6 * DAY;
    expect((await deliver(r.url, raw)).json).toEqual({ received: true, duplicate: true });
    // Past the memory the published payload cannot be told from a new one (README, "Replays").
    clock = t0 + 7 * DAY + 60_000;
    expect((await deliver(r.url, raw)).json).toEqual({ received: true, duplicate: false });
    expect(r.lines).toHaveLength(2);

    let later = t0;
    const short = await receiver({ rememberMs: MIN_REMEMBER_MS, now: () => later });
    expect((await deliver(short.url, raw)).json['duplicate']).toBe(false);
    later = t0 + MIN_REMEMBER_MS - 60_000;
    expect((await deliver(short.url, raw)).json['duplicate']).toBe(true);
    later = t0 + MIN_REMEMBER_MS + 60_000;
    expect((await deliver(short.url, raw)).json['duplicate']).toBe(false);
  });

  it('refuses a delivery dated before its memory (422 stale_delivery), judged by the newest date in it', async () => {
    const now = Date.parse('2026-03-10T12:00:00Z');
    const r = await receiver({ now: () => now });
    const eightDaysAgo = new Date(now - 8 * DAY).toISOString();
    const stale = await deliver(r.url, published('sc-old', 'scribed', { timestamp: eightDaysAgo }));
    expectError(stale, 422, 'stale_delivery');
    expect(stale.json['detail']).toBe(
      `the delivery is dated ${eightDaysAgo} (timestamp), older than the 7 d this receiver remembers deliveries for: refused as a replay`,
    );
    // Unix seconds and milliseconds are dates too.
    expectError(
      await deliver(r.url, published('sc-old-2', 'scribed', { sent_at: Math.floor((now - 10 * DAY) / 1000) })),
      422,
      'stale_delivery',
    );
    expectError(
      await deliver(r.url, published('sc-old-3', 'scribed', { updated_at: now - 9 * DAY })),
      422,
      'stale_delivery',
    );
    // Keyless payloads are checked as well.
    expectError(
      await deliver(r.url, canonicalJsonFromValue({ event_type: 'scribe', created_at: eightDaysAgo })),
      422,
      'stale_delivery',
    );
    // A scribe created long ago whose status changed today is a fresh delivery.
    const fresh = published('sc-fresh', 'scribed', {
      created_at: eightDaysAgo,
      updated_at: new Date(now - 2 * HOUR).toISOString(),
    });
    expect((await deliver(r.url, fresh)).json).toEqual({ received: true, duplicate: false });
    // A retry hours after its first try is not stale, and is known as a repeat.
    expect((await deliver(r.url, fresh)).json).toEqual({ received: true, duplicate: true });
    // Dates it cannot read are not judged.
    expect((await deliver(r.url, published('sc-odd', 'scribed', { timestamp: 'yesterday', sent_at: -5 }))).status).toBe(
      200,
    );
    // The signature is checked first: an unsigned stale body learns nothing.
    expectError(
      await deliver(r.url, published('sc-old-4', 'scribed', { timestamp: eightDaysAgo }), 'wrong-secret'),
      403,
      'invalid_signature',
    );
    expect(r.lines).toHaveLength(2);
  });

  it('keeps its store readable by its owner only: the file, -wal and -shm 0600, a folder it creates 0700', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'vet-scribe-webhooks-')), 'nested', 'store');
    const r = await receiver({ dataDir: dir });
    expect((await deliver(r.url, published('sc-modes'))).status).toBe(200);
    const mode = (path: string) => statSync(path).mode & 0o777;
    const file = join(dir, 'webhook-seen.sqlite');
    expect({ file: mode(file), wal: mode(`${file}-wal`), shm: mode(`${file}-shm`) }).toEqual({
      file: 0o600,
      wal: 0o600,
      shm: 0o600,
    });
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, '..'))).toBe(0o700);

    // A store an older receiver left world-readable is narrowed when opened.
    const old = mkdtempSync(join(tmpdir(), 'vet-scribe-webhooks-'));
    mkdirSync(old, { recursive: true });
    const oldFile = join(old, 'webhook-seen.sqlite');
    writeFileSync(oldFile, '');
    chmodSync(oldFile, 0o644);
    const reopened = await receiver({ dataDir: old });
    expect((await deliver(reopened.url, published('sc-modes'))).status).toBe(200);
    expect([mode(oldFile), mode(`${oldFile}-wal`), mode(`${oldFile}-shm`)]).toEqual([0o600, 0o600, 0o600]);
  });
});

describe('webhook receiver seen store', () => {
  it('remembers a delivery for a week by default, far beyond the retries, and forgets it after, in the file and in memory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vet-scribe-webhooks-'));
    expect(RETRY_WINDOW_MS).toBe(201 * 60_000);
    expect(MIN_REMEMBER_MS).toBeGreaterThan(RETRY_WINDOW_MS);
    expect(DEFAULT_REMEMBER_MS).toBe(7 * 24 * 3_600_000);
    const t0 = 1_750_000_000_000;
    const store = new SqliteSeenStore(dir, { now: t0 });
    store.add('old', t0);
    store.add('young', t0 + DEFAULT_REMEMBER_MS - 1);
    // The last retry can come as late as the window's end: still a repeat then, and long after.
    expect(store.has('old', t0 + RETRY_WINDOW_MS)).toBe(true);
    expect(await store.claim('old', t0 + 3 * 24 * 3_600_000)).toBeNull();
    expect(store.has('old', t0 + DEFAULT_REMEMBER_MS + 1)).toBe(false);
    await store.close();
    // Reopening later drops what is past keeping from the file itself.
    const reopened = new SqliteSeenStore(dir, { now: t0 + DEFAULT_REMEMBER_MS + 1 });
    expect(reopened.size()).toBe(1);
    expect(reopened.has('young', t0 + DEFAULT_REMEMBER_MS + 1)).toBe(true);
    await reopened.close();

    const memory = new MemorySeenStore();
    memory.add('old', t0);
    expect(memory.has('old', t0 + RETRY_WINDOW_MS)).toBe(true);
    expect(memory.has('old', t0 + DEFAULT_REMEMBER_MS + 1)).toBe(false);
    // A shorter memory is honoured, by both.
    const brief = new MemorySeenStore(MIN_REMEMBER_MS);
    brief.add('k', t0);
    expect(brief.has('k', t0 + MIN_REMEMBER_MS + 1)).toBe(false);
  });

  it("the command leaves out only node:sqlite's ExperimentalWarning", () => {
    const script = [
      `import { quietSqliteWarning } from ${JSON.stringify(join(ROOT, 'src/webhook-receiver/quiet-sqlite-warning.ts'))};`,
      'quietSqliteWarning();',
      "process.emitWarning('SQLite is an experimental feature and might change at any time', 'ExperimentalWarning');",
      "process.emitWarning('something else is experimental', 'ExperimentalWarning');",
    ].join('\n');
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(run.status).toBe(0);
    expect(run.stderr).not.toMatch(/SQLite/);
    expect(run.stderr).toMatch(/ExperimentalWarning: something else is experimental/);
  });
});

describe('webhook receiver CLI', () => {
  it('prints its URL, then one line per accepted event, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, ['src/webhook-receiver/cli.ts', '--port', '0', '--secret', 's'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    closers.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    });
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const first = await lines.next();
    const { url } = JSON.parse(String(first.value)) as { url: string };
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);

    const raw = JSON.stringify({ ...scribeEvent('evt-cli'), owner: 'Müller' });
    const answer = await deliver(url, raw, 's');
    expect(answer.json).toEqual({ received: true, duplicate: false });
    const line = JSON.parse(String((await lines.next()).value)) as Record<string, unknown>;
    expect(line).toMatchObject({
      event_id: 'evt-cli',
      event_type: 'scribe',
      payload: { owner: 'Müller', status: 'completed' },
    });

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('without a secret, exits 2 and says why', () => {
    const env = { ...process.env };
    delete env['WEBHOOK_SECRET'];
    const run = spawnSync(process.execPath, ['src/webhook-receiver/cli.ts', '--port', '0'], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/no webhook secret: pass --secret or set WEBHOOK_SECRET/);
    expect(run.stdout).toBe('');
  });

  it('keeps what it handled in WEBHOOK_DATA_DIR or --data-dir across a restart of the command; without either, a restart forgets', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vet-scribe-webhooks-'));
    const raw = canonicalJsonFromValue({
      public_id: 'sc-cli',
      recording_session_public_id: 'rs',
      status: 'scribing',
      event_type: 'scribe',
    });
    const run = async (args: string[], dataDirEnv: string | null) => {
      const env = { ...process.env };
      delete env['WEBHOOK_DATA_DIR'];
      if (dataDirEnv !== null) env['WEBHOOK_DATA_DIR'] = dataDirEnv;
      const child = spawn(process.execPath, ['src/webhook-receiver/cli.ts', '--port', '0', '--secret', 's', ...args], {
        cwd: ROOT,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      closers.push(async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        await exited;
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
      const started = JSON.parse(String((await lines.next()).value)) as { url: string; seen: string };
      const answer = await deliver(started.url, raw, 's');
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(stderr).not.toMatch(/ExperimentalWarning/);
      return { seen: started.seen, duplicate: answer.json['duplicate'], stderr };
    };
    const file = join(dir, 'webhook-seen.sqlite');
    const first = await run([], dir);
    expect(first).toMatchObject({ seen: file, duplicate: false });
    expect(first.stderr).toBe(`webhook-receiver: handled deliveries are kept in ${file}\n`);
    expect(await run(['--data-dir', dir], null)).toMatchObject({ seen: file, duplicate: true });
    expect(await run([], dir)).toMatchObject({ seen: file, duplicate: true });

    const memory = await run([], null);
    expect(memory).toMatchObject({ seen: expect.stringMatching(/^memory/), duplicate: false });
    expect(memory.stderr).toMatch(
      /kept in memory only, so a retry after a restart is handled again; pass --data-dir or set WEBHOOK_DATA_DIR/,
    );
    expect(await run([], null)).toMatchObject({ duplicate: false });
  });

  it('a data folder it cannot use stops it at once, naming the folder', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'vet-scribe-webhooks-')), 'plain-file');
    writeFileSync(file, 'not a folder');
    const bad = join(file, 'store');
    const run = spawnSync(
      process.execPath,
      ['src/webhook-receiver/cli.ts', '--port', '0', '--secret', 's', '--data-dir', bad],
      { cwd: ROOT, encoding: 'utf8', timeout: 10_000 },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`webhook-receiver: cannot keep deliveries in the folder ${bad}:`);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).toBe('');
  });

  it('refuses a memory shorter than the retries, an unreadable one, and a handler that is not a function (exit 2)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vet-scribe-webhooks-'));
    writeFileSync(join(dir, 'not-a-handler.mjs'), 'export const handle = () => {};');
    const run = (args: string[], env: Record<string, string> = {}) =>
      spawnSync(process.execPath, ['src/webhook-receiver/cli.ts', '--port', '0', '--secret', 's', ...args], {
        cwd: ROOT,
        env: { ...process.env, ...env },
        encoding: 'utf8',
        timeout: 10_000,
      });
    const short = run(['--remember-for', '1h']);
    expect(short.status).toBe(2);
    expect(short.stderr).toMatch(/--remember-for must be at least 4 h 21 min, the sender's retries and a margin/);
    expect(run([], { WEBHOOK_REMEMBER_FOR: '3h' }).status).toBe(2);
    const unreadable = run(['--remember-for', 'a week']);
    expect(unreadable.status).toBe(2);
    expect(unreadable.stderr).toMatch(/a number and a unit \(s, m, h, d\), such as 7d or 36h, not "a week"/);
    const handler = run(['--handler', join(dir, 'not-a-handler.mjs')]);
    expect(handler.status).toBe(2);
    expect(handler.stderr).toMatch(/has no default export that is a function/);
  });

  it('takes the secret from WEBHOOK_SECRET', async () => {
    const child = spawn(process.execPath, ['src/webhook-receiver/cli.ts', '--port', '0'], {
      cwd: ROOT,
      env: { ...process.env, WEBHOOK_SECRET: 'from-env' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    closers.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    });
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const { url } = JSON.parse(String((await lines.next()).value)) as { url: string };
    expect((await deliver(url, '{"event_id":"e"}', 'from-env')).status).toBe(200);
    expectError(await deliver(url, '{"event_id":"f"}', 's'), 403, 'invalid_signature');
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });
});
