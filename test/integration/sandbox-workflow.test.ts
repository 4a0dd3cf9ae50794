// Rows 4 to 9 against a real sandbox over loopback: session, templates, presigned upload,
// scribe request and the scribe job's state machine.
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, OTHER_ACCOUNT, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.ts';
import { call, fakeWebm, signIn, uploadRecording, waitFor } from './support/http.ts';

let sandbox: Sandbox;
async function start(options: Partial<SandboxOptions> = {}) {
  sandbox = await startSandbox({ scribeSeconds: 0, ...options });
  return sandbox;
}
afterEach(async () => {
  await sandbox?.close();
});

type Data<T> = { data: T; message?: string };
interface Template {
  public_id: string;
  name: string;
  description: string;
}

async function firstTemplate(s: Sandbox, token: string): Promise<Template> {
  const t = await call<Data<{ items: Template[] }>>('GET', `${s.urls.scribe_url}/templates/all?page=1&limit=50`, { token });
  const first = t.json.data.items[0];
  if (!first) throw new Error('no templates');
  return first;
}

describe('row 4: create a recording session', () => {
  it('answers { message, data: { public_id, created_at } }, with or without a name', async () => {
    const s = await start();
    const { access } = await signIn(s);
    const named = await call<Data<{ public_id: string; created_at: string }>>('POST', `${s.urls.scribe_url}/recording-sessions/create`, {
      token: access,
      body: { name: 'Max — vomiting' },
    });
    expect(named.status).toBe(201);
    expect(named.json.data.public_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(named.json.data.created_at)).not.toBeNaN();
    const bare = await call('POST', `${s.urls.scribe_url}/recording-sessions/create`, { token: access });
    expect(bare.status).toBe(201);
    const wrong = await call('POST', `${s.urls.scribe_url}/recording-sessions/create`, { token: access, body: { name: 42 } });
    expect([wrong.status, wrong.json['code']]).toEqual([422, 'validation_error']);
    expect(String(wrong.json['detail'])).toContain('name');
  });
});

describe('row 5: templates', () => {
  it('lists page 1 of 50 with at least 8 templates, and pages', async () => {
    const s = await start();
    const { access } = await signIn(s);
    const a = await call<Data<{ items: Template[]; page: number; limit: number; total: number }>>('GET', `${s.urls.scribe_url}/templates/all?page=1&limit=50`, {
      token: access,
    });
    expect(a.status).toBe(200);
    expect(a.json.data.items.length).toBeGreaterThanOrEqual(8);
    expect(a.json.data).toMatchObject({ page: 1, limit: 50, total: a.json.data.items.length });
    const names = a.json.data.items.map((t) => t.name.toLowerCase()).join(' | ');
    for (const kind of ['soap', 'wellness', 'dental', 'surgery', 'discharge']) expect(names).toContain(kind);
    const page2 = await call<Data<{ items: Template[] }>>('GET', `${s.urls.scribe_url}/templates/all?page=2&limit=3`, { token: access });
    expect(page2.json.data.items.map((t) => t.public_id)).toEqual(a.json.data.items.slice(3, 6).map((t) => t.public_id));
  });

  it.each(['limit=101', 'limit=0', 'page=0', 'page=abc', 'limit=5.5'])('refuses %s with 422', async (query) => {
    const s = await start();
    const { access } = await signIn(s);
    const a = await call('GET', `${s.urls.scribe_url}/templates/all?${query}`, { token: access });
    expect([a.status, a.json['code']]).toEqual([422, 'validation_error']);
  });
});

describe('rows 6 and 7: presigned upload', () => {
  it('streams the bytes to storage and answers 200', async () => {
    const s = await start();
    const { access } = await signIn(s);
    const { fileKey } = await uploadRecording(s, access, fakeWebm(300_000));
    expect(fileKey).toContain('consult.webm');
    expect(s.stats().uploads).toBe(1);
  });

  it('refuses a session that is not there or not the caller organization', async () => {
    const s = await start();
    const { access } = await signIn(s);
    const other = await signIn(s, OTHER_ACCOUNT);
    const session = await call<Data<{ public_id: string }>>('POST', `${s.urls.scribe_url}/recording-sessions/create`, { token: other.access });
    const a = await call('POST', `${s.urls.scribe_url}/audio/generate-upload-url`, {
      token: access,
      body: { recording_session_public_id: session.json.data.public_id, file_name: 'a.webm', content_type: 'audio/webm' },
    });
    expect([a.status, a.json['code']]).toEqual([404, 'not_found']);
    const notAudio = await call('POST', `${s.urls.scribe_url}/audio/generate-upload-url`, {
      token: other.access,
      body: { recording_session_public_id: session.json.data.public_id, file_name: 'a.exe', content_type: 'application/octet-stream' },
    });
    expect([notAudio.status, notAudio.json['code']]).toEqual([422, 'validation_error']);
    expect(String(notAudio.json['detail'])).toContain('content_type');
  });

  async function prepare(s: Sandbox) {
    const { access } = await signIn(s);
    const session = await call<Data<{ public_id: string }>>('POST', `${s.urls.scribe_url}/recording-sessions/create`, { token: access });
    const u = await call<Data<{ upload_url: string; file_key: string; expires_at: number }>>('POST', `${s.urls.scribe_url}/audio/generate-upload-url`, {
      token: access,
      body: { recording_session_public_id: session.json.data.public_id, file_name: 'consult.webm', content_type: 'audio/webm' },
    });
    expect(u.status).toBe(200);
    return { access, sessionId: session.json.data.public_id, ...u.json.data };
  }

  it('checks the signed Content-Type and the signature', async () => {
    const s = await start();
    const p = await prepare(s);
    const wrongType = await call('PUT', p.upload_url, { rawBody: fakeWebm(), headers: { 'content-type': 'audio/ogg' } });
    expect([wrongType.status, wrongType.json['code']]).toEqual([403, 'content_type_mismatch']);
    const tampered = p.upload_url.replace(/signature=([0-9a-f])/, (_m, c: string) => `signature=${c === '0' ? '1' : '0'}`);
    const forged = await call('PUT', tampered, { rawBody: fakeWebm(), headers: { 'content-type': 'audio/webm' } });
    expect([forged.status, forged.json['code']]).toEqual([403, 'signature_mismatch']);
    const longer = p.upload_url.replace(/expires=\d+/, `expires=${p.expires_at + 3600}`);
    const extended = await call('PUT', longer, { rawBody: fakeWebm(), headers: { 'content-type': 'audio/webm' } });
    expect([extended.status, extended.json['code']]).toEqual([403, 'signature_mismatch']);
    const ok = await call('PUT', p.upload_url, { rawBody: fakeWebm(), headers: { 'content-type': 'audio/webm' } });
    expect(ok.status).toBe(200);
  });

  it('expires', async () => {
    const s = await start({ uploadTtlSeconds: 1 });
    const p = await prepare(s);
    await new Promise((r) => setTimeout(r, 2100));
    const late = await call('PUT', p.upload_url, { rawBody: fakeWebm(), headers: { 'content-type': 'audio/webm' } });
    expect([late.status, late.json['code']]).toEqual([403, 'upload_url_expired']);
    expect(String(late.json['detail'])).toMatch(/new upload URL/);
  });

  it('refuses a file over the size limit, by Content-Length and while streaming', async () => {
    const s = await start({ maxUploadBytes: 10_000 });
    const p = await prepare(s);
    const big = await call('PUT', p.upload_url, { rawBody: fakeWebm(20_000), headers: { 'content-type': 'audio/webm' } });
    expect([big.status, big.json['code']]).toEqual([413, 'payload_too_large']);
    // Chunked, with no Content-Length: refused when the limit is passed.
    const { Readable } = await import('node:stream');
    const chunks = Readable.from([1, 2, 3, 4, 5].map(() => fakeWebm(4000)));
    const { request } = await import('undici');
    const streamed = await request(p.upload_url, { method: 'PUT', body: chunks, headers: { 'content-type': 'audio/webm' } }).catch((e: Error) => e);
    if (!(streamed instanceof Error)) {
      expect(streamed.statusCode).toBe(413);
      await streamed.body.dump();
    }
    // Nothing was stored: a scribe request for it is refused as not uploaded.
    const scribe = await call('POST', `${s.urls.scribe_url}/scribe/request`, {
      token: p.access,
      body: { recording_session_public_id: p.sessionId, template_public_id: (await firstTemplate(s, p.access)).public_id, file_key: p.file_key },
    });
    expect([scribe.status, scribe.json['code']]).toEqual([409, 'file_not_uploaded']);
  });
});

describe('rows 8 and 9: scribe request and status', () => {
  it('moves queued -> processing -> completed and the note follows the template', async () => {
    const s = await start({ scribeSeconds: 1.5 });
    const { access } = await signIn(s);
    const { sessionId, fileKey } = await uploadRecording(s, access, fakeWebm(64_000));
    const template = await firstTemplate(s, access);
    const r = await call<Data<{ public_id: string; status: string }>>('POST', `${s.urls.scribe_url}/scribe/request`, {
      token: access,
      body: { recording_session_public_id: sessionId, template_public_id: template.public_id, file_key: fileKey },
    });
    expect(r.status).toBe(201);
    expect(r.json.data.status).toBe('queued');
    const seen = new Set<string>();
    const done = await waitFor(async () => {
      const g = await call<Data<{ status: string; note?: string; error?: string }>>('GET', `${s.urls.scribe_url}/scribe/get/${r.json.data.public_id}`, { token: access });
      expect(g.status).toBe(200);
      seen.add(g.json.data.status);
      return g.json.data.status === 'completed' ? g.json.data : undefined;
    });
    expect([...seen]).toEqual(expect.arrayContaining(['queued', 'processing', 'completed']));
    expect(done.note).toMatch(/sandbox/i);
    expect(done.note).toContain('64');
    expect(done.error).toBeUndefined();
    expect(s.stats().scribeRequests).toBe(1);
  });

  it('fails a job whose file is not audio, with the reason', async () => {
    const s = await start();
    const { access } = await signIn(s);
    const { sessionId, fileKey } = await uploadRecording(s, access, Buffer.from('this is not audio at all'), 'audio/webm');
    const template = await firstTemplate(s, access);
    const r = await call<Data<{ public_id: string }>>('POST', `${s.urls.scribe_url}/scribe/request`, {
      token: access,
      body: { recording_session_public_id: sessionId, template_public_id: template.public_id, file_key: fileKey },
    });
    const g = await waitFor(async () => {
      const a = await call<Data<{ status: string; error?: string; note?: string }>>('GET', `${s.urls.scribe_url}/scribe/get/${r.json.data.public_id}`, { token: access });
      return a.json.data.status === 'failed' ? a.json.data : undefined;
    });
    expect(g.error).toMatch(/not audio/);
    expect(g.note).toBeUndefined();
  });

  it('refuses unknown sessions, templates and files, and a file not yet uploaded (409)', async () => {
    const s = await start();
    const { access } = await signIn(s);
    const { sessionId, fileKey } = await uploadRecording(s, access, fakeWebm());
    const template = (await firstTemplate(s, access)).public_id;
    const url = `${s.urls.scribe_url}/scribe/request`;
    const post = (body: unknown) => call('POST', url, { token: access, body });
    const zero = '00000000-0000-4000-8000-000000000000';
    expect((await post({ recording_session_public_id: zero, template_public_id: template, file_key: fileKey })).status).toBe(404);
    expect((await post({ recording_session_public_id: sessionId, template_public_id: 'nope', file_key: fileKey })).status).toBe(404);
    expect((await post({ recording_session_public_id: sessionId, template_public_id: template, file_key: 'recordings/x' })).status).toBe(404);
    const missing = await post({ recording_session_public_id: sessionId });
    expect([missing.status, missing.json['code']]).toEqual([422, 'validation_error']);
    expect(String(missing.json['detail'])).toMatch(/template_public_id.*file_key|file_key.*template_public_id/);
    const u = await call<Data<{ file_key: string }>>('POST', `${s.urls.scribe_url}/audio/generate-upload-url`, {
      token: access,
      body: { recording_session_public_id: sessionId, file_name: 'second.webm', content_type: 'audio/webm' },
    });
    const early = await post({ recording_session_public_id: sessionId, template_public_id: template, file_key: u.json.data.file_key });
    expect([early.status, early.json['code']]).toEqual([409, 'file_not_uploaded']);
  });

  it('hides another organization records (404) and unknown ids', async () => {
    const s = await start();
    const { access } = await signIn(s);
    const other = await signIn(s, OTHER_ACCOUNT);
    const { sessionId, fileKey } = await uploadRecording(s, access, fakeWebm());
    const r = await call<Data<{ public_id: string }>>('POST', `${s.urls.scribe_url}/scribe/request`, {
      token: access,
      body: { recording_session_public_id: sessionId, template_public_id: (await firstTemplate(s, access)).public_id, file_key: fileKey },
    });
    const theirs = await call('GET', `${s.urls.scribe_url}/scribe/get/${r.json.data.public_id}`, { token: other.access });
    expect([theirs.status, theirs.json['code']]).toEqual([404, 'not_found']);
    const unknown = await call('GET', `${s.urls.scribe_url}/scribe/get/does-not-exist`, { token: access });
    expect(unknown.status).toBe(404);
  });

  it('answers a repeated Idempotency-Key with the same record, not a second job', async () => {
    const s = await start();
    const { access } = await signIn(s);
    const { sessionId, fileKey } = await uploadRecording(s, access, fakeWebm());
    const body = { recording_session_public_id: sessionId, template_public_id: (await firstTemplate(s, access)).public_id, file_key: fileKey };
    const headers = { 'idempotency-key': `scribe-${sessionId}` };
    const a = await call<Data<{ public_id: string }>>('POST', `${s.urls.scribe_url}/scribe/request`, { token: access, body, headers });
    const b = await call<Data<{ public_id: string }>>('POST', `${s.urls.scribe_url}/scribe/request`, { token: access, body, headers });
    expect([a.status, b.status]).toEqual([201, 200]);
    expect(b.json.data.public_id).toBe(a.json.data.public_id);
    expect(s.stats().scribeRecordsByFileKey[fileKey]).toBe(1);
  });
});
