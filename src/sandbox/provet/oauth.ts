// Provet's OAuth 2 for an application that acts as the signed-in vet: the authorization code
// grant with PKCE (S256), required of a public client (a desktop app holds no secret), with
// the redirect to a loopback address on any port (RFC 8252). GET `oauth2/authorize/` shows the
// sign-in page; POST `oauth2/token/` exchanges a code or a refresh token (form bodies only);
// POST `oauth2/revoke_token/` revokes; GET `oauth2/userinfo/` answers OpenID's claims.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ProvetData, ProvetUser } from './data.ts';
import { page, signInPage } from './sign-in-page.ts';
import { TokenStore, type OAuthSettings } from './tokens.ts';
import { bearer, detail, escapeHtml, oauthError, readForm, redirect, sendHtml, sendJson, ProvetError } from './wire.ts';

export type { OAuthSettings } from './tokens.ts';

/** The public client the double knows: what Provet's support would issue to the app. */
export const PROVET_CLIENT_ID = 'vet-scribe-sandbox';
const CLIENTS = new Map([[PROVET_CLIENT_ID, { name: 'Vet Scribe (sandbox)', public: true }]]);
const SCOPES = new Set(['restapi', 'openid']);
/** A sign-in page left open this long must be started again from the app. */
const PENDING_TTL_MS = 10 * 60_000;
/** An authorization code is short-lived and single-use. */
const CODE_TTL_MS = 60_000;

interface Pending {
  clientId: string;
  redirectUri: string;
  state: string | null;
  challenge: string;
  scope: string[];
  expiresAt: number;
}

interface Code {
  clientId: string;
  redirectUri: string;
  challenge: string;
  userId: number;
  scope: string[];
  expiresAt: number;
  used: boolean;
  /** The refresh token the code was exchanged for, revoked if the code is presented again. */
  issued: string | null;
}

/** The signed-in vet of an API request and what their token allows. */
export interface Caller {
  user: ProvetUser;
  token: string;
}

const b64url = (bytes: Buffer) => bytes.toString('base64url');

/** RFC 7636: a verifier is 43 to 128 unreserved characters; the S256 challenge is its hash, base64url. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
const CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

export function isLoopbackRedirect(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    url.protocol === 'http:' &&
    (url.hostname === '127.0.0.1' || url.hostname === '[::1]') &&
    url.username === '' &&
    url.password === '' &&
    url.hash === '' &&
    !value.includes('#')
  );
}

export class ProvetOAuth {
  private readonly pending = new Map<string, Pending>();
  private readonly codes = new Map<string, Code>();
  readonly tokens: TokenStore;
  private readonly data: ProvetData;
  private readonly settings: () => OAuthSettings;

  constructor(data: ProvetData, settings: () => OAuthSettings) {
    this.data = data;
    this.settings = settings;
    this.tokens = new TokenStore(settings);
  }

  /** GET oauth2/authorize/: the checks of RFC 6749 section 4.1.2.1, then the sign-in page. */
  authorizePage(res: ServerResponse, url: URL, instanceName: string): void {
    const q = url.searchParams;
    const clientId = q.get('client_id') ?? '';
    const redirectUri = q.get('redirect_uri') ?? '';
    // A client or a redirect that cannot be trusted gets a page, never a redirect.
    if (!CLIENTS.has(clientId)) {
      sendHtml(
        res,
        400,
        page(
          'Sign-in refused',
          `<p>The application's client ID "${escapeHtml(clientId)}" is not known to this Provet instance (invalid_client). Ask Provet's support to register it.</p>`,
        ),
      );
      return;
    }
    if (!isLoopbackRedirect(redirectUri)) {
      sendHtml(
        res,
        400,
        page(
          'Sign-in refused',
          `<p>The redirect address "${escapeHtml(redirectUri)}" is not allowed for this application (invalid_request): a desktop application must use http://127.0.0.1:&lt;port&gt;/&lt;path&gt;.</p>`,
        ),
      );
      return;
    }
    const state = q.get('state');
    const back = (error: string, description: string) => {
      const to = new URL(redirectUri);
      to.searchParams.set('error', error);
      to.searchParams.set('error_description', description);
      if (state !== null) to.searchParams.set('state', state);
      redirect(res, to.href);
    };
    if (q.get('response_type') !== 'code') {
      back('unsupported_response_type', 'Only response_type=code is supported.');
      return;
    }
    const challenge = q.get('code_challenge');
    if (!challenge) {
      back('invalid_request', 'Code challenge required: PKCE is required for public clients.');
      return;
    }
    if (q.get('code_challenge_method') !== 'S256') {
      back('invalid_request', 'Unsupported code_challenge_method: use S256.');
      return;
    }
    if (!CHALLENGE.test(challenge)) {
      back('invalid_request', 'The code_challenge is not a base64url SHA-256 (43 characters).');
      return;
    }
    const scope = (q.get('scope') ?? 'restapi').split(/\s+/).filter(Boolean);
    if (scope.length === 0 || scope.some((s) => !SCOPES.has(s))) {
      back('invalid_scope', `Unknown scope; this instance offers ${[...SCOPES].join(' and ')}.`);
      return;
    }
    const requestId = b64url(randomBytes(18));
    this.pending.set(requestId, {
      clientId,
      redirectUri,
      state,
      challenge,
      scope,
      expiresAt: Date.now() + PENDING_TTL_MS,
    });
    sendHtml(res, 200, signInPage(requestId, CLIENTS.get(clientId)?.name ?? clientId, instanceName, null));
  }

  /** POST oauth2/authorize/: the vet signs in (a code comes back to the app) or cancels. */
  async authorizeSubmit(req: IncomingMessage, res: ServerResponse, instanceName: string): Promise<void> {
    const form = await readForm(req).catch((e: unknown) => {
      if (e instanceof ProvetError) return null;
      throw e;
    });
    const requestId = form?.get('request_id') ?? '';
    const pending = this.pending.get(requestId);
    if (!form || !pending || pending.expiresAt < Date.now()) {
      this.pending.delete(requestId);
      sendHtml(
        res,
        400,
        page(
          'Sign-in expired',
          '<p>This sign-in page has expired or was already used. Start again from the application.</p>',
        ),
      );
      return;
    }
    const to = new URL(pending.redirectUri);
    if (form.get('action') === 'cancel') {
      this.pending.delete(requestId);
      to.searchParams.set('error', 'access_denied');
      to.searchParams.set('error_description', 'The user cancelled the sign-in.');
      if (pending.state !== null) to.searchParams.set('state', pending.state);
      redirect(res, to.href);
      return;
    }
    const user = this.data.users.find((u) => u.username === (form.get('username') ?? '').trim());
    if (!user || !sameText(user.password, form.get('password') ?? '')) {
      sendHtml(
        res,
        200,
        signInPage(
          requestId,
          CLIENTS.get(pending.clientId)?.name ?? pending.clientId,
          instanceName,
          'The username or password is not right.',
        ),
      );
      return;
    }
    this.pending.delete(requestId);
    const code = b64url(randomBytes(24));
    this.codes.set(code, {
      clientId: pending.clientId,
      redirectUri: pending.redirectUri,
      challenge: pending.challenge,
      userId: user.id,
      scope: pending.scope,
      expiresAt: Date.now() + CODE_TTL_MS,
      used: false,
      issued: null,
    });
    to.searchParams.set('code', code);
    if (pending.state !== null) to.searchParams.set('state', pending.state);
    redirect(res, to.href);
  }

  /** POST oauth2/token/: the code exchange and the refresh, answered as RFC 6749 section 5. */
  async token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = await readForm(req);
    const clientId = clientOf(req, form);
    const grant = form.get('grant_type');
    if (!grant) throw oauthError(400, 'invalid_request', 'Missing grant_type.');
    if (grant === 'authorization_code') {
      const missing = ['code', 'redirect_uri', 'code_verifier'].filter((k) => !form.get(k));
      if (missing.length > 0) throw oauthError(400, 'invalid_request', `Missing ${missing.join(', ')}.`);
      const code = this.codes.get(form.get('code') ?? '');
      if (!code || code.clientId !== clientId)
        throw oauthError(400, 'invalid_grant', 'The authorization code is not valid.');
      if (code.used) {
        // A code presented twice may have been stolen: what it gave is taken back.
        if (code.issued) this.tokens.revokeRefresh(code.issued);
        throw oauthError(400, 'invalid_grant', 'The authorization code was already used.');
      }
      code.used = true;
      if (code.expiresAt < Date.now()) throw oauthError(400, 'invalid_grant', 'The authorization code has expired.');
      if (code.redirectUri !== form.get('redirect_uri'))
        throw oauthError(400, 'invalid_grant', 'The redirect_uri does not match the one of the authorization request.');
      const verifier = form.get('code_verifier') ?? '';
      const expected = b64url(createHash('sha256').update(verifier, 'ascii').digest());
      if (!VERIFIER.test(verifier) || !sameText(expected, code.challenge))
        throw oauthError(400, 'invalid_grant', 'The code_verifier does not match the code_challenge.');
      const answer = this.tokens.issue(code.userId, clientId, code.scope);
      code.issued = answer.refresh_token;
      sendJson(res, 200, answer, { 'Cache-Control': 'no-store', Pragma: 'no-cache' });
      return;
    }
    if (grant === 'refresh_token') {
      const token = form.get('refresh_token');
      if (!token) throw oauthError(400, 'invalid_request', 'Missing refresh_token.');
      const held = this.tokens.refreshOf(token);
      const now = Date.now();
      if (!held || held.revoked || held.clientId !== clientId)
        throw oauthError(400, 'invalid_grant', 'The refresh token is not valid.');
      if (held.lastUsedAt + this.settings().refreshTtlSeconds * 1000 < now)
        throw oauthError(400, 'invalid_grant', 'The refresh token has expired: sign in again.');
      const asked = form.get('scope')?.split(/\s+/).filter(Boolean);
      if (asked && asked.some((s) => !held.scope.includes(s)))
        throw oauthError(400, 'invalid_scope', 'A refresh cannot widen the scope.');
      // Rotation: the old pair stops working, the new one carries on.
      this.tokens.revokeRefresh(token);
      sendJson(res, 200, this.tokens.issue(held.userId, clientId, asked ?? held.scope), {
        'Cache-Control': 'no-store',
        Pragma: 'no-cache',
      });
      return;
    }
    throw oauthError(400, 'unsupported_grant_type', `The grant_type "${grant}" is not supported.`);
  }

  /** POST oauth2/revoke_token/ (RFC 7009): 200 whether or not the token was known. */
  async revoke(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = await readForm(req);
    const clientId = clientOf(req, form);
    const token = form.get('token');
    if (!token) throw oauthError(400, 'invalid_request', 'Missing token.');
    const refresh = this.tokens.refreshOf(token);
    if (refresh && refresh.clientId === clientId) this.tokens.revokeRefresh(token);
    else this.tokens.revokeAccess(token);
    sendJson(res, 200, undefined);
  }

  /** GET oauth2/userinfo/: the signed-in vet's OpenID claims; needs the openid scope. */
  userinfo(req: IncomingMessage, res: ServerResponse): void {
    const held = this.tokens.accessOf(bearer(req) ?? '');
    if (!held || held.expiresAt < Date.now())
      throw new ProvetError(
        401,
        { error: 'invalid_token', error_description: 'The access token is missing, invalid or expired.' },
        { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
      );
    if (!held.scope.includes('openid'))
      throw oauthError(403, 'insufficient_scope', 'The userinfo endpoint needs the openid scope.');
    const user = this.data.user(held.userId);
    if (!user) throw oauthError(401, 'invalid_token', 'The user of this token no longer exists.');
    sendJson(res, 200, {
      sub: String(user.id),
      name: `${user.first_name} ${user.last_name}`,
      given_name: user.first_name,
      family_name: user.last_name,
      preferred_username: user.username,
      email: user.email,
    });
  }

  /** The vet an API request acts for: 401 without a valid token, 403 without the restapi scope. */
  authenticate(req: IncomingMessage): Caller {
    const token = bearer(req);
    if (!token)
      throw detail(401, 'Authentication credentials were not provided.', { 'WWW-Authenticate': 'Bearer realm="api"' });
    const held = this.tokens.accessOf(token);
    const user = held && this.data.user(held.userId);
    if (!held || !user || held.expiresAt < Date.now())
      throw detail(401, 'The access token is invalid or has expired.', {
        'WWW-Authenticate': 'Bearer realm="api", error="invalid_token"',
      });
    if (!held.scope.includes('restapi')) throw detail(403, 'You do not have permission to perform this action.');
    return { user, token };
  }
}

/** The client of a token or revoke request, from the body or HTTP Basic; 401 when unknown. */
function clientOf(req: IncomingMessage, form: Map<string, string>): string {
  let id = form.get('client_id') ?? '';
  const basic = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  if (basic) id = decodeURIComponent(Buffer.from(basic, 'base64').toString('utf8').split(':')[0] ?? '');
  if (!CLIENTS.has(id)) throw oauthError(401, 'invalid_client', `The client "${id}" is not known to this instance.`);
  return id;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
