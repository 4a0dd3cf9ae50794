// Rules of the engine (src/main/core) that lived only in its code: the API version header on
// every call, a time-out on every JSON call, a clear error for an answer of the wrong shape,
// Retry-After honoured by the pipeline, progress events throttled, the /auth/login option, the
// main process refusing empty agent input itself, and a refused refresh that parks (never
// fails) the recordings queued. Real sandbox over loopback HTTP and real files throughout; a
// tiny node:http server of the test's own only where the sandbox cannot misbehave as needed.
import { ownerOf } from '../../../src/main/core/jobs/pipeline.ts';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppCore } from '../../../src/main/core/app-core.ts';
import { createHandlers } from '../../../src/main/core/ipc-handlers.ts';
import { RecordingStore } from '../../../src/main/core/recordings/index.ts';
import { API_VERSION, ServiceClient, type ServiceUrls } from '../../../src/main/core/service/client.ts';
import type { JobInfo } from '../../../src/shared/jobs.ts';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import { TEMPLATES } from '../../../src/sandbox/templates.ts';
import {
  failure,
  firstTemplateId,
  makeRecording,
  recorderChunks,
  startCore,
  startCoreAgainst,
  tempDir,
  waitForJob,
} from '../../support/core.ts';

const servers: Server[] = [];
const sandboxes: Sandbox[] = [];
const cores: AppCore[] = [];
const dirs: string[] = [];
afterEach(async () => {
  while (cores.length) await cores.pop()?.stop();
  while (sandboxes.length) await sandboxes.pop()?.close();
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function sandbox(options: Parameters<typeof startSandbox>[0] = {}): Promise<Sandbox> {
  const s = await startSandbox(options);
  sandboxes.push(s);
  return s;
}

function sandboxUrls(origin: string): ServiceUrls {
  return { agentsUrl: `${origin}/agents`, scribeUrl: `${origin}/scribe`, agentsApiUrl: `${origin}/agents-api` };
}

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const done = (j: JobInfo) => j.state === 'completed' || j.state === 'failed';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
    const upstream = httpRequest(
      `${target.origin}${req.url ?? '/'}`,
      { method: req.method, headers: { ...req.headers, host: new URL(target.origin).host } },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          let body = Buffer.concat(chunks);
          if (String(answer.headers['content-type'] ?? '').includes('json'))
            body = Buffer.from(body.toString('utf8').split(target.origin).join(origin));
          const headers = { ...answer.headers, 'content-length': String(body.length) };
          delete headers['transfer-encoding'];
          res.writeHead(answer.statusCode ?? 502, headers).end(body);
        });
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  return { origin, seen };
}

function demoUser(c: AppCore) {
  const user = c.session.state().user;
  if (!user) throw new Error('not signed in');
  return user;
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
    const session = await client.createSession(token, {
      patientName: 'Bella',
      description: 'Vomiting',
      sessionDate: '2026-11-20',
    }); // POST /recording-sessions/create
    const templates = await client.templates(token, 1, 50); // GET /templates/all
    const upload = await client.uploadUrl(token, { sessionId: session.id }); // POST /audio/generate-upload-url
    expect(upload.uploadUrl.startsWith(proxy.origin)).toBe(true);
    await client.upload(upload.uploadUrl, store.audioPath(recording), null); // the PUT to the presigned address, as curl -T sends it
    const requested = await client.requestScribe(token, {
      sessionId: session.id,
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
    // Row 7: the PUT carries no X-API-Version: the presigned URL belongs to the storage host,
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
      [
        'create-session',
        () => client.createSession('t', { patientName: 'Bella', description: '', sessionDate: '2026-11-20' }),
      ],
      ['templates', () => client.templates('t')],
      ['upload-url', () => client.uploadUrl('t', { sessionId: 's' })],
      ['scribe-request', () => client.requestScribe('t', { sessionId: 's', templateId: 'soap', idempotencyKey: 'i' })],
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
      [
        'create-session',
        () => client.createSession('t', { patientName: 'Bella', description: '', sessionDate: '2026-11-20' }),
        'field "data.public_id" (or "id") is missing',
      ],
      ['templates', () => client.templates('t'), 'field "data.items[0].public_id" (or "id") is missing'],
      ['upload-url', () => client.uploadUrl('t', { sessionId: 's' }), 'field "data.upload_url" (or "url") is missing'],
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

describe('Retry-After', () => {
  it('the pipeline waits out a 429 for at least its Retry-After, then finishes the job with one scribe record', async () => {
    // The sandbox counts requests per client in fixed one-minute windows and answers 429 with
    // Retry-After = the seconds left in the window. So that the window ends in ~4 s rather than
    // up to 60, the process clock (Date.now, which the sandbox, the session and the pipeline all
    // read) is moved on to 4 s before the end of a minute. Nothing else is changed.
    const realNow = Date.now.bind(Date);
    const real = realNow();
    const offset = (60_000 - (real % 60_000) - 4000 + 60_000) % 60_000;
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
    try {
      const limit = 20;
      const s = await sandbox({ rateLimitPerMinute: limit, scribeSeconds: 0.3 });
      const lines: { at: number; line: string }[] = [];
      const c = await startCoreAgainst(s, {
        pipeline: {
          backoff: { baseMs: 100, capMs: 2000 },
          pollDelay: () => 150,
          log: (line) => lines.push({ at: performance.now(), line }),
        },
      });
      cores.push(c);
      await c.session.signIn(s.demo.email, s.demo.password);
      const id = await makeRecording(c);
      const template = await firstTemplateId(c);
      // The rest of this window's quota for the token is used up, so the job's first call is the one over.
      const token = await c.session.accessToken();
      for (let i = 1; i < limit; i++) await c.client.templates(token, 1, 50);
      expect(s.stats().rateLimited).toBe(0);

      const stateAt: { at: number; state: string }[] = [];
      c.pipeline.on('job', (j) => {
        if (j.recordingId === id && stateAt.at(-1)?.state !== j.state)
          stateAt.push({ at: performance.now(), state: j.state });
      });
      await c.pipeline.submit(id, template);
      const job = await waitForJob(c, id, done, 20_000);
      expect(job.state).toBe('completed');
      expect(job.error).toBeNull();

      // The sandbox did refuse with 429 and Retry-After, and the pipeline said how long it waits.
      expect(s.stats().rateLimited).toBeGreaterThanOrEqual(1);
      const retries = lines
        .map(({ at, line }) => ({ at, m: /Try again in (\d+) s\. \(retry in (\d+) ms\)/.exec(line) }))
        .filter((r) => r.m !== null)
        .map(({ at, m }) => ({ at, retryAfterMs: Number(m?.[1]) * 1000, waitMs: Number(m?.[2]) }));
      expect(retries.length).toBeGreaterThanOrEqual(1);
      for (const r of retries) {
        expect(r.retryAfterMs).toBeGreaterThan(0);
        // The jitter of a first retry is under 100 ms: only Retry-After can make it this long.
        expect(r.waitMs).toBeGreaterThanOrEqual(r.retryAfterMs);
      }
      // And it did wait: the step refused came through no sooner than Retry-After after the refusal.
      const first = retries[0]!;
      const created = stateAt.find((x) => x.state === 'session_created');
      expect(created).toBeDefined();
      expect(created!.at - first.at).toBeGreaterThanOrEqual(first.retryAfterMs - 15);
      // One recording, one scribe record, however many refusals.
      const stats = s.stats();
      expect(stats.scribeRequests).toBe(1);
      expect(Object.values(stats.scribeRecordsByFileKey)).toEqual([1]);
      expect(stats.byRoute['POST /scribe/recording-sessions/create']).toBe(1 + retries.length);
    } finally {
      vi.restoreAllMocks();
    }
  });
});

describe('progress events', () => {
  it('are throttled during an upload: at most one per 250 ms (progressThrottleMs), however many chunks go out', async () => {
    // pipeline.ts: progressThrottleMs defaults to 250; startCore leaves it as it is.
    const THROTTLE_MS = 250;
    const dataDir = tempDir();
    dirs.push(dataDir);
    const c = await startCore({ dataDir });
    cores.push(c);
    const demo = c.appInfo().sandbox!.demo;
    await c.session.signIn(demo.email, demo.password);
    const template = await firstTemplateId(c);

    // A long consult: the real MediaRecorder chunks, then 128 more chunks of 1 MiB (the most a chunk may be).
    const meta = await c.recordings.start({
      mimeType: 'audio/webm;codecs=opus',
      label: 'Long consult',
      patientName: 'Bella',
      owner: ownerOf(demoUser(c), c.serviceKey()),
    });
    let seq = 0;
    for (const chunk of recorderChunks()) await c.recordings.appendChunk(meta.id, seq++, chunk, seq * 1000);
    const filler = Buffer.alloc(1024 * 1024, 0x42);
    for (let i = 0; i < 128; i++) await c.recordings.appendChunk(meta.id, seq++, filler, seq * 1000);
    await c.recordings.finish(meta.id, { durationMs: seq * 1000 });
    const size = readFileSync(c.recordings.audioPath(meta.id)).length;
    expect(size).toBeGreaterThan(128 * 1024 * 1024);

    // Count the progress callbacks the upload makes, passing each on to the pipeline unchanged.
    const callbacks: { at: number; sent: number }[] = [];
    const upload = c.client.upload.bind(c.client);
    c.client.upload = (url, path, type, options = {}) =>
      upload(url, path, type, {
        ...options,
        onProgress: (p) => {
          callbacks.push({ at: Date.now(), sent: p.sent });
          options.onProgress?.(p);
        },
      });
    const events: { at: number; job: JobInfo }[] = [];
    c.pipeline.on('job', (job) => {
      if (job.recordingId === meta.id) events.push({ at: Date.now(), job });
    });
    await c.pipeline.submit(meta.id, template);
    const job = await waitForJob(c, meta.id, done, 25_000);
    expect(job.state).toBe('completed');
    expect(job.bytesTotal).toBe(size);

    // The upload called back once per MiB written...
    expect(callbacks.length).toBeGreaterThanOrEqual(Math.floor(size / (1024 * 1024)));
    expect(callbacks.at(-1)?.sent).toBe(size);
    const uploadMs = (callbacks.at(-1)?.at ?? 0) - (callbacks[0]?.at ?? 0);
    // ...but the window heard of it at most once per interval: the events while at upload_url
    // are the state change into it and the throttled progress snapshots.
    const atUpload = events.filter((e) => e.job.state === 'upload_url');
    const progress = atUpload.filter((e) => e.job.bytesSent > 0);
    expect(atUpload.length - progress.length).toBe(1);
    expect(progress.length).toBeLessThanOrEqual(Math.floor(uploadMs / THROTTLE_MS) + 1);
    expect(progress.length).toBeLessThan(callbacks.length / 4);
    for (let i = 1; i < atUpload.length; i++) {
      expect(atUpload[i]!.at - atUpload[i - 1]!.at, `event ${i}`).toBeGreaterThanOrEqual(THROTTLE_MS - 5);
    }
    // Progress snapshots only go forward.
    const sent = progress.map((e) => e.job.bytesSent);
    expect([...sent].sort((a, b) => a - b)).toEqual(sent);
    // All job events: one per state change or status change, plus the throttled progress.
    const stateChanges = events.filter((e, i) => i === 0 || e.job.state !== events[i - 1]!.job.state).length;
    expect(events.length).toBeLessThanOrEqual(stateChanges + progress.length + 4);
  });
});

describe('the /auth/login option (POST /auth/login)', () => {
  it('with signInAtScribe on, sign-in goes to /scribe/auth/login and the session works; off again, back to /agents/auth/sign-in', async () => {
    const s = await sandbox({ scribeSeconds: 0.2 });
    const c = await startCoreAgainst(s);
    cores.push(c);
    const handlers = createHandlers(c);
    const on = await handlers['settings:update']({ signInAtScribe: true });
    expect(on).toMatchObject({ ok: true, data: { signInAtScribe: true } });

    const signed = await handlers['session:signIn'](s.demo);
    expect(signed).toMatchObject({ ok: true, data: { signedIn: true, user: { email: s.demo.email } } });
    expect(s.stats().byRoute['POST /scribe/auth/login']).toBe(1);
    expect(s.stats().byRoute['POST /agents/auth/sign-in']).toBeUndefined();
    // The tokens from POST /auth/login are good for the rest of the workflow: templates, a whole job.
    const templates = await handlers['templates:list']({ page: 1 });
    expect(templates.ok).toBe(true);
    const id = await makeRecording(c);
    await c.pipeline.submit(id, templates.ok ? templates.data.items[0]!.id : '');
    expect((await waitForJob(c, id, done)).state).toBe('completed');
    // Wrong credentials through POST /auth/login read like those of POST /auth/sign-in.
    await handlers['session:signOut'](undefined);
    const wrong = await handlers['session:signIn']({ email: s.demo.email, password: 'nope' });
    expect(wrong).toMatchObject({ ok: false, error: { message: expect.stringMatching(/^Invalid credentials$/) } });
    expect(s.stats().byRoute['POST /scribe/auth/login']).toBe(2);

    await handlers['settings:update']({ signInAtScribe: false });
    expect(await handlers['session:signIn'](s.demo)).toMatchObject({ ok: true });
    expect(s.stats().byRoute['POST /agents/auth/sign-in']).toBe(1);
    expect(s.stats().byRoute['POST /scribe/auth/login']).toBe(2);
  });
});

describe('agent input checked in main', () => {
  it('agents:ddx and agents:treatmentPlan with empty or blank input answer { ok: false } with a clear message, and nothing reaches the service', async () => {
    const c = await startCore();
    cores.push(c);
    const handlers = createHandlers(c);
    const demo = c.appInfo().sandbox!.demo;
    expect(await handlers['session:signIn'](demo)).toMatchObject({ ok: true });
    const sandboxStats = () => c.embeddedSandbox!.stats();
    const before = sandboxStats().requests;
    for (const input of ['', ' ', '   ', '\n\t  \r\n']) {
      const ddx = await handlers['agents:ddx']({ input });
      expect(ddx, JSON.stringify(input)).toEqual({
        ok: false,
        error: { code: 'invalid_input', message: 'Type or paste a clinical history first.' },
      });
      const plan = await handlers['agents:treatmentPlan']({ input, allowWithoutSpecies: true });
      expect(plan, JSON.stringify(input)).toEqual({
        ok: false,
        error: { code: 'invalid_input', message: 'Type or paste the case details first.' },
      });
    }
    expect(sandboxStats().requests).toBe(before);
    expect(sandboxStats().byRoute['POST /agents-api/ddx_agent_v2']).toBeUndefined();
    // The same channel with real input does reach it (so the count above could have moved).
    expect(await handlers['agents:ddx']({ input: '  Dog, 6 years, vomiting for two days  ' })).toMatchObject({
      ok: true,
    });
    expect(sandboxStats().byRoute['POST /agents-api/ddx_agent_v2']).toBe(1);
  });
});

describe('a refused refresh with recordings queued', () => {
  it('signs out and parks the queued jobs with their audio and job files untouched; after signing in again both complete', async () => {
    // Tokens: access 1 s, refresh 2 s; every request takes the sandbox 1 s. The jobs' first call
    // goes out with a fresh token and arrives after it expired (401); the refresh that follows
    // leaves before the refresh token's expiry and arrives after it: the service refuses it.
    const LATENCY_MS = 1000;
    const dataDir = tempDir();
    dirs.push(dataDir);
    const first = await startSandbox({
      dataDir: join(dataDir, 'service'),
      latencyMs: LATENCY_MS,
      accessTtlSeconds: 1,
      refreshTtlSeconds: 2,
    });
    sandboxes.push(first);
    mkdirSync(join(dataDir, 'app'));
    const c = await startCoreAgainst(first, { dataDir: join(dataDir, 'app') });
    cores.push(c);
    const template = TEMPLATES[0]!.public_id;
    const ids = [await makeRecording(c, 'Bella — vomiting'), await makeRecording(c, 'Rex — limping')];
    const audioBefore = ids.map((id) => sha256(c.recordings.audioPath(id)));
    const jobFile = (id: string) => join(dirname(c.recordings.audioPath(id)), 'job.json');
    const metaFile = (id: string) => join(dirname(c.recordings.audioPath(id)), 'meta.json');

    // Sign in so the tokens are issued early in a second (they expire on whole seconds), which
    // gives the refresh its full second to leave in time. Tries again when the timing was off.
    let took = LATENCY_MS + 60;
    for (let attempt = 0; ; attempt++) {
      await sleep((1100 - ((Date.now() + took) % 1000)) % 1000);
      const started = Date.now();
      await c.session.signIn(first.demo.email, first.demo.password);
      took = Date.now() - started;
      const stored = await c.options.secretStore.load();
      const life = (stored?.expiresAt ?? 0) * 1000 - (stored?.obtainedAt ?? 0);
      if (life >= 750) break;
      if (attempt >= 4) throw new Error(`could not time the sign-in (token life ${life} ms)`);
      await c.session.signOut('user');
    }
    const signIns = first.stats().signIns;

    // Both recordings are queued while signed in.
    const ended = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the session did not end; jobs: ${JSON.stringify(c.pipeline.list())}`)),
        8000,
      );
      c.session.on('changed', (st) => {
        if (st.signedIn) return;
        clearTimeout(timer);
        resolve();
      });
    });
    // Recorded with no one signed in, each is the vet's once they claim it.
    for (const id of ids) await c.commands.claim(id, c.actors.current()!);
    for (const id of ids) await c.pipeline.submit(id, template);
    const jobBefore = ids.map((id) => readFileSync(jobFile(id), 'utf8'));
    const metaBefore = ids.map((id) => readFileSync(metaFile(id), 'utf8'));
    for (const meta of metaBefore) expect(JSON.parse(meta)).toMatchObject({ owner: { email: first.demo.email } });
    await ended;
    await Promise.all(ids.map((id) => waitForJob(c, id, (j) => j.waitingFor === 'sign-in', 5000)));

    // The service refused the refresh (it was asked, and issued nothing), and the session ended.
    expect(c.session.state()).toMatchObject({ signedIn: false, endedBecause: 'expired' });
    expect(first.stats().byRoute['POST /scribe/auth/refresh-token']).toBeGreaterThanOrEqual(1);
    expect(first.stats().refreshes).toBe(0);
    expect(first.stats().signIns).toBe(signIns);
    expect(await c.options.secretStore.load()).toBeNull();
    // The queued jobs are parked, not failed, and nothing of theirs changed on disk.
    for (const [i, id] of ids.entries()) {
      expect(c.pipeline.info(id)).toMatchObject({ state: 'recorded', waitingFor: 'sign-in', error: null });
      expect(readFileSync(jobFile(id), 'utf8'), `job file of ${id}`).toBe(jobBefore[i]);
      expect(JSON.parse(readFileSync(jobFile(id), 'utf8'))).toMatchObject({
        state: 'recorded',
        failedAt: null,
        error: null,
      });
      expect(sha256(c.recordings.audioPath(id)), `audio of ${id}`).toBe(audioBefore[i]);
      expect(readFileSync(metaFile(id), 'utf8'), `meta of ${id}`).toBe(metaBefore[i]);
    }
    // Parked means quiet: no request goes out while signed out.
    const quiet = first.stats().requests;
    await sleep(400);
    expect(first.stats().requests).toBe(quiet);

    // The service comes back with ordinary token lifetimes and no delay (same data, same port);
    // the vet signs in again and both jobs go on from where they were.
    const port = first.port;
    await first.close();
    const current = await startSandbox({ dataDir: join(dataDir, 'service'), port, scribeSeconds: 0.3 });
    sandboxes.push(current);
    await c.session.signIn(current.demo.email, current.demo.password);
    for (const id of ids) expect((await waitForJob(c, id, done, 15_000)).state, id).toBe('completed');
    expect(current.stats().scribeRequests).toBe(2);
    expect(Object.values(current.stats().scribeRecordsByFileKey)).toEqual([1, 1]);
    for (const [i, id] of ids.entries()) expect(sha256(c.recordings.audioPath(id))).toBe(audioBefore[i]);
  });
});
