// OAuth 2 for a public desktop client (RFC 6749, RFC 7636, RFC 8252): the app has no secret, so
// the code it receives is bound to a PKCE verifier only it knows, and a random `state` ties the
// answer to the sign-in this app started. The token endpoint's answers and errors are read with
// zod, as RFC 6749 section 5 words them. Written here rather than taken from a library: the
// flow is four form posts and a hash, and the OAuth libraries on npm either assume a web server
// with sessions or bring a browser runtime; the loopback receiver is in loopback.ts.
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { send, type PimsHttpOptions } from './http.ts';
import { PimsError } from './port.ts';

/** Where one PIMS instance signs a user in, and who the app is there. */
export interface OAuthClient {
  clientId: string;
  authorizeUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  /** The PIMS as the vet knows it, for the sentences ("Provet"). */
  name: string;
}

export interface TokenSet {
  accessToken: string;
  /** Null when the server gave none (the user signs in again when the access token lapses). */
  refreshToken: string | null;
  /** When the access token lapses (ms since the epoch); null when the server did not say. */
  expiresAt: number | null;
  scope: string | null;
  /** When these tokens were received (ms). */
  obtainedAt: number;
}

// RFC 7636 section 4.1: 43 to 128 characters of [A-Za-z0-9-._~]. 32 random bytes in base64url
// are 43 characters of that alphabet, 256 bits of entropy, the RFC's own recommendation.
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

export interface Pkce {
  verifier: string;
  challenge: string;
  method: 'S256';
}

/** The S256 challenge of a verifier: base64url(SHA-256(ASCII(verifier))), no padding. */
export function pkceChallenge(verifier: string): string {
  if (!VERIFIER.test(verifier)) throw new Error('A PKCE verifier is 43 to 128 unreserved characters.');
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

export function newPkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: pkceChallenge(verifier), method: 'S256' };
}

/** A fresh `state`: unguessable, so an answer this app did not ask for is told apart. */
export function newState(): string {
  return randomBytes(24).toString('base64url');
}

/** The address the browser opens: the authorization request of RFC 6749 section 4.1.1 with PKCE. */
export function authorizeRequestUrl(
  client: OAuthClient,
  request: { redirectUri: string; state: string; challenge: string; scope?: string },
): string {
  const url = new URL(client.authorizeUrl);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', client.clientId);
  url.searchParams.set('redirect_uri', request.redirectUri);
  url.searchParams.set('state', request.state);
  url.searchParams.set('code_challenge', request.challenge);
  url.searchParams.set('code_challenge_method', 'S256');
  if (request.scope) url.searchParams.set('scope', request.scope);
  return url.toString();
}

// RFC 6749 section 5.1. Members the app does not use are let through; `token_type` must be
// Bearer (case-insensitive), the only kind this client can send.
const tokenAnswer = z.object({
  access_token: z.string().min(1),
  token_type: z.string().refine((t) => t.toLowerCase() === 'bearer', { message: 'token_type is not Bearer' }),
  expires_in: z.coerce.number().positive().optional(),
  refresh_token: z.string().min(1).optional(),
  scope: z.string().optional(),
});

// RFC 6749 section 5.2.
const errorAnswer = z.object({
  error: z.string().min(1),
  error_description: z.string().optional(),
});

function readTokens(json: unknown, now: number, client: OAuthClient, keepRefresh: string | null): TokenSet {
  const parsed = tokenAnswer.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new PimsError(
      'invalid_answer',
      `${client.name} answered the sign-in with tokens the app cannot read (${issue?.path.join('.') || 'the body'}: ${issue?.message ?? 'malformed'}).`,
    );
  }
  const t = parsed.data;
  return {
    accessToken: t.access_token,
    // A refresh answer may leave the refresh token out: the one sent stays good (RFC 6749 6).
    refreshToken: t.refresh_token ?? keepRefresh,
    expiresAt: t.expires_in === undefined ? null : now + t.expires_in * 1000,
    scope: t.scope ?? null,
    obtainedAt: now,
  };
}

/** What an error answer of the token endpoint means to the vet, in one sentence. */
function tokenError(
  status: number,
  json: unknown,
  client: OAuthClient,
  grant: 'authorization_code' | 'refresh_token',
): PimsError {
  const parsed = errorAnswer.safeParse(json);
  const code = parsed.success ? parsed.data.error : null;
  if (status === 429) return new PimsError('rate_limited', `${client.name} asks to wait before signing in again.`);
  if (status >= 500 || code === null)
    return new PimsError(
      'unreachable',
      `${client.name}'s sign-in failed on its side (HTTP ${status}): try again later.`,
      {
        status,
      },
    );
  if (code === 'invalid_client' || code === 'unauthorized_client')
    return new PimsError(
      'bad_input',
      `${client.name} does not accept the client ID "${client.clientId}": check it with the clinic's IT or ${client.name}'s support.`,
      { status },
    );
  if (code === 'invalid_grant')
    return grant === 'refresh_token'
      ? new PimsError('signed_out', `Sign in to ${client.name} again: the sign-in has lapsed or was withdrawn.`, {
          status,
        })
      : new PimsError(
          'sign_in_failed',
          `${client.name} did not accept the sign-in (it may have taken too long): sign in again.`,
          {
            status,
          },
        );
  return new PimsError(
    grant === 'refresh_token' ? 'signed_out' : 'sign_in_failed',
    `${client.name} refused the sign-in (${code}): sign in again, and if it happens again tell the clinic's IT.`,
    { status },
  );
}

/** The code received on the redirect, traded for tokens (RFC 6749 4.1.3 with RFC 7636 4.5). */
export async function exchangeCode(
  client: OAuthClient,
  grant: { code: string; verifier: string; redirectUri: string },
  http: PimsHttpOptions = {},
  now: () => number = Date.now,
): Promise<TokenSet> {
  const answer = await send(
    'POST',
    client.tokenUrl,
    {
      form: {
        grant_type: 'authorization_code',
        code: grant.code,
        redirect_uri: grant.redirectUri,
        client_id: client.clientId,
        code_verifier: grant.verifier,
      },
    },
    { name: client.name, ...http },
  );
  if (answer.status !== 200) throw tokenError(answer.status, answer.json, client, 'authorization_code');
  return readTokens(answer.json, now(), client, null);
}

/** New tokens for a refresh token (RFC 6749 section 6). */
export async function refreshTokens(
  client: OAuthClient,
  refreshToken: string,
  http: PimsHttpOptions = {},
  now: () => number = Date.now,
): Promise<TokenSet> {
  const answer = await send(
    'POST',
    client.tokenUrl,
    { form: { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: client.clientId } },
    { name: client.name, ...http },
  );
  if (answer.status !== 200) throw tokenError(answer.status, answer.json, client, 'refresh_token');
  return readTokens(answer.json, now(), client, refreshToken);
}

/**
 * Withdraws a token (RFC 7009). The server answers 200 for a token it does not know, so only a
 * failure to reach it, or its own failure, is an error: the caller removes its copy either way.
 */
export async function revokeToken(
  client: OAuthClient,
  token: string,
  hint: 'access_token' | 'refresh_token',
  http: PimsHttpOptions = {},
): Promise<void> {
  const answer = await send(
    'POST',
    client.revokeUrl,
    { form: { token, token_type_hint: hint, client_id: client.clientId } },
    { name: client.name, ...http },
  );
  if (answer.status !== 200) {
    const parsed = errorAnswer.safeParse(answer.json);
    throw new PimsError(
      answer.status >= 500 ? 'unreachable' : 'bad_input',
      `${client.name} did not withdraw the sign-in (HTTP ${answer.status}${parsed.success ? `, ${parsed.data.error}` : ''}).`,
      { status: answer.status },
    );
  }
}

const userInfoAnswer = z.object({
  sub: z.union([z.string(), z.number()]).transform(String),
  name: z.string().optional(),
  given_name: z.string().optional(),
  family_name: z.string().optional(),
});

/** Who signed in (OpenID Connect's userinfo, the `openid` scope): their id at the PIMS and name. */
export async function readUserInfo(
  url: string,
  token: string,
  name: string,
  http: PimsHttpOptions = {},
): Promise<{ id: string; name: string | null }> {
  const answer = await send('GET', url, { token }, { name, ...http });
  if (answer.status === 401) throw new PimsError('signed_out', `Sign in to ${name} again.`, { status: 401 });
  const parsed = userInfoAnswer.safeParse(answer.json);
  if (answer.status !== 200 || !parsed.success)
    throw new PimsError('invalid_answer', `${name} did not say who signed in (HTTP ${answer.status}).`, {
      status: answer.status,
    });
  const u = parsed.data;
  const full = u.name ?? [u.given_name, u.family_name].filter(Boolean).join(' ');
  return { id: u.sub, name: full.trim() === '' ? null : full.trim() };
}

/**
 * Asks the sign-in page, before the browser is opened, whether the address is a PIMS and knows
 * the client ID: an OAuth server shows an error page (400) for a client it does not know, and
 * its sign-in page (200, or a redirect to it) for one it does. Anything else is not one.
 */
export async function probeAuthorize(client: OAuthClient, http: PimsHttpOptions = {}): Promise<void> {
  const url = authorizeRequestUrl(client, {
    redirectUri: 'http://127.0.0.1:1/probe',
    state: 'probe',
    challenge: pkceChallenge(newPkce().verifier),
  });
  const answer = await send('GET', url, { headers: { accept: 'text/html' } }, { name: client.name, ...http }).catch(
    (e: unknown) => {
      throw new PimsError(
        'bad_input',
        `Nothing answers at that ${client.name} address: check it (${(e as Error).message})`,
        { cause: e },
      );
    },
  );
  if (answer.status === 400)
    throw new PimsError(
      'bad_input',
      `${client.name} does not know the client ID "${client.clientId.slice(0, 60)}": check it, or ask ${client.name}'s support to register it.`,
      { status: 400 },
    );
  if (answer.status !== 200 && (answer.status < 300 || answer.status >= 400))
    throw new PimsError(
      'bad_input',
      `That address is not a ${client.name} instance (its sign-in page answered HTTP ${answer.status}): check the address.`,
      { status: answer.status },
    );
}
