// The reference receiver over real loopback HTTP: its answers, repeats known by event id or by
// (public_id, status) and remembered in a node:sqlite file across restarts, the printed lines and
// requests that are not HTTP. Copies arriving together are in key-queue.test.ts, the memory and
// replays in seen-store.test.ts and stale-delivery.test.ts, the store's file modes in
// private-files.test.ts, the command in cli.test.ts, receivers sharing PostgreSQL in postgres.test.ts.
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalJsonFromValue, signWebhook } from '../../src/shared/webhook/index.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../src/webhook-receiver/receiver.ts';
import { scribeEvent, vectors } from '../support/webhook-vectors.ts';
import { closeAfterTest, deliver, expectError, post, published, receiver, SECRET } from './support.ts';

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
    expect((await deliver(r.url, published('sc-1', 'requested'))).json).toEqual({ received: true, duplicate: false });
    expect((await deliver(r.url, published('sc-1', 'requested'))).json).toEqual({ received: true, duplicate: true });
    expect((await deliver(r.url, published('sc-1', 'scribing'))).json).toEqual({ received: true, duplicate: false });
    const scribed = published('sc-1', 'scribed', {
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
    const raw = published('sc-9');
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
    const raw = published('sc-5');
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
    closeAfterTest(async () => other.close());
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
    const raw = published('sc-locked');
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
