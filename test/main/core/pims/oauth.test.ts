// The sign-in to a PIMS as a public desktop client (src/main/core/pims/oauth.ts,
// browser-sign-in.ts, provet/instance.ts): PKCE S256 with RFC 7636's own example, the Provet
// address and client ID checked before anything is sent, the authorization request, and the code
// exchange, refresh and revoke as form-encoded POSTs. The OAuth server is the small loopback
// stand-in of oauth-stand-in.ts, which plays Provet's sign-in until the sandbox's Provet double
// can be started here; the "browser" is a real HTTP client that follows its redirect.
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
import { startOAuthStandIn, type OAuthStandIn } from './oauth-stand-in.ts';
import { pimsFailure as failure } from './support.ts';

/** What the system browser does once the vet has signed in: follow Provet's redirect back to the app. */
async function browser(url: string): Promise<void> {
  const answer = await fetch(url);
  await answer.text();
}

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

describe('the sign-in, exchange, refresh and revoke against an OAuth server on loopback', () => {
  let server: OAuthStandIn;
  let client: OAuthClient;
  beforeAll(async () => {
    server = await startOAuthStandIn();
    client = provetOAuthClient(provetInstance(server.address), server.clientId);
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
    server.revoked.length = 0;
    server.deny = false;
    server.down = false;
  });

  it('signs in through the browser: the code comes back on loopback and is traded with the verifier', async () => {
    const opened: string[] = [];
    const lines: string[] = [];
    const tokens = await signInWithBrowser({
      client,
      openBrowser: async (url) => {
        opened.push(url);
        await browser(url);
      },
      http: { log: (l) => lines.push(l) },
    });
    expect(opened).toHaveLength(1);
    expect(server.validAccess.has(tokens.accessToken)).toBe(true);
    expect(tokens.refreshToken).toMatch(/^[0-9a-f]{32}$/);
    expect(tokens.expiresAt! - tokens.obtainedAt).toBe(36_000_000);
    expect(tokens.scope).toBe('restapi');
    const [exchange] = server.requests;
    expect(exchange?.contentType).toBe('application/x-www-form-urlencoded');
    expect(Object.keys(exchange?.form ?? {}).sort()).toEqual(
      ['client_id', 'code', 'code_verifier', 'grant_type', 'redirect_uri'].sort(),
    );
    expect(exchange?.form['grant_type']).toBe('authorization_code');
    expect(exchange?.form['redirect_uri']).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\/[0-9a-f]{16}$/);
    // The log says which call and how it went, never a token or a code.
    expect(lines.join('\n')).toMatch(/POST \/54321\/oauth2\/token\/ 200/);
    for (const secret of [tokens.accessToken, tokens.refreshToken!, exchange!.form['code']!])
      expect(lines.join('\n')).not.toContain(secret);
  });

  it('says the sign-in was cancelled when the vet closes the sign-in page', async () => {
    server.deny = true;
    const e = await failure(signInWithBrowser({ client, openBrowser: browser }));
    expect(e.code).toBe('sign_in_failed');
    expect(e.message).toBe('The sign-in to Provet was cancelled or its page closed before signing in.');
    expect(server.requests).toEqual([]);
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
      }),
    );
    expect(e.code).toBe('sign_in_failed');
    expect(server.requests[0]?.form['grant_type']).toBe('authorization_code');
  });

  it('refreshes with a form-encoded refresh grant, and a refresh token used twice is refused as signed out', async () => {
    const first = await signInWithBrowser({ client, openBrowser: browser });
    server.requests.length = 0;
    const fresh = await refreshTokens(client, first.refreshToken!);
    expect(fresh.accessToken).not.toBe(first.accessToken);
    expect(server.requests[0]?.form).toEqual({
      grant_type: 'refresh_token',
      refresh_token: first.refreshToken,
      client_id: server.clientId,
    });
    const again = await failure(refreshTokens(client, first.refreshToken!));
    expect(again.code).toBe('signed_out');
    expect(again.message).toMatch(/^Sign in to Provet again/);
  });

  it('revokes with the token and its hint, and says so when the server fails', async () => {
    const tokens = await signInWithBrowser({ client, openBrowser: browser });
    await revokeToken(client, tokens.refreshToken!, 'refresh_token');
    expect(server.revoked).toEqual([{ token: tokens.refreshToken, hint: 'refresh_token' }]);
    expect(server.requests.at(-1)?.contentType).toBe('application/x-www-form-urlencoded');
    server.down = true;
    const e = await failure(revokeToken(client, tokens.accessToken, 'access_token'));
    expect(e.code).toBe('unreachable');
  });

  it('says Provet could not be reached when nothing listens there', async () => {
    const gone = await startOAuthStandIn();
    const goneClient = provetOAuthClient(provetInstance(gone.address), gone.clientId);
    await gone.close();
    const e = await failure(refreshTokens(goneClient, 'r'));
    expect(e.code).toBe('unreachable');
    expect(e.message).toMatch(/^Provet could not be reached/);
  });
});
