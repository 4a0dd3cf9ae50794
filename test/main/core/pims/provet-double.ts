// What the engine's Provet tests share: the sandbox's Provet double signed in to the way the app
// does it (signInWithBrowser: PKCE S256, a checked state, a loopback redirect), with a "browser"
// that drives the double's sign-in page over HTTP (GET the page, POST its form, follow the
// redirect to the app's loopback port), and the adapter built on those tokens; what the app's
// calls carried on their way to the double; an address where nothing listens; the check that
// every note the double holds is on the patient it was written for; and, for the tests that send
// notes, one signed-in double and notes folder for a file with what the double then holds.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Agent, request, type Dispatcher } from 'undici';
import { afterAll, beforeAll } from 'vitest';
import {
  NoteSender,
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
import { PROVET_USERS, startSandbox, type Sandbox } from '../../../../src/sandbox/index.ts';

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

/** Who the sending tests send as. */
export const HALE = { id: 'u-hale', name: 'Dr Alex Hale' };

/** What `senderWorld` gives a file: read its fields inside a test, once `beforeAll` has run. */
export interface SenderWorld {
  s: Sandbox;
  vet: SignedIn;
  /** The sender's folder: a folder of its own inside a temporary one, made at its first save. */
  dir: string;
  /** Sends a consult's note for `patients` ([id, text]) into the visit, as Dr Hale, through `over` or a new sender. */
  send(
    consultId: string,
    appointmentId: string,
    patients: [string, string][],
    over?: NoteSender,
  ): ReturnType<NoteSender['send']>;
  /** The notes the double holds for a consultation, as [patient id, text]. */
  held(consultation: number): [string, string | undefined][];
  /** The same, each note's first line only (the line the test wrote, before the sender's marker). */
  heldFirstLines(consultation: number): [string, string | undefined][];
  /** Note writes of every kind the double took: a new note (POST) and a change of one (PUT). */
  writes(): number;
  /** New notes only (POST). */
  posts(): number;
}

/**
 * One sandbox for the file (its scribe at once), a vet signed in to its Provet double and a notes
 * folder, started before the file's tests and removed after them: the sending tests build on the
 * notes the cases before them left, so they share one.
 */
export function senderWorld(folderPrefix: string): SenderWorld {
  const world = {} as SenderWorld;
  beforeAll(async () => {
    world.s = await startSandbox({ scribeSeconds: 0 });
    world.vet = await signInToDouble(world.s);
    world.dir = join(await mkdtemp(join(tmpdir(), folderPrefix)), 'pims-notes');
  });
  afterAll(async () => {
    await world.s?.close();
    if (world.dir) await rm(dirname(world.dir), { recursive: true, force: true });
  });
  const route = (name: string) => world.s.provet.requests()[name] ?? 0;
  world.send = (consultId, appointmentId, patients, over) =>
    (over ?? new NoteSender({ pims: world.vet.pims, dir: world.dir })).send({
      consultId,
      appointmentId,
      patients: patients.map(([id, text]) => ({ id, text })),
      by: HALE,
    });
  world.held = (consultation) =>
    world.s.provet
      .notes()
      .filter((n) => n.consultation === consultation)
      .map((n) => [String(n.patient), n.text]);
  world.heldFirstLines = (consultation) => world.held(consultation).map(([p, text]) => [p, text?.split('\n')[0]]);
  world.posts = () => route('POST api/0.1/consultation/{id}/consultationnote/');
  world.writes = () => world.posts() + route('PUT api/0.1/consultation/{id}/consultationnote/{id}/');
  return world;
}
