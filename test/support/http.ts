// A thin undici client for tests that talk to the sandbox over real loopback HTTP, and the plain
// loopback servers tests stand in for a service with (one for a file, or each test's own), and
// what a proxy of theirs does to pass a request on.
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { request, type Dispatcher } from 'undici';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.ts';

export interface Answer<T = Record<string, unknown>> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: T;
  text: string;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  /** X-API-Version sent, as the app sends it on every API call; null sends none (and the storage PUT never has one). */
  apiVersion?: string | null;
}

export async function call<T = Record<string, unknown>>(
  method: string,
  url: string,
  options: CallOptions = {},
): Promise<Answer<T>> {
  const storage = new URL(url).pathname.startsWith('/storage/');
  const version = options.apiVersion === undefined ? (storage ? null : 'v1') : options.apiVersion;
  const headers: Record<string, string> = {
    ...(version === null ? {} : { 'x-api-version': version }),
    ...options.headers,
  };
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  let body: string | Buffer | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  return answerOf<T>(await request(url, { method: method as 'GET', headers, body }));
}

/** An undici answer read whole: its status, headers, text and the text as JSON (undefined when it is not JSON). */
export async function answerOf<T = Record<string, unknown>>(answer: Dispatcher.ResponseData): Promise<Answer<T>> {
  const text = await answer.body.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: answer.statusCode, headers: answer.headers, json: json as T, text };
}

export interface SignedIn {
  access: string;
  refresh: string;
  user: { id: string; organization_id: string; email: string };
}

export async function signIn(sandbox: Sandbox, account = sandbox.demo): Promise<SignedIn> {
  const a = await call<{ access_token: string; refresh_token: string; user: SignedIn['user'] }>(
    'POST',
    `${sandbox.urls.agents_url}/auth/sign-in`,
    {
      body: account,
    },
  );
  if (a.status !== 200) throw new Error(`sign-in answered ${a.status}: ${a.text}`);
  return { access: a.json.access_token, refresh: a.json.refresh_token, user: a.json.user };
}

/** The body of `POST /recording-sessions/create` for a patient, as the app sends it. */
export function recordingSessionBody(patientName = 'Bella', description = 'Limping, left hind') {
  return { patient_name: patientName, description, session_date: '2026-11-25' };
}

/**
 * `POST /recording-sessions/create`, `POST /audio/generate-upload-url` and the PUT to that address, as
 * published: a recording session for a patient, its upload address, the bytes as `curl -T` sends them.
 */
export async function uploadRecording(
  sandbox: Sandbox,
  token: string,
  bytes: Buffer,
  { patientName = 'Bella', autoTemplate }: { patientName?: string; autoTemplate?: string } = {},
): Promise<{ recordingSessionId: string; uploadUrl: string }> {
  const s = await call<{ public_id: string }>('POST', `${sandbox.urls.scribe_url}/recording-sessions/create`, {
    token,
    body: recordingSessionBody(patientName),
  });
  if (s.status !== 200) throw new Error(`create session answered ${s.status}: ${s.text}`);
  const recordingSessionId = s.json.public_id;
  const u = await call<{ url: string; message: string }>(
    'POST',
    `${sandbox.urls.scribe_url}/audio/generate-upload-url`,
    {
      token,
      body: {
        recording_session_public_id: recordingSessionId,
        ...(autoTemplate ? { auto_scribe_template_public_id: autoTemplate } : {}),
      },
    },
  );
  if (u.status !== 200) throw new Error(`upload url answered ${u.status}: ${u.text}`);
  const put = await call('PUT', u.json.url, { rawBody: bytes });
  if (put.status !== 200) throw new Error(`PUT answered ${put.status}: ${put.text}`);
  return { recordingSessionId, uploadUrl: u.json.url };
}

/** The first bytes of a WebM file (EBML magic) followed by filler: enough for the sandbox to accept it as audio. */
export function fakeWebm(size = 4096): Buffer {
  const b = Buffer.alloc(size, 0x55);
  b.writeUInt32BE(0x1a45dfa3, 0);
  return b;
}

export async function waitFor<T>(
  probe: () => Promise<T | undefined>,
  { timeoutMs = 10_000, intervalMs = 50 } = {},
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`waitFor: nothing after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Starts `server` on a free loopback port and gives its origin (`http://127.0.0.1:<port>`). */
export async function listenOnLoopback(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A loopback port where nothing listens (it was free a moment ago): an address that refuses. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** Cuts a server's open connections (kept-alive ones would hold close up) and closes it. */
export async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
}

/**
 * One loopback server answering with `listener` for the file's tests: started before them, closed
 * after them. Read `origin` inside a test.
 */
export function serverForFile(listener: RequestListener): { readonly origin: string } {
  const server = createServer(listener);
  let origin = '';
  beforeAll(async () => {
    origin = await listenOnLoopback(server);
  });
  afterAll(() => closeServer(server));
  return {
    get origin() {
      return origin;
    },
  };
}

/** Servers of each test's own: the function starts one answering with `listener`, closed when the test ends. */
export function serversEachTest(): (listener: RequestListener) => Promise<string> {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) await closeServer(s);
  });
  return (listener) => {
    const server = createServer(listener);
    servers.push(server);
    return listenOnLoopback(server);
  };
}

/**
 * Passes `req` on to `targetOrigin` as it came (its Host made the target's) and answers `res` with
 * what came back, the body first through `rewrite` (which sees the answer's status and headers),
 * its length said again for what `rewrite` gave; `deliver` is handed the answering, to do at once
 * (the default) or later. An upstream that fails cuts the connection.
 */
export function forward(
  req: IncomingMessage,
  res: ServerResponse,
  targetOrigin: string,
  rewrite: (body: Buffer, answer: IncomingMessage) => Buffer | string = (body) => body,
  deliver: (answer: () => void) => void = (answer) => answer(),
): void {
  const upstream = httpRequest(
    `${targetOrigin}${req.url ?? '/'}`,
    { method: req.method, headers: { ...req.headers, host: new URL(targetOrigin).host } },
    (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        const body = rewrite(Buffer.concat(chunks), answer);
        const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(body)) };
        delete headers['transfer-encoding'];
        deliver(() => res.writeHead(answer.statusCode ?? 502, headers).end(body));
      });
    },
  );
  upstream.on('error', () => res.destroy());
  req.pipe(upstream);
}
