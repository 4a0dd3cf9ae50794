// What the Provet double's tests share: one sandbox for a file, a real PKCE pair, the sign-in
// page driven as a browser would (GET the page, POST its form, read the redirect), and calls
// with a bearer token, a form or a JSON body over loopback HTTP.
import { createHash, randomBytes } from 'node:crypto';
import { request } from 'undici';
import { afterAll, beforeAll } from 'vitest';
import { PROVET_USERS, startSandbox, type Sandbox, type SandboxOptions } from '../../../src/sandbox/index.ts';
import { answerOf, type Answer } from '../../support/http.ts';

/** The loopback redirect the app would listen on; nothing needs to listen, the tests read Location. */
export const REDIRECT_URI = 'http://127.0.0.1:53682/provet/callback';

/** One sandbox for the file (its fields are set before the first test). */
export function provetSandbox(options: Partial<SandboxOptions> = {}): { sandbox: Sandbox } {
  const world = {} as { sandbox: Sandbox };
  beforeAll(async () => {
    world.sandbox = await startSandbox({ scribeSeconds: 0, ...options });
  });
  afterAll(async () => {
    await world.sandbox?.close();
  });
  return world;
}

/** A PKCE pair as RFC 7636 makes it: a random verifier and its SHA-256, base64url. */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export async function send<T = Record<string, unknown>>(
  method: string,
  url: string,
  {
    token,
    form,
    json,
    headers = {},
  }: { token?: string; form?: Record<string, string>; json?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer<T>> {
  const h: Record<string, string> = { ...headers };
  if (token) h['authorization'] = `Bearer ${token}`;
  let body: string | undefined;
  if (form) {
    body = new URLSearchParams(form).toString();
    h['content-type'] ??= 'application/x-www-form-urlencoded';
  } else if (json !== undefined) {
    body = JSON.stringify(json);
    h['content-type'] ??= 'application/json';
  }
  return answerOf<T>(await request(url, { method: method as 'GET', headers: h, body }));
}

export function authorizeUrl(
  s: Sandbox,
  params: Partial<
    Record<
      'client_id' | 'redirect_uri' | 'response_type' | 'code_challenge' | 'code_challenge_method' | 'state' | 'scope',
      string | null
    >
  >,
): string {
  const url = new URL(`${s.provet.address}/oauth2/authorize/`);
  const all = {
    client_id: s.provet.clientId,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    code_challenge_method: 'S256',
    scope: 'restapi openid',
    ...params,
  };
  for (const [k, v] of Object.entries(all)) if (v !== null && v !== undefined) url.searchParams.set(k, v);
  return url.href;
}

/** GET the sign-in page; the request id its form carries. */
export async function openSignInPage(s: Sandbox, url: string): Promise<{ page: Answer; requestId: string }> {
  const page = await send('GET', url);
  const requestId = /name="request_id" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
  return { page, requestId };
}

/** POST the sign-in form as the browser would; the answer and where it redirects. */
export async function submitSignIn(
  s: Sandbox,
  requestId: string,
  fields: Record<string, string>,
): Promise<{ answer: Answer; location: URL | null }> {
  const answer = await send('POST', `${s.provet.address}/oauth2/authorize/`, {
    form: { request_id: requestId, ...fields },
  });
  const location = typeof answer.headers['location'] === 'string' ? new URL(answer.headers['location']) : null;
  return { answer, location };
}

export interface ProvetTokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  token_type: string;
  scope: string;
}

/** POST /oauth2/token/ with an authorization code and its PKCE verifier; `extra` adds or overrides form fields. */
export function exchangeCode<T = ProvetTokens>(
  s: Sandbox,
  code: string,
  verifier: string,
  extra: Record<string, string> = {},
): Promise<Answer<T>> {
  return send<T>('POST', `${s.provet.address}/oauth2/token/`, {
    form: {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: s.provet.clientId,
      code_verifier: verifier,
      ...extra,
    },
  });
}

/** The whole sign-in of a vet: page, form, code, token exchange with the verifier. */
export async function signInToProvet(
  s: Sandbox,
  user: { username: string; password: string } = PROVET_USERS.demo,
  scope = 'restapi openid',
): Promise<ProvetTokens> {
  const { verifier, challenge } = pkce();
  const { requestId } = await openSignInPage(s, authorizeUrl(s, { code_challenge: challenge, state: 'st', scope }));
  const { location } = await submitSignIn(s, requestId, { ...user, action: 'allow' });
  const code = location?.searchParams.get('code');
  if (!code) throw new Error(`no code in the redirect ${String(location)}`);
  const token = await exchangeCode(s, code, verifier);
  if (token.status !== 200) throw new Error(`token exchange answered ${token.status}: ${token.text}`);
  return token.json;
}

/** `<instance>/api/0.1/<path>` */
export const api = (s: Sandbox, path: string) => `${s.provet.address}/api/0.1/${path}`;

/** A Provet list page. */
export interface Page<T = Record<string, unknown>> {
  count: number;
  num_pages: number;
  next: string | null;
  previous: string | null;
  results: T[];
}
