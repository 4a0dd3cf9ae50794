// What the engine's Provet tests share: the sandbox's Provet double signed in to the way the app
// does it (signInWithBrowser: PKCE S256, a checked state, a loopback redirect), with a "browser"
// that drives the double's sign-in page over HTTP (GET the page, POST its form, follow the
// redirect to the app's loopback port), and the adapter built on those tokens; what the app's
// calls carried on their way to the double; an address where nothing listens; and the check that
// every note the double holds is on the patient it was written for.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request, type Dispatcher } from 'undici';
import {
  PimsTokens,
  provetGet,
  provetInstance,
  provetOAuthClient,
  ProvetPims,
  signInWithBrowser,
  type PimsHttpOptions,
  type ProvetInstance,
} from '../../../../src/main/core/pims/index.ts';
import { MemorySecretStore } from '../../../../src/main/core/sign-in/index.ts';
import { PROVET_USERS, type Sandbox } from '../../../../src/sandbox/index.ts';

/**
 * Opens the sign-in page, signs in as `user` (or presses Cancel), and follows the redirect back to
 * the app as a browser would.
 */
export async function browse(
  s: Sandbox,
  url: string,
  user: { username: string; password: string } = PROVET_USERS.demo,
  action: 'allow' | 'cancel' = 'allow',
): Promise<void> {
  const page = await request(url);
  const html = await page.body.text();
  const requestId = /name="request_id" value="([^"]+)"/.exec(html)?.[1];
  if (!requestId) throw new Error(`no sign-in form at ${url} (HTTP ${page.statusCode})`);
  const form = await request(`${s.provet.address}/oauth2/authorize/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ request_id: requestId, ...user, action }).toString(),
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

/** One request as the app sent it: its method, path, content type and form fields (when a form). */
export interface SentRequest {
  method: string;
  path: string;
  contentType: string | undefined;
  form: Record<string, string>;
}

/**
 * The app's own HTTP route (`PimsHttpOptions.dispatcherFor`, as a clinic's proxy comes in) through
 * an undici Agent that notes each request before sending it on unchanged: what the double received,
 * seen from the app's side, since the double keeps no token or form.
 */
export function recordingHttp(): { http: PimsHttpOptions; sent: SentRequest[]; close(): Promise<void> } {
  const sent: SentRequest[] = [];
  const agent = new Agent();
  const noting = agent.compose(
    (dispatch) => (opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) => {
      const headers = (opts.headers ?? {}) as Record<string, string>;
      const contentType = headers['content-type'];
      const form =
        contentType === 'application/x-www-form-urlencoded' && typeof opts.body === 'string'
          ? Object.fromEntries(new URLSearchParams(opts.body))
          : {};
      sent.push({ method: opts.method, path: opts.path.split('?')[0] ?? '', contentType, form });
      return dispatch(opts, handler);
    },
  );
  return { http: { dispatcherFor: async () => noting }, sent, close: () => agent.close() };
}

/** A loopback address where nothing listens (a port just freed): a Provet that cannot be reached. */
export async function nothingListens(): Promise<string> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return `http://127.0.0.1:${port}/provet/4321`;
}

/**
 * Each note the double holds that is not where it belongs, in a sentence: on a pet of its
 * consultation, the only note of that pet there, and naming that pet first (each note the tests
 * send begins "<pet's name>:"). Empty when every note is on its own patient.
 */
export async function misplacedNotes(s: Sandbox, vet: SignedIn): Promise<string[]> {
  const wrong: string[] = [];
  const token = await vet.tokens.accessToken();
  const seen = new Set<string>();
  for (const note of s.provet.notes()) {
    const consultation = (await provetGet(`${vet.instance.api}consultation/${note.consultation}/`, token)) as {
      patients: string[];
    };
    const pet = await vet.pims.patient(String(note.patient));
    const where = `note ${note.id} (${pet.name}, consultation ${note.consultation})`;
    if (!consultation.patients.some((url) => url.endsWith(`/patient/${note.patient}/`)))
      wrong.push(`${where}: not a patient of its consultation`);
    if (!note.text.startsWith(`${pet.name}:`)) wrong.push(`${where}: written for another pet`);
    const key = `${note.consultation}/${note.patient}`;
    if (seen.has(key)) wrong.push(`${where}: a second note of the same pet`);
    seen.add(key);
  }
  return wrong;
}
