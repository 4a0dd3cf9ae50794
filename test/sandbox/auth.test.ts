// POST /auth/sign-in, POST /auth/refresh-token and POST /auth/login against a real sandbox over loopback: sign-in, refresh with rotation and
// reuse detection, expiry, and the error answers of the auth routes.
import { describe, expect, it } from 'vitest';
import { OTHER_ACCOUNT, type Sandbox } from '../../src/sandbox/index.ts';
import { call, signIn } from '../support/http.ts';
import { sandboxPerTest } from './support.ts';

const start = sandboxPerTest();

describe('POST /auth/sign-in: sign-in', () => {
  it('answers the token set with the user', async () => {
    const s = await start();
    const a = await call<Record<string, unknown> & { user: Record<string, unknown> }>(
      'POST',
      `${s.urls.agents_url}/auth/sign-in`,
      { body: s.demo },
    );
    expect(a.status).toBe(200);
    expect(a.json).toMatchObject({ token_type: 'bearer' });
    expect(typeof a.json['access_token']).toBe('string');
    expect(typeof a.json['refresh_token']).toBe('string');
    expect(a.json['expires_at']).toBeGreaterThan(Date.now() / 1000);
    expect(a.json['refresh_expires_at']).toBeGreaterThan(a.json['expires_at'] as number);
    expect(Object.keys(a.json.user).sort()).toEqual(['email', 'id', 'name', 'organization_id']);
    expect(a.json.user['email']).toBe(s.demo.email);
    // A real JWT: three base64url parts, the payload carries the expiry the answer states.
    const payload = JSON.parse(
      Buffer.from(String(a.json['access_token']).split('.')[1] ?? '', 'base64url').toString(),
    ) as { exp: number };
    expect(payload.exp).toBe(a.json['expires_at']);
  });

  it('an access token lasts an hour by default, as published', async () => {
    const s = await start();
    const before = Math.floor(Date.now() / 1000);
    const a = await call<{ expires_at: number }>('POST', `${s.urls.agents_url}/auth/sign-in`, { body: s.demo });
    expect(a.json.expires_at - before).toBeGreaterThanOrEqual(3600);
    expect(a.json.expires_at - before).toBeLessThanOrEqual(3600 + 60);
  });

  it('POST /auth/login /auth/login on scribe_url answers as its reference page shows: tokens, expiry, and the user under the public names', async () => {
    const s = await start();
    const a = await call<Record<string, unknown> & { user: Record<string, unknown> }>(
      'POST',
      `${s.urls.scribe_url}/auth/login`,
      { body: s.demo },
    );
    expect(a.status).toBe(200);
    expect(Object.keys(a.json).sort()).toEqual([
      'access_token',
      'expires_at',
      'refresh_expires_at',
      'refresh_token',
      'token_type',
      'user',
    ]);
    expect(a.json['token_type']).toBe('bearer');
    const payload = JSON.parse(
      Buffer.from(String(a.json['access_token']).split('.')[1] ?? '', 'base64url').toString(),
    ) as { exp: number };
    expect(payload.exp).toBe(a.json['expires_at']);
    const me = await call<Record<string, unknown>>('GET', `${s.urls.scribe_url}/users/me`, {
      token: String(a.json['access_token']),
    });
    expect(a.json.user).toEqual(me.json);
    expect(Object.keys(a.json.user).sort()).toEqual(['email', 'name', 'organization_public_id', 'public_id']);
  });

  const loc = (field?: string) => (field ? ['body', field] : ['body']);
  it.each([
    {
      name: 'wrong password',
      body: { email: 'demo@vetscribe.test', password: 'nope' },
      status: 401,
      detail: 'Invalid credentials',
    },
    {
      name: 'unknown e-mail',
      body: { email: 'nobody@vetscribe.test', password: 'x' },
      status: 401,
      detail: 'Invalid credentials',
    },
    {
      name: 'missing password',
      body: { email: 'demo@vetscribe.test' },
      status: 422,
      detail: [{ loc: loc('password'), msg: 'Field required', type: 'missing' }],
    },
    {
      name: 'e-mail not an address',
      body: { email: 'demo', password: 'x' },
      status: 422,
      detail: [{ loc: loc('email'), msg: 'must be an e-mail address', type: 'value_error' }],
    },
    {
      name: 'wrong types',
      body: { email: 1, password: true },
      status: 422,
      detail: [
        { loc: loc('email'), msg: expect.any(String), type: 'string_type' },
        { loc: loc('password'), msg: 'Input should be a valid string', type: 'string_type' },
      ],
    },
    {
      name: 'an array',
      body: [1, 2],
      status: 422,
      detail: [
        {
          loc: loc(),
          msg: 'Input should be a valid dictionary or object to extract fields from',
          type: 'model_attributes_type',
        },
      ],
    },
  ])('$name -> $status', async ({ body, status, detail }) => {
    const s = await start();
    for (const url of [`${s.urls.agents_url}/auth/sign-in`, `${s.urls.scribe_url}/auth/login`]) {
      const a = await call('POST', url, { body });
      expect(a.status).toBe(status);
      expect(a.json['detail']).toEqual(detail);
    }
  });

  it('malformed JSON, no body, other content type and oversized bodies are refused as FastAPI refuses them', async () => {
    const s = await start();
    const url = `${s.urls.agents_url}/auth/sign-in`;
    const bad = await call('POST', url, { rawBody: '{"email":', headers: { 'content-type': 'application/json' } });
    expect([bad.status, bad.json['detail']]).toEqual([
      422,
      [{ loc: ['body', 9], msg: 'JSON decode error', type: 'json_invalid' }],
    ]);
    const empty = await call('POST', url, { rawBody: '', headers: { 'content-type': 'application/json' } });
    expect([empty.status, empty.json['detail']]).toEqual([
      422,
      [{ loc: ['body'], msg: 'Field required', type: 'missing' }],
    ]);
    // FastAPI reads JSON without a Content-Type, and hands the model raw bytes for any other type.
    const untyped = await call('POST', url, { rawBody: JSON.stringify(s.demo) });
    expect(untyped.status).toBe(200);
    const form = await call('POST', url, {
      rawBody: 'email=a',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect([form.status, form.json['detail']]).toEqual([
      422,
      [
        {
          loc: ['body'],
          msg: 'Input should be a valid dictionary or object to extract fields from',
          type: 'model_attributes_type',
        },
      ],
    ]);
    const huge = await call('POST', url, { body: { email: 'a@b.test', password: 'x'.repeat(1024 * 1024 + 10) } });
    expect([huge.status, huge.json['code']]).toEqual([413, 'payload_too_large']);
    // And it still serves.
    expect((await call('POST', url, { body: s.demo })).status).toBe(200);
  });
});

describe('POST /auth/refresh-token: refresh', () => {
  const refresh = (s: Sandbox, access: string | undefined, token: string, apiVersion: string | null = 'v1') =>
    call<Record<string, unknown> & { user: Record<string, unknown> }>(
      'POST',
      `${s.urls.scribe_url}/auth/refresh-token`,
      {
        ...(access ? { token: access } : {}),
        body: { token },
        apiVersion,
      },
    );

  it('rotates the refresh token and answers the token set with its own user field names', async () => {
    const s = await start();
    const first = await signIn(s);
    const a = await refresh(s, first.access, first.refresh);
    expect(a.status).toBe(200);
    expect(a.json['refresh_token']).not.toBe(first.refresh);
    expect(a.json['access_token']).not.toBe(first.access);
    expect(a.json['token_type']).toBe('bearer');
    expect(Object.keys(a.json.user).sort()).toEqual(['email', 'name', 'organization_public_id', 'public_id']);
    expect(a.json.user['public_id']).toBe(first.user.id);
    // The new pair works, and refreshes again.
    const again = await refresh(s, String(a.json['access_token']), String(a.json['refresh_token']));
    expect(again.status).toBe(200);
    expect(s.stats().refreshes).toBe(2);
  });

  it('with refreshTokensOnly, answers only the three OpenAPI token fields, and the new pair works', async () => {
    const s = await start({ refreshTokensOnly: true });
    const t = await signIn(s);
    const a = await refresh(s, t.access, t.refresh);
    expect(a.status).toBe(200);
    expect(Object.keys(a.json).sort()).toEqual(['access_token', 'refresh_token', 'token_type']);
    const me = await call('GET', `${s.urls.scribe_url}/users/me`, { token: String(a.json['access_token']) });
    expect(me.status).toBe(200);
    expect((await refresh(s, String(a.json['access_token']), String(a.json['refresh_token']))).status).toBe(200);
  });

  it('requires X-API-Version: v1', async () => {
    const s = await start();
    const t = await signIn(s);
    const none = await refresh(s, t.access, t.refresh, null);
    expect([none.status, none.json['detail']]).toEqual([
      422,
      [{ loc: ['header', 'x-api-version'], msg: 'Field required', type: 'missing' }],
    ]);
    const other = await refresh(s, t.access, t.refresh, 'v9');
    expect([other.status, other.json['code']]).toEqual([400, 'unsupported_api_version']);
  });

  it('requires the bearer access token of the same session', async () => {
    const s = await start();
    const t = await signIn(s);
    const none = await refresh(s, undefined, t.refresh);
    expect([none.status, none.json['code']]).toEqual([401, 'not_authenticated']);
    const forged = await refresh(s, `${t.access.slice(0, -4)}AAAA`, t.refresh);
    expect([forged.status, forged.json['code']]).toEqual([401, 'invalid_token']);
    const other = await signIn(s, OTHER_ACCOUNT);
    const mixed = await refresh(s, other.access, t.refresh);
    expect([mixed.status, mixed.json['code']]).toEqual([401, 'invalid_token']);
    const swapped = await refresh(s, t.access, t.access);
    expect([swapped.status, swapped.json['code']]).toEqual([401, 'invalid_token']);
  });

  it('accepts an expired access token (the normal case) but refuses an expired refresh token', async () => {
    // The refresh token lives long enough to outlast a slow machine between the two steps.
    const s = await start({ accessTtlSeconds: 1, refreshTtlSeconds: 4 });
    const t = await signIn(s);
    await new Promise((r) => setTimeout(r, 1100));
    const expired = await call('POST', `${s.urls.scribe_url}/recording-sessions/create`, { token: t.access, body: {} });
    expect([expired.status, expired.json['code']]).toEqual([401, 'token_expired']);
    const ok = await refresh(s, t.access, t.refresh);
    expect(ok.status).toBe(200);
    await new Promise((r) => setTimeout(r, 4100));
    const late = await refresh(s, String(ok.json['access_token']), String(ok.json['refresh_token']));
    expect([late.status, late.json['code']]).toEqual([401, 'refresh_token_expired']);
  });

  it('a reused refresh token revokes the whole family, access tokens included', async () => {
    const s = await start({ refreshReuseGraceSeconds: 0 });
    const t = await signIn(s);
    const rotated = await refresh(s, t.access, t.refresh);
    expect(rotated.status).toBe(200);
    const reuse = await refresh(s, t.access, t.refresh);
    expect([reuse.status, reuse.json['code']]).toEqual([401, 'refresh_token_reused']);
    expect(s.stats().refreshReuseDetected).toBe(1);
    // The thief's rotated token is now dead too, and so is the access token it came with.
    const next = await refresh(s, String(rotated.json['access_token']), String(rotated.json['refresh_token']));
    expect([next.status, next.json['code']]).toEqual([401, 'session_revoked']);
    const use = await call('GET', `${s.urls.scribe_url}/templates/all?page=1&limit=50`, {
      token: String(rotated.json['access_token']),
    });
    expect([use.status, use.json['code']]).toEqual([401, 'session_revoked']);
    // Another sign-in is a new family and unaffected.
    expect((await signIn(s)).access).toEqual(expect.any(String));
  });

  it('the token rotated away last is answered again within the grace (a lost answer), not after', async () => {
    const s = await start({ refreshReuseGraceSeconds: 3 });
    const t = await signIn(s);
    const first = await refresh(s, t.access, t.refresh);
    const replay = await refresh(s, t.access, t.refresh);
    expect(replay.status).toBe(200);
    expect(replay.json['refresh_token']).toBe(first.json['refresh_token']);
    expect(s.stats()).toMatchObject({ refreshes: 1, refreshReplays: 1, refreshReuseDetected: 0 });
    await new Promise((r) => setTimeout(r, 3100));
    const late = await refresh(s, t.access, t.refresh);
    expect([late.status, late.json['code']]).toEqual([401, 'refresh_token_reused']);
  });
});

describe('X-API-Version', () => {
  const missing = { loc: ['header', 'x-api-version'], msg: 'Field required', type: 'missing' };

  it('is required where the OpenAPI document marks it: a 422 naming the header, listed before the body faults', async () => {
    const s = await start();
    const t = await signIn(s);
    const marked: [string, string, unknown][] = [
      ['POST', `${s.urls.scribe_url}/auth/login`, s.demo],
      ['POST', `${s.urls.scribe_url}/auth/refresh-token`, { token: t.refresh }],
      ['GET', `${s.urls.scribe_url}/users/me`, undefined],
      [
        'POST',
        `${s.urls.scribe_url}/recording-sessions/create`,
        { patient_name: 'Bella', description: '', session_date: '2026-11-25' },
      ],
      ['POST', `${s.urls.scribe_url}/audio/generate-upload-url`, { recording_session_public_id: 'x' }],
      ['POST', `${s.urls.scribe_url}/scribe/request`, { recording_session_public_id: 'x', template_public_id: 'y' }],
    ];
    for (const [method, url, body] of marked) {
      const a = await call(method, url, { token: t.access, body, apiVersion: null });
      expect([method, url, a.status, a.json['detail']]).toEqual([method, url, 422, [missing]]);
    }
    const both = await call('POST', `${s.urls.scribe_url}/recording-sessions/create`, {
      token: t.access,
      body: { description: '' },
      apiVersion: null,
    });
    expect(both.json['detail']).toEqual([
      missing,
      { loc: ['body', 'patient_name'], msg: 'Field required', type: 'missing' },
      { loc: ['body', 'session_date'], msg: 'Field required', type: 'missing' },
    ]);
  });

  it('may be left out where the document lists no such parameter (sign-in, lists, gets, agents)', async () => {
    const s = await start();
    const signedIn = await call<{ access_token: string }>('POST', `${s.urls.agents_url}/auth/sign-in`, {
      body: s.demo,
      apiVersion: null,
    });
    expect(signedIn.status).toBe(200);
    const token = signedIn.json.access_token;
    for (const url of [
      `${s.urls.scribe_url}/templates/all`,
      `${s.urls.scribe_url}/scribe/all`,
      `${s.urls.scribe_url}/recording-sessions/all`,
      `${s.urls.scribe_url}/organizations/get`,
    ]) {
      expect([url, (await call('GET', url, { token, apiVersion: null })).status]).toEqual([url, 200]);
    }
    const ddx = await call('POST', `${s.urls.agents_api_url}/ddx_agent_v2`, {
      token,
      body: { input: 'Dog, 6 years, vomiting for 2 days' },
      apiVersion: null,
    });
    expect(ddx.status).toBe(200);
  });
});

describe('every route', () => {
  it('answers unknown paths 404 and wrong methods 405 with Allow', async () => {
    const s = await start();
    const missing = await call('GET', `${s.urls.scribe_url}/nothing/here`);
    expect([missing.status, missing.json['code']]).toEqual([404, 'not_found']);
    const method = await call('GET', `${s.urls.agents_url}/auth/sign-in`);
    expect([method.status, method.json['code']]).toEqual([405, 'method_not_allowed']);
    expect(method.headers['allow']).toBe('POST');
  });

  it('needs a valid bearer token on the authenticated rows', async () => {
    const s = await start();
    const rows: [string, string][] = [
      ['POST', `${s.urls.scribe_url}/recording-sessions/create`],
      ['GET', `${s.urls.scribe_url}/templates/all`],
      ['POST', `${s.urls.scribe_url}/audio/generate-upload-url`],
      ['POST', `${s.urls.scribe_url}/scribe/request`],
      ['GET', `${s.urls.scribe_url}/scribe/get/x`],
      ['POST', `${s.urls.agents_api_url}/ddx_agent_v2`],
      ['POST', `${s.urls.agents_api_url}/treatment_plan_agent_v2`],
      ['PATCH', `${s.urls.scribe_url}/organizations/update-email-for-notification`],
      ['PATCH', `${s.urls.scribe_url}/webhook/status`],
    ];
    for (const [method, url] of rows) {
      const body = method === 'GET' ? undefined : {};
      const none = await call(method, url, { body });
      expect([method, url, none.status, none.json['code']]).toEqual([method, url, 401, 'not_authenticated']);
      const junk = await call(method, url, { body, token: 'not.a.jwt' });
      expect([method, url, junk.status, junk.json['code']]).toEqual([method, url, 401, 'invalid_token']);
    }
  });
});
