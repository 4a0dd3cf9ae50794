// How every call to the service travels (src/main/core/service/transport.ts): the API version
// header on every call but the upload's PUT, a time-out on every JSON call (also when an answer
// stalls or trickles in), and a clear error naming the operation for an answer of the wrong shape.
// A real sandbox over loopback HTTP; a tiny node:http server of the test's own where the sandbox
// cannot misbehave as needed.
import { readFileSync, rmSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { RecordingStore } from '../../../../src/main/core/recordings/index.ts';
import { API_VERSION, ServiceClient, type ServiceUrls } from '../../../../src/main/core/service/client.ts';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.ts';
import { forward, serversEachTest } from '../../../support/http.ts';
import { failure, makeRecording, tempDir } from '../../../support/core.ts';

const sandboxes: Sandbox[] = [];
const dirs: string[] = [];
afterEach(async () => {
  while (sandboxes.length) await sandboxes.pop()?.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A stand-in of the test's own answering with `handler`: its origin. */
const listen = serversEachTest();

async function sandbox(options: Parameters<typeof startSandbox>[0] = {}): Promise<Sandbox> {
  const s = await startSandbox(options);
  sandboxes.push(s);
  return s;
}

/** POST /recording-sessions/create for Bella's consult, as the tests of every operation ask it. */
const createBellasSession = (client: ServiceClient) =>
  client.createRecordingSession('t', { patientName: 'Bella', description: '', recordingSessionDate: '2026-11-20' });

function sandboxUrls(origin: string): ServiceUrls {
  return { agentsUrl: `${origin}/agents`, scribeUrl: `${origin}/scribe`, agentsApiUrl: `${origin}/agents-api` };
}

interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** A JSON request body as sent. */
  json?: unknown;
}

/**
 * A recording proxy in front of a real sandbox: it notes each request's method, path and
 * headers, forwards it as it came, and answers what the sandbox answered, with the sandbox's
 * origin in JSON answers rewritten to its own, so the presigned upload URL leads back through it.
 */
async function recordingProxy(target: Sandbox): Promise<{ origin: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  let origin = '';
  origin = await listen((req, res) => {
    const entry: Seen = {
      method: req.method ?? '',
      path: (req.url ?? '').split('?')[0] ?? '',
      headers: { ...req.headers },
    };
    seen.push(entry);
    if (String(req.headers['content-type'] ?? '').includes('json')) {
      const sent: Buffer[] = [];
      req.on('data', (c: Buffer) => sent.push(c));
      req.on('end', () => {
        entry.json = JSON.parse(Buffer.concat(sent).toString('utf8')) as unknown;
      });
    }
    forward(req, res, target.origin, (body, answer) =>
      String(answer.headers['content-type'] ?? '').includes('json')
        ? body.toString('utf8').split(target.origin).join(origin)
        : body,
    );
  });
  return { origin, seen };
}

describe('X-API-Version', () => {
  it('is sent on every call to the service (every operation but one, and the published extras), with the published bodies; the PUT to the presigned storage address goes without it', async () => {
    const s = await sandbox({ scribeSeconds: 0 });
    const proxy = await recordingProxy(s);
    const client = new ServiceClient({ urls: () => sandboxUrls(proxy.origin), timeoutMs: 5000 });
    const dir = tempDir();
    dirs.push(dir);
    const store = new RecordingStore({ dir });
    const recording = await makeRecording(store);

    const signedIn = await client.signIn(s.demo.email, s.demo.password); // POST /auth/sign-in
    await client.signIn(s.demo.email, s.demo.password, { viaScribeLogin: true }); // POST /auth/login
    const refreshed = await client.refresh(signedIn.accessToken, signedIn.refreshToken ?? ''); // POST /auth/refresh-token
    const token = refreshed.accessToken;
    const session = await client.createRecordingSession(token, {
      patientName: 'Bella',
      description: 'Vomiting',
      recordingSessionDate: '2026-11-20',
    }); // POST /recording-sessions/create
    const templates = await client.templates(token, 1, 50); // GET /templates/all
    const upload = await client.uploadUrl(token, { recordingSessionId: session.id }); // POST /audio/generate-upload-url
    expect(upload.uploadUrl.startsWith(proxy.origin)).toBe(true);
    await client.upload(upload.uploadUrl, store.audioPath(recording), null); // the PUT to the presigned address, as curl -T sends it
    const requested = await client.requestScribe(token, {
      recordingSessionId: session.id,
      templateId: templates.items[0]?.id ?? '',
      idempotencyKey: 'rules-x-api-version',
    }); // POST /scribe/request
    await client.getScribe(token, requested.id); // GET /scribe/get/{id}
    await client.ddx(token, 'Dog, 4 years, vomiting and diarrhoea for two days after eating from the bin'); // POST /ddx_agent_v2
    await client.treatmentPlan(token, 'Dog with acute gastroenteritis, how to treat?'); // POST /treatment_plan_agent_v2
    await client.updateNotificationEmail(token, 'alerts@clinic.test'); // PATCH /organizations/update-email-for-notification
    await client.setWebhookStatus(token, {
      eventType: 'scribe',
      active: true,
      organizationId: signedIn.user?.organizationId ?? '',
    }); // PATCH /webhook/status
    // The published extras the app uses (docs/service.md), numbered on from 14 here.
    expect(await client.me(token)).toEqual(signedIn.user); // 14
    expect((await client.organization(token)).emailNotification).toBe('alerts@clinic.test'); // 15
    await client.registerWebhook(token, { url: 'https://clinic.example/hooks', secret: 'a-secret-of-at-least-16' }); // 16
    expect((await client.medication(token, 'Maropitant for a vomiting dog')).medications[0]?.label).toBe('Maropitant'); // 17

    const route = (r: Seen) =>
      `${r.method} ${r.path.replace(/\/storage\/.+$/, '/storage/:key').replace(/\/scribe\/get\/.+$/, '/scribe/get/:id')}`;
    const rows: Record<string, number> = {
      'POST /agents/auth/sign-in': 1,
      'POST /scribe/auth/refresh-token': 2,
      'POST /scribe/auth/login': 3,
      'POST /scribe/recording-sessions/create': 4,
      'GET /scribe/templates/all': 5,
      'POST /scribe/audio/generate-upload-url': 6,
      'PUT /storage/:key': 7,
      'POST /scribe/scribe/request': 8,
      'GET /scribe/scribe/get/:id': 9,
      'POST /agents-api/ddx_agent_v2': 10,
      'POST /agents-api/treatment_plan_agent_v2': 11,
      'PATCH /scribe/organizations/update-email-for-notification': 12,
      'PATCH /scribe/webhook/status': 13,
      'GET /scribe/users/me': 14,
      'GET /scribe/organizations/get': 15,
      'PUT /scribe/webhook/update': 16,
      'POST /agents-api/medication_agent_v2': 17,
    };
    // Every row went through the proxy, once.
    expect(proxy.seen.map((r) => rows[route(r)] ?? route(r)).sort((a, b) => Number(a) - Number(b))).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
    ]);
    const versions = Object.fromEntries(proxy.seen.map((r) => [rows[route(r)], r.headers['x-api-version']]));
    expect(API_VERSION).toBe('v1');
    for (const row of [1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17])
      expect(versions[row], `row ${row}`).toBe('v1');
    // The extras' published bodies.
    const body = (n: number) => proxy.seen.find((r) => rows[route(r)] === n)?.json;
    expect(body(6)).toEqual({ recording_session_public_id: session.id });
    expect(body(8)).toEqual({ recording_session_public_id: session.id, template_public_id: templates.items[0]?.id });
    expect(body(16)).toEqual({
      event_type: 'scribe',
      webhook_url: 'https://clinic.example/hooks',
      auth_token: 'a-secret-of-at-least-16',
    });
    expect(body(17)).toEqual({ input: 'Maropitant for a vomiting dog' });
    expect(body(4)).toEqual({ patient_name: 'Bella', description: 'Vomiting', session_date: '2026-11-20' });
    // The PUT to the presigned address carries no X-API-Version: the presigned URL belongs to the storage host,
    // not the API (an object store may even refuse headers that were not part of what it
    // signed). Like `curl -T` it sends the length and no Content-Type, and nothing of the API's.
    const put = proxy.seen.find((r) => rows[route(r)] === 7);
    expect(put?.headers['x-api-version']).toBeUndefined();
    expect(put?.headers['authorization']).toBeUndefined();
    expect(put?.headers['content-type']).toBeUndefined();
    expect(put?.headers['content-length']).toBe(String(readFileSync(store.audioPath(recording)).length));
    // And the sandbox, behind the proxy, got all of it (the upload included).
    expect(s.stats().uploads).toBe(1);
  });
});

describe('time-outs', () => {
  it('every JSON call gives up with kind "timeout" when the service accepts the request and never answers', async () => {
    const arrived: string[] = [];
    // Reads the request, then says nothing, ever.
    const origin = await listen((req) => {
      arrived.push(`${req.method} ${(req.url ?? '').split('?')[0]}`);
      req.resume();
    });
    const timeoutMs = 300;
    const client = new ServiceClient({ urls: () => sandboxUrls(origin), timeoutMs });
    const calls: [string, () => Promise<unknown>][] = [
      ['sign-in', () => client.signIn('vet@clinic.test', 'pw')],
      ['refresh-token', () => client.refresh('a.b.c', 'r.t.s')],
      ['login', () => client.signIn('vet@clinic.test', 'pw', { viaScribeLogin: true })],
      ['recording-session-create', () => createBellasSession(client)],
      ['templates', () => client.templates('t')],
      ['upload-url', () => client.uploadUrl('t', { recordingSessionId: 's' })],
      [
        'scribe-request',
        () => client.requestScribe('t', { recordingSessionId: 's', templateId: 'soap', idempotencyKey: 'i' }),
      ],
      ['scribe-get', () => client.getScribe('t', 'id')],
      ['ddx-agent', () => client.ddx('t', 'Dog, vomiting')],
      ['treatment-plan-agent', () => client.treatmentPlan('t', 'Dog, vomiting')],
      ['notification-email', () => client.updateNotificationEmail('t', 'a@clinic.test')],
      [
        'webhook-status',
        () => client.setWebhookStatus('t', { eventType: 'scribe', active: true, organizationId: 'o' }),
      ],
    ];
    const started = performance.now();
    const results = await Promise.all(
      calls.map(async ([operation, run]) => {
        const e = await failure(run());
        return { operation, e, after: performance.now() - started };
      }),
    );
    for (const { operation, e, after } of results) {
      expect([e.kind, e.operation], operation).toEqual(['timeout', operation]);
      expect(e.message).toBe(`The service did not answer ${operation} in time.`);
      expect(e.transient).toBe(true);
      // The client's own short time-out, not some default of the HTTP stack (undici's is 300 s).
      expect(after, operation).toBeGreaterThanOrEqual(timeoutMs - 20);
      expect(after, operation).toBeLessThan(timeoutMs + 2500);
    }
    // The server did accept every one of them: the time-out is about the answer, not the connection.
    expect(arrived).toHaveLength(calls.length);
  }, 10_000);

  it('a body that starts and then stalls is a time-out too', async () => {
    const origin = await listen((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"message":"Templates","data":{"items":[');
    });
    const client = new ServiceClient({ urls: () => sandboxUrls(origin), timeoutMs: 300 });
    const e = await failure(client.templates('t'));
    expect([e.kind, e.operation]).toEqual(['timeout', 'templates']);
  }, 10_000);

  // undici's headersTimeout/bodyTimeout bound silence, not the call: a service or proxy that
  // sends a byte now and then (here a space every 100 ms, which JSON allows) would hold a call
  // open far past timeoutMs. The client's own deadline bounds the whole call.
  it('a call whose answer trickles in past the time-out is given up too (an overall deadline)', async () => {
    const origin = await listen((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      const drip = setInterval(() => res.write(' '), 100);
      setTimeout(() => {
        clearInterval(drip);
        res.end(JSON.stringify({ message: 'Templates', data: { items: [], page: 1, limit: 50, total: 0 } }));
      }, 2500);
      res.on('close', () => clearInterval(drip));
    });
    const client = new ServiceClient({ urls: () => sandboxUrls(origin), timeoutMs: 300 });
    const started = performance.now();
    const e = await failure(client.templates('t'));
    expect([e.kind, e.operation]).toEqual(['timeout', 'templates']);
    expect(performance.now() - started).toBeLessThan(1500);
  }, 10_000);
});

describe('answers of the wrong shape', () => {
  // A stand-in service that answers 200 with whatever the test gives per path.
  async function answering(bodies: Record<string, string>): Promise<ServiceClient> {
    const origin = await listen((req, res) => {
      req.resume();
      const path = (req.url ?? '').split('?')[0] ?? '';
      res.writeHead(200, { 'content-type': 'application/json' }).end(bodies[path] ?? '{}');
    });
    return new ServiceClient({ urls: () => sandboxUrls(origin), timeoutMs: 2000 });
  }

  it('a body that is not JSON is invalid_answer naming the operation', async () => {
    const client = await answering({
      '/agents/auth/sign-in': '{"access_token": "eyJ', // cut short
      '/scribe/templates/all': '<html><body>502 Bad Gateway</body></html>',
      '/agents-api/ddx_agent_v2': 'OK',
    });
    const cases: [string, () => Promise<unknown>][] = [
      ['sign-in', () => client.signIn('vet@clinic.test', 'pw')],
      ['templates', () => client.templates('t')],
      ['ddx-agent', () => client.ddx('t', 'Dog, vomiting')],
    ];
    for (const [operation, call] of cases) {
      const e = await failure(call());
      expect([e.kind, e.operation, e.status], operation).toEqual(['invalid_answer', operation, 200]);
      expect(e.message).toBe(`Unexpected answer from the service for ${operation}: the body is not JSON.`);
      // Not a passing fault: the pipeline stops with this message instead of retrying for ever.
      expect(e.transient).toBe(false);
    }
  });

  it('JSON without a field the operation needs is invalid_answer naming the operation and the field', async () => {
    const user = { id: 'u', email: 'vet@clinic.test', name: 'Dr A', organization_id: 'o' };
    const client = await answering({
      '/agents/auth/sign-in': JSON.stringify({ refresh_token: 'r.t.s', token_type: 'bearer', user }),
      '/scribe/recording-sessions/create': JSON.stringify({
        message: 'Recording session created',
        data: { created_at: '2026-01-01T00:00:00Z' },
      }),
      '/scribe/templates/all': JSON.stringify({ message: 'Templates', data: { items: [{ name: 'SOAP note' }] } }),
      '/scribe/audio/generate-upload-url': JSON.stringify({ data: { file_key: 'recordings/k' } }),
      '/agents-api/ddx_agent_v2': JSON.stringify({ response: {} }),
    });
    const cases: [string, () => Promise<unknown>, string][] = [
      ['sign-in', () => client.signIn('vet@clinic.test', 'pw'), 'field "access_token" is missing'],
      ['recording-session-create', () => createBellasSession(client), 'field "data.public_id" (or "id") is missing'],
      ['templates', () => client.templates('t'), 'field "data.items[0].public_id" (or "id") is missing'],
      [
        'upload-url',
        () => client.uploadUrl('t', { recordingSessionId: 's' }),
        'field "data.upload_url" (or "url") is missing',
      ],
      ['ddx-agent', () => client.ddx('t', 'Dog, vomiting'), 'field "status" is missing'],
    ];
    for (const [operation, call, problem] of cases) {
      const e = await failure(call());
      expect([e.kind, e.operation], operation).toEqual(['invalid_answer', operation]);
      expect(e.message).toBe(`Unexpected answer from the service for ${operation}: ${problem}`);
      expect(e.transient).toBe(false);
    }
  });
});
