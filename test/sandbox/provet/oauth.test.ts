// The Provet double's OAuth 2 over real HTTP: the authorization code with PKCE S256 (a real
// SHA-256 checked), the sign-in page and its Cancel, the refusals of RFC 6749, refresh with
// rotation, revoke, userinfo, and expiring access tokens.
import { FormData, request } from 'undici';
import { describe, expect, it } from 'vitest';
import { PROVET_USERS } from '../../../src/sandbox/index.ts';
import {
  api,
  authorizeUrl,
  exchangeCode,
  openSignInPage,
  pkce,
  provetSandbox,
  REDIRECT_URI,
  send,
  signInToProvet,
  submitSignIn,
  type ProvetTokens,
} from './support.ts';

const world = provetSandbox();

async function codeFor(state = 'state-1') {
  const s = world.sandbox;
  const { verifier, challenge } = pkce();
  const { requestId } = await openSignInPage(s, authorizeUrl(s, { code_challenge: challenge, state }));
  const { location } = await submitSignIn(s, requestId, { ...PROVET_USERS.demo, action: 'allow' });
  return { verifier, location, code: location?.searchParams.get('code') ?? '' };
}

function exchange(code: string, verifier: string, extra: Record<string, string> = {}) {
  return exchangeCode<ProvetTokens & { error: string; error_description: string }>(
    world.sandbox,
    code,
    verifier,
    extra,
  );
}

describe('authorization code with PKCE', () => {
  it('shows a sign-in page, redirects to the loopback address with a code and the state, and the verifier gets tokens', async () => {
    const s = world.sandbox;
    const { verifier, challenge } = pkce();
    const { page, requestId } = await openSignInPage(s, authorizeUrl(s, { code_challenge: challenge, state: 'x y&z' }));
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.text).toContain('name="password"');
    // A browser applies form-action to the redirect after the form as well: one would stop the
    // code from ever reaching the app's loopback port (seen in Chromium).
    expect(page.headers['content-security-policy']).not.toMatch(/form-action/);
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(requestId).not.toBe('');

    const { answer, location } = await submitSignIn(s, requestId, { ...PROVET_USERS.demo, action: 'allow' });
    expect(answer.status).toBe(302);
    expect(`${location?.origin}${location?.pathname}`).toBe(REDIRECT_URI);
    expect(location?.searchParams.get('state')).toBe('x y&z');
    const code = location?.searchParams.get('code') ?? '';
    expect(code.length).toBeGreaterThan(20);

    const token = await exchange(code, verifier);
    expect(token.status).toBe(200);
    expect(token.headers['cache-control']).toBe('no-store');
    expect(token.json).toMatchObject({ token_type: 'Bearer', expires_in: 36_000, scope: 'restapi openid' });
    expect(token.json.access_token).toEqual(expect.any(String));
    expect(token.json.refresh_token).not.toBe(token.json.access_token);
    const me = await send('GET', api(s, 'user/11/'), { token: token.json.access_token });
    expect(me.status).toBe(200);
  });

  it('refuses a wrong verifier (the SHA-256 must match), and the code is spent', async () => {
    const { code, verifier } = await codeFor();
    const wrong = await exchange(code, pkce().verifier);
    expect(wrong.status).toBe(400);
    expect(wrong.json.error).toBe('invalid_grant');
    expect(wrong.json.error_description).toMatch(/code_verifier/);
    expect((await exchange(code, verifier)).json.error).toBe('invalid_grant');
  });

  it('refuses a code used twice and takes back the tokens it gave', async () => {
    const { code, verifier } = await codeFor();
    const first = await exchange(code, verifier);
    expect(first.status).toBe(200);
    const again = await exchange(code, verifier);
    expect(again.status).toBe(400);
    expect(again.json).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/already used/),
    });
    expect((await send('GET', api(world.sandbox, 'user/'), { token: first.json.access_token })).status).toBe(401);
  });

  it('refuses a redirect_uri that differs from the authorization request', async () => {
    const { code, verifier } = await codeFor();
    const answer = await exchange(code, verifier, { redirect_uri: 'http://127.0.0.1:1/other' });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('invalid_grant');
  });

  it('Cancel redirects with access_denied and the state', async () => {
    const s = world.sandbox;
    const { requestId } = await openSignInPage(
      s,
      authorizeUrl(s, { code_challenge: pkce().challenge, state: 'keep-me' }),
    );
    const { answer, location } = await submitSignIn(s, requestId, { action: 'cancel' });
    expect(answer.status).toBe(302);
    expect(location?.searchParams.get('error')).toBe('access_denied');
    expect(location?.searchParams.get('state')).toBe('keep-me');
    expect(location?.searchParams.has('code')).toBe(false);
  });

  it('a wrong password shows the page again with a sentence, and no redirect', async () => {
    const s = world.sandbox;
    const { requestId } = await openSignInPage(s, authorizeUrl(s, { code_challenge: pkce().challenge }));
    const { answer, location } = await submitSignIn(s, requestId, {
      username: 'hale',
      password: 'nope',
      action: 'allow',
    });
    expect(answer.status).toBe(200);
    expect(location).toBeNull();
    expect(answer.text).toContain('The username or password is not right.');
  });

  it('refuses an unknown client and a redirect that is not loopback on a page, never redirecting', async () => {
    const s = world.sandbox;
    const unknown = await send('GET', authorizeUrl(s, { client_id: 'someone-else', code_challenge: pkce().challenge }));
    expect(unknown.status).toBe(400);
    expect(unknown.headers['location']).toBeUndefined();
    expect(unknown.text).toContain('invalid_client');
    for (const redirect of ['https://evil.example/cb', 'http://localhost:5000/cb', 'http://127.0.0.1:5000/cb#x']) {
      const answer = await send('GET', authorizeUrl(s, { redirect_uri: redirect, code_challenge: pkce().challenge }));
      expect(answer.status, redirect).toBe(400);
      expect(answer.headers['location']).toBeUndefined();
    }
  });

  it('redirects the refusals after the client and redirect are trusted: no challenge, plain, a wrong response_type, an unknown scope', async () => {
    const s = world.sandbox;
    const cases: [Parameters<typeof authorizeUrl>[1], string][] = [
      [{ code_challenge: null }, 'invalid_request'],
      [{ code_challenge: pkce().challenge, code_challenge_method: 'plain' }, 'invalid_request'],
      [{ code_challenge: pkce().challenge, response_type: 'token' }, 'unsupported_response_type'],
      [{ code_challenge: pkce().challenge, scope: 'restapi admin' }, 'invalid_scope'],
    ];
    for (const [params, error] of cases) {
      const answer = await send('GET', authorizeUrl(s, { ...params, state: 's1' }));
      expect(answer.status, error).toBe(302);
      const to = new URL(String(answer.headers['location']));
      expect(to.searchParams.get('error')).toBe(error);
      expect(to.searchParams.get('state')).toBe('s1');
    }
  });

  it('the token endpoint takes form bodies only, and names an unknown client and grant', async () => {
    const s = world.sandbox;
    const asJson = await send('POST', `${s.provet.address}/oauth2/token/`, {
      json: { grant_type: 'refresh_token', refresh_token: 'x', client_id: s.provet.clientId },
    });
    expect(asJson.status).toBe(400);
    expect(asJson.json['error']).toBe('invalid_request');
    const client = await send('POST', `${s.provet.address}/oauth2/token/`, {
      form: { grant_type: 'refresh_token', refresh_token: 'x', client_id: 'nobody' },
    });
    expect(client.status).toBe(401);
    expect(client.json['error']).toBe('invalid_client');
    const grant = await send('POST', `${s.provet.address}/oauth2/token/`, {
      form: { grant_type: 'password', client_id: s.provet.clientId },
    });
    expect(grant.json['error']).toBe('unsupported_grant_type');
  });
});

describe('the token endpoint as Provet documents it', () => {
  it('takes a multipart/form-data body and the client in HTTP Basic too', async () => {
    const s = world.sandbox;
    const { code, verifier } = await codeFor();
    const form = new FormData();
    for (const [k, v] of Object.entries({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    }))
      form.append(k, v);
    const answer = await request(`${s.provet.address}/oauth2/token/`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${s.provet.clientId}:`).toString('base64')}` },
      body: form,
    });
    const body = (await answer.body.json()) as ProvetTokens;
    expect(answer.statusCode).toBe(200);
    expect(body.access_token).toEqual(expect.any(String));
  });
});

describe('staying signed in and signing out', () => {
  it('refresh rotates: the new pair works, the old refresh and access tokens do not', async () => {
    const s = world.sandbox;
    const first = await signInToProvet(s);
    const refreshed = await send<ProvetTokens>('POST', `${s.provet.address}/oauth2/token/`, {
      form: { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: s.provet.clientId },
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.json.refresh_token).not.toBe(first.refresh_token);
    expect((await send('GET', api(s, 'user/'), { token: refreshed.json.access_token })).status).toBe(200);
    expect((await send('GET', api(s, 'user/'), { token: first.access_token })).status).toBe(401);
    const reused = await send('POST', `${s.provet.address}/oauth2/token/`, {
      form: { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: s.provet.clientId },
    });
    expect(reused.status).toBe(400);
    expect(reused.json['error']).toBe('invalid_grant');
  });

  it('revoking the refresh token ends the sign-in; an unknown token is still 200', async () => {
    const s = world.sandbox;
    const tokens = await signInToProvet(s);
    const revoke = (token: string) =>
      send('POST', `${s.provet.address}/oauth2/revoke_token/`, { form: { token, client_id: s.provet.clientId } });
    expect((await revoke(tokens.refresh_token)).status).toBe(200);
    expect((await send('GET', api(s, 'user/'), { token: tokens.access_token })).status).toBe(401);
    const refresh = await send('POST', `${s.provet.address}/oauth2/token/`, {
      form: { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: s.provet.clientId },
    });
    expect(refresh.json['error']).toBe('invalid_grant');
    expect((await revoke('never-issued')).status).toBe(200);
  });

  it('userinfo answers the vet with openid, and refuses without that scope', async () => {
    const s = world.sandbox;
    const colleague = await signInToProvet(s, PROVET_USERS.colleague);
    const info = await send('GET', `${s.provet.address}/oauth2/userinfo/`, { token: colleague.access_token });
    expect(info.status).toBe(200);
    expect(info.json).toMatchObject({
      sub: '12',
      given_name: 'Sam',
      family_name: 'Moreno',
      preferred_username: 'moreno',
    });
    const apiOnly = await signInToProvet(s, PROVET_USERS.demo, 'restapi');
    expect((await send('GET', `${s.provet.address}/oauth2/userinfo/`, { token: apiOnly.access_token })).status).toBe(
      403,
    );
    expect((await send('GET', `${s.provet.address}/oauth2/userinfo/`)).status).toBe(401);
  });

  it('an access token expires (the lifetime is the sandbox option, here two seconds)', async () => {
    const s = world.sandbox;
    s.options.provetAccessTtlSeconds = 2;
    try {
      const before = Date.now();
      const tokens = await signInToProvet(s);
      expect(tokens.expires_in).toBe(2);
      expect((await send('GET', api(s, 'user/'), { token: tokens.access_token })).status).toBe(200);
      // Past the lifetime counted from before the sign-in, however slow the machine was.
      await new Promise((r) => setTimeout(r, Math.max(0, before + 2100 - Date.now())));
      const late = await send('GET', api(s, 'user/'), { token: tokens.access_token });
      expect(late.status).toBe(401);
      expect(late.headers['www-authenticate']).toMatch(/Bearer/);
    } finally {
      s.options.provetAccessTtlSeconds = 36_000;
    }
  });

  it('the API refuses a request without a token in DRF words', async () => {
    const answer = await send('GET', api(world.sandbox, 'appointment/'));
    expect(answer.status).toBe(401);
    expect(answer.json).toEqual({ detail: 'Authentication credentials were not provided.' });
  });
});
