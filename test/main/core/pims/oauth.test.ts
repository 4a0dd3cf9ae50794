// The sign-in to a PIMS as a public desktop client (src/main/core/pims/oauth.ts,
// browser-sign-in.ts, provet/instance.ts): PKCE S256 with RFC 7636's own example, the Provet
// address and client ID checked before anything is sent, the authorization request, and the code
// exchange, refresh and revoke as form-encoded POSTs. The OAuth server is the sandbox's Provet
// double over real HTTP, started once for the file; the "browser" drives its sign-in page (or its
// Cancel) and follows the redirect to the app's loopback port. What the app sent is noted on its
// own HTTP route (recordingHttp), since the double keeps no token or form.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PimsError } from '../../../../src/main/core/pims/index.ts';
import {
  authorizeRequestUrl,
  exchangeCode,
  newPkce,
  newState,
  pkceChallenge,
  provetInstance,
  provetOAuthClient,
  refreshTokens,
  revokeToken,
  signInWithBrowser,
  type OAuthClient,
} from '../../../../src/main/core/pims/index.ts';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.ts';
import { browse, nothingListens, recordingHttp, type SentRequest } from './provet-double.ts';
import { pimsFailure as failure } from './support.ts';

describe('PKCE (RFC 7636)', () => {
  it('gives the challenge of RFC 7636 appendix B for its verifier', () => {
    expect(pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('makes a fresh verifier of 43 unreserved characters each time, with its S256 challenge', () => {
    const a = newPkce();
    const b = newPkce();
    expect(a.verifier).toMatch(/^[A-Za-z0-9\-._~]{43}$/);
    expect(a.verifier).not.toBe(b.verifier);
    expect(a.challenge).toBe(pkceChallenge(a.verifier));
    expect(a.method).toBe('S256');
    expect(newState()).not.toBe(newState());
  });

  it('refuses a verifier shorter than 43 characters or with other characters', () => {
    expect(() => pkceChallenge('short')).toThrow(/43 to 128/);
    expect(() => pkceChallenge(`${'a'.repeat(42)}+`)).toThrow(/43 to 128/);
  });
});

describe('the Provet address and client ID', () => {
  it('derives every address from the instance, trailing slashes kept', () => {
    for (const typed of ['https://provetcloud.com/54321', ' https://provetcloud.com/54321/ ']) {
      expect(provetInstance(typed)).toEqual({
        base: 'https://provetcloud.com/54321/',
        api: 'https://provetcloud.com/54321/api/0.1/',
        authorizeUrl: 'https://provetcloud.com/54321/oauth2/authorize/',
        tokenUrl: 'https://provetcloud.com/54321/oauth2/token/',
        revokeUrl: 'https://provetcloud.com/54321/oauth2/revoke_token/',
        userInfoUrl: 'https://provetcloud.com/54321/oauth2/userinfo/',
      });
    }
    expect(provetInstance('https://us.provetcloud.com/4').api).toBe('https://us.provetcloud.com/4/api/0.1/');
    expect(provetInstance('http://127.0.0.1:8123/provet/4').base).toBe('http://127.0.0.1:8123/provet/4/');
  });

  it.each([
    ['', /empty/],
    ['provetcloud.com/54321', /not a web address/],
    ['http://provetcloud.com/54321', /must start with https/],
    ['ftp://provetcloud.com/54321', /must start with https/],
    ['https://provetcloud.com', /missing the clinic's number/],
    ['https://provetcloud.com/54321/api/0.1/', /leave out anything after it/],
    ['https://provetcloud.com/54321?x=1', /no "\?" or "#" part/],
    ['https://me:pw@provetcloud.com/54321', /user name or password/],
    ['https://provetcloud.com/54%2021', /characters it cannot have/],
  ])('refuses %j with a sentence that says why', (typed, why) => {
    const e = (() => {
      try {
        provetInstance(typed);
      } catch (err) {
        return err as PimsError;
      }
      throw new Error('accepted');
    })();
    expect(e.code).toBe('bad_input');
    expect(e.message).toMatch(why);
    expect(e.message).toContain('https://provetcloud.com/12345');
  });

  it('refuses an empty client ID or one with spaces', () => {
    const instance = provetInstance('https://provetcloud.com/54321');
    expect(() => provetOAuthClient(instance, '  ')).toThrow(/client ID is empty/);
    expect(() => provetOAuthClient(instance, 'abc def')).toThrow(/copy it again/);
    expect(provetOAuthClient(instance, ' abc ').clientId).toBe('abc');
  });

  it('builds the authorization request with PKCE S256, the state and the loopback redirect', () => {
    const client = provetOAuthClient(provetInstance('https://provetcloud.com/54321'), 'client-1');
    const url = new URL(
      authorizeRequestUrl(client, {
        redirectUri: 'http://127.0.0.1:5000/callback/x',
        state: 's-1',
        challenge: 'c-1',
        scope: 'restapi',
      }),
    );
    expect(url.origin + url.pathname).toBe('https://provetcloud.com/54321/oauth2/authorize/');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'client-1',
      redirect_uri: 'http://127.0.0.1:5000/callback/x',
      state: 's-1',
      code_challenge: 'c-1',
      code_challenge_method: 'S256',
      scope: 'restapi',
    });
  });
});

describe('the sign-in, exchange, refresh and revoke against the Provet double', () => {
  let s: Sandbox;
  let client: OAuthClient;
  let route: ReturnType<typeof recordingHttp>;
  beforeAll(async () => {
    s = await startSandbox({ scribeSeconds: 0 });
    client = provetOAuthClient(provetInstance(s.provet.address), s.provet.clientId);
    route = recordingHttp();
  });
  afterAll(async () => {
    await route?.close();
    await s?.close();
  });
  beforeEach(() => {
    route.sent.length = 0;
  });

  const browser = (url: string) => browse(s, url);
  const tokenPosts = () => s.provet.requests()['POST oauth2/token/'] ?? 0;
  const sentTo = (path: string): SentRequest[] => route.sent.filter((r) => r.path.endsWith(path));
  /** The status the double's REST API answers a token with. */
  const apiStatus = async (token: string) => {
    const answer = await request(`${s.provet.address}/api/0.1/user/11/`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await answer.body.text();
    return answer.statusCode;
  };

  it('signs in through the browser: the code comes back on loopback and is traded with the verifier', async () => {
    const opened: string[] = [];
    const lines: string[] = [];
    const tokens = await signInWithBrowser({
      client,
      openBrowser: async (url) => {
        opened.push(url);
        await browser(url);
      },
      http: { ...route.http, log: (l) => lines.push(l) },
    });
    expect(opened).toHaveLength(1);
    const asked = new URL(opened[0]!).searchParams;
    expect(asked.get('code_challenge_method')).toBe('S256');
    expect(await apiStatus(tokens.accessToken)).toBe(200);
    expect(tokens.refreshToken).toEqual(expect.any(String));
    expect(tokens.refreshToken).not.toBe(tokens.accessToken);
    // Provet's access tokens last 10 hours; the scope is Provet's default, restapi.
    expect(tokens.expiresAt! - tokens.obtainedAt).toBe(36_000_000);
    expect(tokens.scope).toBe('restapi');
    const [exchange, ...more] = sentTo('/oauth2/token/');
    expect(more).toEqual([]);
    expect(exchange?.contentType).toBe('application/x-www-form-urlencoded');
    expect(Object.keys(exchange?.form ?? {}).sort()).toEqual(
      ['client_id', 'code', 'code_verifier', 'grant_type', 'redirect_uri'].sort(),
    );
    expect(exchange?.form).toMatchObject({ grant_type: 'authorization_code', client_id: s.provet.clientId });
    expect(exchange?.form['redirect_uri']).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\/[0-9a-f]{16}$/);
    expect(exchange?.form['redirect_uri']).toBe(asked.get('redirect_uri'));
    // The verifier sent is the one the challenge in the browser's address was made from.
    expect(pkceChallenge(exchange!.form['code_verifier']!)).toBe(asked.get('code_challenge'));
    // The log says which call and how it went, never a token or a code.
    expect(lines.join('\n')).toMatch(/POST \/provet\/4321\/oauth2\/token\/ 200/);
    for (const secret of [tokens.accessToken, tokens.refreshToken!, exchange!.form['code']!])
      expect(lines.join('\n')).not.toContain(secret);
  });

  it('says the sign-in was cancelled when the vet presses Cancel on the sign-in page', async () => {
    const before = tokenPosts();
    const e = await failure(
      signInWithBrowser({ client, openBrowser: (url) => browse(s, url, undefined, 'cancel'), http: route.http }),
    );
    expect(e.code).toBe('sign_in_failed');
    expect(e.message).toBe('The sign-in to Provet was cancelled or its page closed before signing in.');
    expect(tokenPosts()).toBe(before);
    expect(route.sent).toEqual([]);
  });

  it('refuses an answer whose state is not the one it sent, and trades no code', async () => {
    const before = tokenPosts();
    const e = await failure(
      signInWithBrowser({
        client,
        openBrowser: async (url) => {
          // An answer to a sign-in this app did not start: Provet sends back the state it was given.
          const u = new URL(url);
          u.searchParams.set('state', 'forged');
          await browser(u.toString());
        },
        http: route.http,
      }),
    );
    expect(e.code).toBe('sign_in_failed');
    expect(e.message).toMatch(/state that does not match/);
    expect(tokenPosts()).toBe(before);
  });

  it('says when the client ID is one Provet does not know', async () => {
    const wrong = { ...client, clientId: 'not-ours' };
    const e = await failure(
      exchangeCode(wrong, { code: 'x', verifier: newPkce().verifier, redirectUri: 'http://127.0.0.1:1/' }),
    );
    expect(e.code).toBe('bad_input');
    expect(e.message).toMatch(/does not accept the client ID "not-ours"/);
  });

  it('refuses a code traded with another verifier than the one its challenge was made from', async () => {
    const e = await failure(
      signInWithBrowser({
        client,
        openBrowser: async (url) => {
          // A code intercepted on its way back is useless without the verifier: trade it with another.
          const u = new URL(url);
          u.searchParams.set('code_challenge', newPkce().challenge);
          await browser(u.toString());
        },
        http: route.http,
      }),
    );
    expect(e.code).toBe('sign_in_failed');
    expect(sentTo('/oauth2/token/').map((r) => r.form['grant_type'])).toEqual(['authorization_code']);
  });

  it('refreshes with a form-encoded refresh grant that rotates the pair; a refresh token used twice is refused as signed out', async () => {
    const first = await signInWithBrowser({ client, openBrowser: browser });
    const fresh = await refreshTokens(client, first.refreshToken!, route.http);
    expect(fresh.accessToken).not.toBe(first.accessToken);
    expect(fresh.refreshToken).not.toBe(first.refreshToken);
    const [refresh] = sentTo('/oauth2/token/');
    expect(refresh?.contentType).toBe('application/x-www-form-urlencoded');
    expect(refresh?.form).toEqual({
      grant_type: 'refresh_token',
      refresh_token: first.refreshToken,
      client_id: s.provet.clientId,
    });
    // The old pair stops working, the new one carries on.
    expect(await apiStatus(first.accessToken)).toBe(401);
    expect(await apiStatus(fresh.accessToken)).toBe(200);
    const again = await failure(refreshTokens(client, first.refreshToken!));
    expect(again.code).toBe('signed_out');
    expect(again.message).toMatch(/^Sign in to Provet again/);
  });

  it('revokes with the token and its hint, and the sign-in ends at Provet', async () => {
    const tokens = await signInWithBrowser({ client, openBrowser: browser });
    await revokeToken(client, tokens.refreshToken!, 'refresh_token', route.http);
    const [revoke, ...more] = sentTo('/oauth2/revoke_token/');
    expect(more).toEqual([]);
    expect(revoke?.contentType).toBe('application/x-www-form-urlencoded');
    expect(revoke?.form).toEqual({
      token: tokens.refreshToken,
      token_type_hint: 'refresh_token',
      client_id: s.provet.clientId,
    });
    // Withdrawing the refresh token withdraws the access token issued with it.
    expect(await apiStatus(tokens.accessToken)).toBe(401);
    expect((await failure(refreshTokens(client, tokens.refreshToken!))).code).toBe('signed_out');
    // A token Provet does not know is answered 200 (RFC 7009): revoking twice is no error.
    await revokeToken(client, tokens.accessToken, 'access_token');
  });

  it('says so when Provet fails on its side at the token and revoke endpoints', async () => {
    // Provet publishes nothing about outages, so the double has none: a loopback server that
    // answers every request 503, as an instance in maintenance would, stands in for this one test.
    const down = createServer((_req, res) => {
      res.writeHead(503, { 'content-type': 'text/html' });
      res.end('<h1>Service unavailable</h1>');
    });
    await new Promise<void>((r) => down.listen(0, '127.0.0.1', r));
    try {
      const { port } = down.address() as AddressInfo;
      const failing = provetOAuthClient(provetInstance(`http://127.0.0.1:${port}/provet/4321`), s.provet.clientId);
      const revoke = await failure(revokeToken(failing, 'a-token', 'access_token'));
      expect(revoke.code).toBe('unreachable');
      expect(revoke.message).toMatch(/did not withdraw the sign-in \(HTTP 503\)/);
      const refresh = await failure(refreshTokens(failing, 'a-token'));
      expect(refresh.code).toBe('unreachable');
      expect(refresh.message).toMatch(/failed on its side \(HTTP 503\): try again later/);
    } finally {
      down.closeAllConnections();
      await new Promise<void>((r) => down.close(() => r()));
    }
  });

  it('says Provet could not be reached when nothing listens there', async () => {
    const gone = provetOAuthClient(provetInstance(await nothingListens()), s.provet.clientId);
    const e = await failure(refreshTokens(gone, 'r'));
    expect(e.code).toBe('unreachable');
    expect(e.message).toMatch(/^Provet could not be reached/);
  });
});
