// A small OAuth 2 server on loopback for the PIMS tests, standing in for Provet's sign-in until
// the sandbox's Provet double can be started by the tests. It answers as RFC 6749, RFC 7636 and
// RFC 7009 say, and checks what the client sends: form-encoded bodies, the client ID, the
// redirect URI, and the PKCE verifier against the challenge given at the authorize step.
// `GET <base>oauth2/authorize/` signs the test's user in at once and redirects with a code
// (or with error=access_denied when `deny` is set), as a browser would see it.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TokenRequest {
  path: string;
  contentType: string | undefined;
  form: Record<string, string>;
}

export interface OAuthStandIn {
  /** The instance address to give `provetInstance`, e.g. http://127.0.0.1:1234/54321 */
  address: string;
  clientId: string;
  /** Every POST to the token and revoke endpoints, as received. */
  requests: TokenRequest[];
  revoked: { token: string; hint: string | undefined }[];
  /** Access tokens currently valid. */
  validAccess: Set<string>;
  /** When set, the authorize step answers error=access_denied (the vet closed the page). */
  deny: boolean;
  /** expires_in given with new tokens, in seconds. */
  expiresIn: number;
  /** Answer 503 to every token and revoke request. */
  down: boolean;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

export async function startOAuthStandIn(provetId = '54321'): Promise<OAuthStandIn> {
  const base = `/${provetId}/`;
  const codes = new Map<string, { challenge: string; redirectUri: string; clientId: string }>();
  const refreshTokens = new Set<string>();
  const state: Omit<OAuthStandIn, 'close' | 'address'> = {
    clientId: 'vet-scribe-desktop',
    requests: [],
    revoked: [],
    validAccess: new Set(),
    deny: false,
    expiresIn: 36_000,
    down: false,
  };
  const issue = () => {
    const access = randomBytes(16).toString('hex');
    const refresh = randomBytes(16).toString('hex');
    state.validAccess.add(access);
    refreshTokens.add(refresh);
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: state.expiresIn,
      refresh_token: refresh,
      scope: 'restapi',
    };
  };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (req.method === 'GET' && url.pathname === `${base}oauth2/authorize/`) {
        const q = url.searchParams;
        const redirect = new URL(q.get('redirect_uri') ?? '');
        if (
          q.get('client_id') !== state.clientId ||
          q.get('response_type') !== 'code' ||
          q.get('code_challenge_method') !== 'S256'
        ) {
          json(res, 400, { error: 'invalid_request' });
          return;
        }
        redirect.searchParams.set('state', q.get('state') ?? '');
        if (state.deny) redirect.searchParams.set('error', 'access_denied');
        else {
          const code = randomBytes(12).toString('hex');
          codes.set(code, {
            challenge: q.get('code_challenge') ?? '',
            redirectUri: q.get('redirect_uri') ?? '',
            clientId: state.clientId,
          });
          redirect.searchParams.set('code', code);
        }
        res.writeHead(302, { location: redirect.toString() });
        res.end();
        return;
      }
      if (
        req.method !== 'POST' ||
        (url.pathname !== `${base}oauth2/token/` && url.pathname !== `${base}oauth2/revoke_token/`)
      ) {
        json(res, 404, { detail: 'Not found.' });
        return;
      }
      const text = await readBody(req);
      const form = Object.fromEntries(new URLSearchParams(text));
      state.requests.push({ path: url.pathname, contentType: req.headers['content-type'], form });
      if (state.down) {
        json(res, 503, { detail: 'Service unavailable.' });
        return;
      }
      if (req.headers['content-type'] !== 'application/x-www-form-urlencoded') {
        json(res, 400, { error: 'invalid_request', error_description: 'form-encoded bodies only' });
        return;
      }
      if (form['client_id'] !== state.clientId) {
        json(res, 401, { error: 'invalid_client' });
        return;
      }
      if (url.pathname.endsWith('revoke_token/')) {
        const token = form['token'] ?? '';
        state.revoked.push({ token, hint: form['token_type_hint'] });
        state.validAccess.delete(token);
        refreshTokens.delete(token);
        res.writeHead(200);
        res.end();
        return;
      }
      if (form['grant_type'] === 'authorization_code') {
        const grant = codes.get(form['code'] ?? '');
        codes.delete(form['code'] ?? '');
        const verifier = form['code_verifier'] ?? '';
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        if (!grant || grant.redirectUri !== form['redirect_uri'] || grant.challenge !== challenge) {
          json(res, 400, { error: 'invalid_grant' });
          return;
        }
        json(res, 200, issue());
        return;
      }
      if (form['grant_type'] === 'refresh_token') {
        const refresh = form['refresh_token'] ?? '';
        if (!refreshTokens.delete(refresh)) {
          json(res, 400, { error: 'invalid_grant' });
          return;
        }
        json(res, 200, issue());
        return;
      }
      json(res, 400, { error: 'unsupported_grant_type' });
    })();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(state, {
    address: `http://127.0.0.1:${port}/${provetId}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  });
}
