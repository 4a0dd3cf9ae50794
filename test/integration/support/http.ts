// A thin undici client for tests that talk to the sandbox over real loopback HTTP.
import { request } from 'undici';
import type { Sandbox } from '../../../src/sandbox/index.ts';

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
}

export async function call<T = Record<string, unknown>>(method: string, url: string, options: CallOptions = {}): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  let body: string | Buffer | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const answer = await request(url, { method: method as 'GET', headers, body });
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
  const a = await call<{ access_token: string; refresh_token: string; user: SignedIn['user'] }>('POST', `${sandbox.urls.agents_url}/auth/sign-in`, {
    body: account,
  });
  if (a.status !== 200) throw new Error(`sign-in answered ${a.status}: ${a.text}`);
  return { access: a.json.access_token, refresh: a.json.refresh_token, user: a.json.user };
}

type Data<T> = { data: T };

/** Rows 4, 6 and 7: a session, an upload address, and the bytes PUT to it. */
export async function uploadRecording(
  sandbox: Sandbox,
  token: string,
  bytes: Buffer,
  contentType = 'audio/webm;codecs=opus',
): Promise<{ sessionId: string; fileKey: string; uploadUrl: string }> {
  const s = await call<Data<{ public_id: string }>>('POST', `${sandbox.urls.scribe_url}/recording-sessions/create`, { token, body: { name: 'Bella, limping' } });
  if (s.status !== 201) throw new Error(`create session answered ${s.status}: ${s.text}`);
  const sessionId = s.json.data.public_id;
  const u = await call<Data<{ upload_url: string; file_key: string }>>('POST', `${sandbox.urls.scribe_url}/audio/generate-upload-url`, {
    token,
    body: { recording_session_public_id: sessionId, file_name: 'consult.webm', content_type: contentType },
  });
  if (u.status !== 200) throw new Error(`upload url answered ${u.status}: ${u.text}`);
  const put = await call('PUT', u.json.data.upload_url, { rawBody: bytes, headers: { 'content-type': contentType } });
  if (put.status !== 200) throw new Error(`PUT answered ${put.status}: ${put.text}`);
  return { sessionId, fileKey: u.json.data.file_key, uploadUrl: u.json.data.upload_url };
}

/** The first bytes of a WebM file (EBML magic) followed by filler: enough for the sandbox to accept it as audio. */
export function fakeWebm(size = 4096): Buffer {
  const b = Buffer.alloc(size, 0x55);
  b.writeUInt32BE(0x1a45dfa3, 0);
  return b;
}

export async function waitFor<T>(probe: () => Promise<T | undefined>, { timeoutMs = 10_000, intervalMs = 50 } = {}): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`waitFor: nothing after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
