// The clinic relay over real loopback HTTP, against the sandbox (one for the file): its GET
// /users/me says who a subscriber is, and its signed deliveries reach the relay at the address
// registered with PUT /webhook/update. Deliveries the test signs itself (the shared signing code)
// make the cases the sandbox does not (a bad signature, a repeat, many in a row). The relay on
// PostgreSQL across two processes is in relay-postgres.test.ts.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OTHER_ACCOUNT, startSandbox, type Sandbox } from '../../src/sandbox/index.ts';
import { startWebhookReceiver } from '../../src/webhook-receiver/receiver.ts';
import { call, fakeWebm, signIn, uploadRecording } from '../support/http.ts';
import { deliver, expectError, post, published, receiver, SECRET, until } from './support.ts';
import { subscribe } from './subscriber.ts';

// Short enough that the lapse of a token is seen within a test; every test signs in afresh.
const ACCESS_TTL_SECONDS = 6;

let sandbox: Sandbox;
let organization: string;
beforeAll(async () => {
  sandbox = await startSandbox({ scribeSeconds: 0.2, accessTtlSeconds: ACCESS_TTL_SECONDS, timeScale: 0.001 });
  organization = (await signIn(sandbox)).user.organization_id;
}, 30_000);
afterAll(async () => {
  await sandbox?.close();
});

/** A relay kept in memory unless told, serving the demo clinic. */
function relay(extra: Parameters<typeof receiver>[0] = {}) {
  return receiver({ relay: { scribeUrl: sandbox.urls.scribe_url, organization, heartbeatMs: 200 }, ...extra });
}

async function scribeOnce(token: string): Promise<{ scribeId: string; recordingSessionId: string }> {
  const { recordingSessionId } = await uploadRecording(sandbox, token, fakeWebm());
  const t = await call<{ items: { public_id: string }[] }>(
    'GET',
    `${sandbox.urls.scribe_url}/templates/all?page=1&limit=50`,
    {
      token,
    },
  );
  const r = await call<{ public_id: string }>('POST', `${sandbox.urls.scribe_url}/scribe/request`, {
    token,
    body: { recording_session_public_id: recordingSessionId, template_public_id: t.json.items[0]?.public_id },
  });
  expect(r.status).toBe(200);
  return { scribeId: r.json.public_id, recordingSessionId };
}

describe('clinic relay', () => {
  it("passes the sandbox's deliveries to every subscribed PC of the clinic, ids and status only, in order", async () => {
    const r = await relay();
    const me = await signIn(sandbox);
    const put = await call('PUT', `${sandbox.urls.scribe_url}/webhook/update`, {
      token: me.access,
      body: { event_type: 'scribe', webhook_url: r.url, auth_token: SECRET },
    });
    expect(put.status).toBe(200);
    const pcA = await subscribe(r.url, me.access);
    const pcB = await subscribe(r.url, me.access);
    expect(pcA.status).toBe(200);
    expect(pcA.events[0]).toEqual({ id: null, event: 'ready', data: { organization, last_id: 0 } });
    const { scribeId, recordingSessionId } = await scribeOnce(me.access);
    await pcA.waitFor(3);
    await pcB.waitFor(3);
    const expected = ['requested', 'scribing', 'scribed'].map((status, i) => ({
      id: i + 1,
      public_id: scribeId,
      recording_session_public_id: recordingSessionId,
      status,
      at: expect.any(String),
    }));
    expect(pcA.scribe()).toEqual(expected);
    expect(pcB.scribe()).toEqual(expected);
    expect(pcA.events.filter((e) => e.event === 'scribe').map((e) => e.id)).toEqual(['1', '2', '3']);
    // The note itself (categories_output, html_output of the last delivery) is not passed on,
    // nor printed: the relay's lines carry what it relays.
    expect(JSON.stringify(pcA.events)).not.toMatch(/categories_output|html_output|Example note/);
    expect(r.lines).toHaveLength(3);
    expect(r.lines.join('\n')).not.toMatch(/categories_output|html_output|Example note/);
    expect(JSON.parse(r.lines[2] ?? '')).toMatchObject({
      delivery_key: `scribe:${scribeId}:scribed`,
      payload: { public_id: scribeId, recording_session_public_id: recordingSessionId, status: 'scribed' },
    });
    const links = await call('GET', `${r.url}links?since=1`, { token: me.access, apiVersion: null });
    expect(links.json).toEqual({ links: expected.slice(1), last_id: 3 });
    const health = await call('GET', `${r.url}health`, { apiVersion: null });
    expect(health.json).toEqual({ ok: true, relay: true, organization });
  });

  it('refuses no token and a token the service refuses (401), another clinic (403), and never sends that clinic an event', async () => {
    const r = await relay();
    for (const token of [null, 'not-a-token']) {
      const refused = await subscribe(r.url, token);
      expect(refused.status).toBe(401);
      expect(refused.events[0]?.data).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
    }
    const other = await signIn(sandbox, OTHER_ACCOUNT);
    const foreign = await subscribe(r.url, other.access);
    expect(foreign.status).toBe(403);
    expect(foreign.events[0]?.data).toEqual({ error: { code: 'forbidden', message: expect.any(String) } });
    const links = await call('GET', `${r.url}links?since=0`, { token: other.access, apiVersion: null });
    expect(links.status).toBe(403);
    // A relay set up for the other clinic refuses this one's vet, and passes nothing on to it.
    const theirs = await receiver({
      relay: { scribeUrl: sandbox.urls.scribe_url, organization: other.user.organization_id },
    });
    const me = await signIn(sandbox);
    expect((await subscribe(theirs.url, me.access)).status).toBe(403);
    expect((await deliver(r.url, published('s-1'))).status).toBe(200);
    expect(theirs.events).toHaveLength(0);
  });

  it('without --organization, refuses subscribers (503) until a delivery names the organization', async () => {
    const r = await receiver({ relay: { scribeUrl: sandbox.urls.scribe_url } });
    const me = await signIn(sandbox);
    const early = await subscribe(r.url, me.access);
    expect(early.status).toBe(503);
    expect(early.events[0]?.data).toMatchObject({ error: { code: 'organization_unknown' } });
    expect((await deliver(r.url, published('s-1', 'requested', { organization_public_id: organization }))).status).toBe(
      200,
    );
    expect(r.relay?.organization).toBe(organization);
    expect((await subscribe(r.url, me.access)).status).toBe(200);
  });

  it('resumes after Last-Event-ID with no gap (header or query), then goes on live; a bad id is a 400', async () => {
    const r = await relay();
    for (const [id, status] of [
      ['a', 'requested'],
      ['a', 'scribing'],
      ['b', 'requested'],
    ] as const)
      expect((await deliver(r.url, published(id, status))).status).toBe(200);
    const me = await signIn(sandbox);
    const resumed = await subscribe(r.url, me.access, { 'last-event-id': '1' });
    expect(resumed.events[0]?.data).toEqual({ organization, last_id: 3 });
    const byQuery = await subscribe(r.url, me.access, {}, 'events?lastEventId=2');
    const fresh = await subscribe(r.url, me.access);
    await deliver(r.url, published('a', 'scribed'));
    await resumed.waitFor(3);
    await byQuery.waitFor(2);
    await fresh.waitFor(1);
    expect(resumed.scribe().map((e) => e.id)).toEqual([2, 3, 4]);
    expect(byQuery.scribe().map((e) => e.id)).toEqual([3, 4]);
    expect(fresh.scribe().map((e) => [e.id, e.public_id, e.status])).toEqual([[4, 'a', 'scribed']]);
    const bad = await subscribe(r.url, me.access, { 'last-event-id': 'yesterday' });
    expect(bad.status).toBe(400);
    expect(bad.events[0]?.data).toEqual({
      error: { code: 'bad_request', message: expect.stringContaining('Last-Event-ID') },
    });
  });

  it('after a restart in memory, a PC resuming from an id of the earlier run is sent every event of the new one', async () => {
    const r = await relay();
    await deliver(r.url, published('n', 'requested'));
    const me = await signIn(sandbox);
    const pc = await subscribe(r.url, me.access, { 'last-event-id': '40' });
    expect(pc.events[0]?.data).toEqual({ organization, last_id: 1 });
    await deliver(r.url, published('n', 'scribing'));
    await pc.waitFor(2);
    expect(pc.scribe().map((e) => [e.id, e.status])).toEqual([
      [1, 'requested'],
      [2, 'scribing'],
    ]);
  });

  it('relays a delivery once: a repeat, a bad signature and a body too large are not relayed', async () => {
    const r = await relay({ maxBodyBytes: 2048 });
    const me = await signIn(sandbox);
    const pc = await subscribe(r.url, me.access);
    expect((await deliver(r.url, published('a'))).json).toEqual({ received: true, duplicate: false });
    expect((await deliver(r.url, published('a'))).json).toEqual({ received: true, duplicate: true });
    expectError(await deliver(r.url, published('b'), 'another-secret'), 403, 'invalid_signature');
    expectError(
      await deliver(r.url, published('c', 'scribed', { html_output: 'x'.repeat(4096) })),
      413,
      'payload_too_large',
    );
    // An event that is not `scribe` is handled as before but is not a relay event.
    expect((await deliver(r.url, '{"event_id":"e-1","event_type":"other"}')).status).toBe(200);
    await deliver(r.url, published('d'));
    await pc.waitFor(2);
    expect(pc.scribe().map((e) => e.public_id)).toEqual(['a', 'd']);
  });

  it('says it is alive with keep-alive comments, and ends the stream with token-expired when the token lapses', async () => {
    const r = await relay();
    const me = await signIn(sandbox);
    const pc = await subscribe(r.url, me.access);
    await until(() => pc.comments >= 2, 'two keep-alive comments');
    await until(() => pc.ended, 'the stream to end', (ACCESS_TTL_SECONDS + 10) * 1000);
    expect(pc.events.at(-1)).toEqual({ id: null, event: 'token-expired', data: { message: expect.any(String) } });
    // The lapsed token is refused from then on; a refreshed one is let in.
    expect((await subscribe(r.url, me.access)).status).toBe(401);
    expect((await subscribe(r.url, (await signIn(sandbox)).access)).status).toBe(200);
  }, 30_000);

  it('keeps its events in the node:sqlite file with --data-dir: after a restart ids go on and Last-Event-ID still works', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vet-scribe-relay-'));
    const first = await startWebhookReceiver({
      port: 0,
      secret: SECRET,
      out: () => {},
      dataDir,
      relay: { scribeUrl: sandbox.urls.scribe_url, organization },
    });
    await deliver(first.url, published('a', 'requested'));
    await deliver(first.url, published('a', 'scribing'));
    await first.close();
    const again = await relay({ dataDir });
    const me = await signIn(sandbox);
    const pc = await subscribe(again.url, me.access, { 'last-event-id': '1' });
    expect(pc.events[0]?.data).toEqual({ organization, last_id: 2 });
    await deliver(again.url, published('a', 'scribed'));
    await pc.waitFor(2);
    expect(pc.scribe().map((e) => [e.id, e.status])).toEqual([
      [2, 'scribing'],
      [3, 'scribed'],
    ]);
    expect((await deliver(again.url, published('a', 'requested'))).json).toMatchObject({ duplicate: true });
  });

  it('asks the service once per token while the answer is kept, and answers 503 when the service cannot be asked', async () => {
    const r = await relay();
    const asked = () =>
      Object.entries(sandbox.stats().byRoute)
        .filter(([route]) => route.startsWith('GET ') && route.endsWith('/users/me'))
        .reduce((n, [, count]) => n + count, 0);
    const me = await signIn(sandbox);
    const before = asked();
    await subscribe(r.url, me.access);
    await subscribe(r.url, me.access);
    expect((await call('GET', `${r.url}links?since=0`, { token: me.access, apiVersion: null })).status).toBe(200);
    expect(asked() - before).toBe(1);
    // A second token of the same vet is asked about on its own.
    await subscribe(r.url, (await signIn(sandbox)).access);
    expect(asked() - before).toBe(2);
    const away = await receiver({ relay: { scribeUrl: 'http://127.0.0.1:9', organization } });
    const down = await subscribe(away.url, me.access);
    expect(down.status).toBe(503);
    expect(down.events[0]?.data).toMatchObject({ error: { code: 'service_unavailable' } });
  });

  it("passes an edit announced by one PC (who, where, when; never the text) to the clinic's other PCs, not to another clinic's, and keeps the last per note for a PC that subscribes later", async () => {
    const r = await relay();
    const me = await signIn(sandbox);
    const other = await signIn(sandbox, OTHER_ACCOUNT);
    const theirs = await receiver({
      relay: { scribeUrl: sandbox.urls.scribe_url, organization: other.user.organization_id, heartbeatMs: 200 },
    });
    const pcB = await subscribe(r.url, me.access);
    const foreign = await subscribe(theirs.url, other.access);
    const edit = {
      public_id: 's-edited',
      room: 'Exam room 1',
      editor: 'Dr. Demo Vet',
      edited_at: '2026-11-28T10:42:00.000Z',
    };
    const announced = await call('POST', `${r.url}edits`, { token: me.access, apiVersion: null, body: edit });
    expect(announced.status).toBe(202);
    await until(() => pcB.events.some((e) => e.event === 'edit'), 'the edit at PC B');
    expect(pcB.events.filter((e) => e.event === 'edit')).toEqual([{ id: null, event: 'edit', data: edit }]);
    // An edit is not a delivery: it takes no id, so Last-Event-ID and GET /links go on as before.
    expect(pcB.scribe()).toEqual([]);

    // Another clinic's vet can neither announce here nor hear it; their own relay heard nothing.
    const refused = await call('POST', `${r.url}edits`, { token: other.access, apiVersion: null, body: edit });
    expect(refused.status).toBe(403);
    expect((await call('POST', `${r.url}edits`, { apiVersion: null, body: edit })).status).toBe(401);
    expect(foreign.events.filter((e) => e.event === 'edit')).toEqual([]);

    // Each field is checked, and nothing else is taken (a note's text has no place in it).
    for (const [bad, words] of [
      [{ ...edit, note: 'Meloxicam 0.1 mg/kg' }, /note/],
      [{ ...edit, room: '' }, /room/],
      [{ ...edit, editor: 'x'.repeat(500) }, /editor/],
      [{ ...edit, edited_at: 'yesterday' }, /edited_at/],
      [{ ...edit, public_id: 7 }, /public_id/],
    ] as const) {
      const answer = await call<{ error: { code: string; message: string } }>('POST', `${r.url}edits`, {
        token: me.access,
        apiVersion: null,
        body: bad,
      });
      expect(answer.status).toBe(400);
      expect(answer.json.error.code).toBe('bad_request');
      expect(answer.json.error.message).toMatch(words);
    }
    const notJson = await call('POST', `${r.url}edits`, { token: me.access, apiVersion: null, rawBody: '{' });
    expect(notJson.status).toBe(400);
    expect((await call('GET', `${r.url}edits`, { token: me.access, apiVersion: null })).status).toBe(405);

    // A later edit of the same note replaces the earlier; a PC subscribing afterwards hears the last one only.
    const later = { ...edit, room: 'Exam room 2', edited_at: '2026-11-28T10:50:00.000Z' };
    expect((await call('POST', `${r.url}edits`, { token: me.access, apiVersion: null, body: later })).status).toBe(202);
    const pcC = await subscribe(r.url, me.access);
    await until(() => pcC.events.some((e) => e.event === 'edit'), 'the kept edit at PC C');
    expect(pcC.events.filter((e) => e.event === 'edit').map((e) => e.data)).toEqual([later]);
  });

  it('answers GET /health without a token, relay on or off', async () => {
    const off = await receiver();
    const a = await post(`${off.url}health`, undefined, {}, 'GET');
    expect(a.json).toEqual({ ok: true, relay: false, organization: null });
  });
});
