// What the engine's Provet tests share: the sandbox's Provet double signed in to the way the app
// does it (signInWithBrowser: PKCE S256, a checked state, a loopback redirect), with a "browser"
// that drives the double's sign-in page over HTTP (GET the page, POST its form, follow the
// redirect to the app's loopback port), and the adapter built on those tokens.
import { request } from 'undici';
import {
  PimsTokens,
  provetInstance,
  provetOAuthClient,
  ProvetPims,
  signInWithBrowser,
  type ProvetInstance,
} from '../../../../src/main/core/pims/index.ts';
import { MemorySecretStore } from '../../../../src/main/core/sign-in/index.ts';
import { PROVET_USERS, type Sandbox } from '../../../../src/sandbox/index.ts';

/** Opens the sign-in page, signs in as `user`, and follows the redirect as a browser would. */
export async function browse(s: Sandbox, url: string, user: { username: string; password: string }): Promise<void> {
  const page = await request(url);
  const html = await page.body.text();
  const requestId = /name="request_id" value="([^"]+)"/.exec(html)?.[1];
  if (!requestId) throw new Error(`no sign-in form at ${url} (HTTP ${page.statusCode})`);
  const form = await request(`${s.provet.address}/oauth2/authorize/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ request_id: requestId, ...user, action: 'allow' }).toString(),
  });
  await form.body.text();
  const location = form.headers['location'];
  if (typeof location !== 'string') throw new Error(`the sign-in did not redirect (HTTP ${form.statusCode})`);
  await (await request(location)).body.text();
}

export interface SignedIn {
  instance: ProvetInstance;
  tokens: PimsTokens;
  pims: ProvetPims;
}

/** A vet signed in to the double through its own sign-in page, and the adapter acting for them. */
export async function signInToDouble(s: Sandbox, user = PROVET_USERS.demo): Promise<SignedIn> {
  const instance = provetInstance(s.provet.address);
  const client = provetOAuthClient(instance, s.provet.clientId);
  const tokens = new PimsTokens({
    store: new MemorySecretStore(),
    account: { service: 'https://scribe.example', userId: `u-${user.username}`, instance: instance.base },
    client,
  });
  await tokens.save(await signInWithBrowser({ client, openBrowser: (url) => browse(s, url, user) }));
  return { instance, tokens, pims: new ProvetPims({ instance, tokens }) };
}

/** The REST API requests the double counted, all routes together (the sign-in's not among them). */
export function apiRequests(s: Sandbox): number {
  return Object.entries(s.provet.requests())
    .filter(([route]) => route.includes(' api/0.1/'))
    .reduce((sum, [, n]) => sum + n, 0);
}
