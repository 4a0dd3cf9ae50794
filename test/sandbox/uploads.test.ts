// `POST /audio/generate-upload-url` and the `PUT` to the presigned address against a real sandbox
// over loopback, as S3 answers it: the address's signature and expiry, XML errors, the size limit,
// and scribing started by the upload itself.
import { describe, expect, it } from 'vitest';
import { OTHER_ACCOUNT, type Sandbox } from '../../src/sandbox/index.ts';
import { call, fakeWebm, recordingSessionBody, signIn, uploadRecording } from '../support/http.ts';
import { firstTemplate, sandboxPerTest, type Page, type Validation } from './support.ts';

const start = sandboxPerTest();

describe('POST /audio/generate-upload-url and the PUT to the presigned address: presigned upload, S3-style', () => {
  async function prepare(s: Sandbox) {
    const { access } = await signIn(s);
    const session = await call<{ public_id: string }>('POST', `${s.urls.scribe_url}/recording-sessions/create`, {
      token: access,
      body: recordingSessionBody(),
    });
    const u = await call<{ url: string; message: string }>('POST', `${s.urls.scribe_url}/audio/generate-upload-url`, {
      token: access,
      body: { recording_session_public_id: session.json.public_id },
    });
    expect(u.status).toBe(200);
    return { access, recordingSessionId: session.json.public_id, url: u.json.url, message: u.json.message };
  }
  const xmlCode = (text: string) => /<Code>([^<]+)<\/Code>/.exec(text)?.[1];

  it('answers { url, message }: a presigned address with X-Amz-* and no key or expiry beside it', async () => {
    const s = await start({ uploadTtlSeconds: 900 });
    const p = await prepare(s);
    expect(p.message).toMatch(/upload url/i);
    const q = new URL(p.url).searchParams;
    expect(q.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect(q.get('X-Amz-Expires')).toBe('900');
    expect(q.get('X-Amz-SignedHeaders')).toBe('host');
    expect(q.get('X-Amz-Date')).toMatch(/^\d{8}T\d{6}Z$/);
    expect(q.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('takes the bytes without a Content-Type, as curl -T sends them, and answers 200 with an ETag', async () => {
    const s = await start();
    const p = await prepare(s);
    const ok = await call('PUT', p.url, { rawBody: fakeWebm(300_000) });
    expect(ok.status).toBe(200);
    expect(ok.headers['etag']).toMatch(/^"[0-9a-f]{64}"$/);
    expect(s.stats().uploads).toBe(1);
  });

  it('refuses a wrong signature with SignatureDoesNotMatch in XML: one digit changed, characters appended, upper case, cut short, a longer expiry', async () => {
    const s = await start();
    const p = await prepare(s);
    const changed = p.url.replace(
      /X-Amz-Signature=([0-9a-f])/,
      (_m, c: string) => `X-Amz-Signature=${c === '0' ? '1' : '0'}`,
    );
    // Buffer.from(hex, 'hex') stops at the first character that is not hex, and drops an odd
    // last digit: each of these would compare equal to the real signature if decoded that way.
    const appended = [`${p.url}0`, `${p.url}z`, `${p.url}%20`, `${p.url}${'0'.repeat(64)}`];
    const upper = p.url.replace(
      /X-Amz-Signature=([0-9a-f]{64})/,
      (_m, sig: string) => `X-Amz-Signature=${sig.toUpperCase()}`,
    );
    const shorter = p.url.slice(0, -2);
    const longer = p.url.replace(/X-Amz-Expires=\d+/, 'X-Amz-Expires=999999');
    for (const url of [changed, ...appended, upper, shorter, longer, p.url.replace(/&X-Amz-Signature=[0-9a-f]+/, '')]) {
      const a = await call('PUT', url, { rawBody: fakeWebm() });
      expect(a.status, url).toBe(403);
      expect(a.headers['content-type']).toBe('application/xml');
      expect(xmlCode(a.text)).toBe('SignatureDoesNotMatch');
    }
    expect((await call('PUT', p.url, { rawBody: fakeWebm() })).status).toBe(200);
  });

  it('refuses an expired address with AccessDenied "Request has expired" in XML', async () => {
    const s = await start({ uploadTtlSeconds: 1 });
    const p = await prepare(s);
    await new Promise((r) => setTimeout(r, 2100));
    const late = await call('PUT', p.url, { rawBody: fakeWebm() });
    expect(late.status).toBe(403);
    expect(xmlCode(late.text)).toBe('AccessDenied');
    expect(late.text).toContain('<Message>Request has expired</Message>');
  });

  it('refuses a file over the size limit, by Content-Length and while streaming; nothing is kept', async () => {
    const s = await start({ maxUploadBytes: 10_000 });
    const p = await prepare(s);
    const big = await call('PUT', p.url, { rawBody: fakeWebm(20_000) });
    expect([big.status, xmlCode(big.text)]).toEqual([400, 'EntityTooLarge']);
    const { Readable } = await import('node:stream');
    const chunks = Readable.from([1, 2, 3, 4, 5].map(() => fakeWebm(4000)));
    const { request } = await import('undici');
    const streamed = await request(p.url, { method: 'PUT', body: chunks }).catch((e: Error) => e);
    if (!(streamed instanceof Error)) {
      expect(streamed.statusCode).toBe(400);
      await streamed.body.dump();
    }
    const scribe = await call('POST', `${s.urls.scribe_url}/scribe/request`, {
      token: p.access,
      body: {
        recording_session_public_id: p.recordingSessionId,
        template_public_id: (await firstTemplate(s, p.access)).public_id,
      },
    });
    expect([scribe.status, scribe.json['code']]).toEqual([409, 'file_not_uploaded']);
  });

  it('refuses a session that is not there or not the caller organization, and the old guessed body', async () => {
    const s = await start();
    const { access } = await signIn(s);
    const other = await signIn(s, OTHER_ACCOUNT);
    const session = await call<{ public_id: string }>('POST', `${s.urls.scribe_url}/recording-sessions/create`, {
      token: other.access,
      body: recordingSessionBody(),
    });
    const a = await call('POST', `${s.urls.scribe_url}/audio/generate-upload-url`, {
      token: access,
      body: { recording_session_public_id: session.json.public_id },
    });
    expect([a.status, a.json['code']]).toEqual([404, 'not_found']);
    const guessed = await call<Validation>('POST', `${s.urls.scribe_url}/audio/generate-upload-url`, {
      token: other.access,
      body: { recording_session_public_id: session.json.public_id, file_name: 'a.webm', content_type: 'audio/webm' },
    });
    expect(guessed.status).toBe(422);
    expect(guessed.json.detail.map((d) => d.loc.join('.'))).toEqual(['body.file_name', 'body.content_type']);
  });

  it('with auto_scribe_template_public_id, scribing starts by itself after the upload', async () => {
    const s = await start();
    const { access } = await signIn(s);
    const template = await firstTemplate(s, access);
    const { uploadUrl } = await uploadRecording(s, access, fakeWebm(), { autoTemplate: template.public_id });
    expect(s.stats().scribeRequests).toBe(1);
    // The same address PUT again (a retried upload) scribes nothing twice.
    expect((await call('PUT', uploadUrl, { rawBody: fakeWebm() })).status).toBe(200);
    expect(s.stats().scribeRequests).toBe(1);
    expect(Object.values(s.stats().scribeRecordsByFileKey)).toEqual([1]);
    const all = await call<Page<{ template_public_id: string }>>(
      'GET',
      `${s.urls.scribe_url}/scribe/all?page=1&limit=10`,
      { token: access },
    );
    expect(all.json.items.map((x) => x.template_public_id)).toEqual([template.public_id]);
  });
});
