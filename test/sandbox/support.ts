// What the sandbox's tests share: a sandbox of each test's own or one signed-in sandbox for a
// file, and the steps of the published workflow that many tests take before the one they are about.
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.ts';
import { call, signIn, waitFor, type SignedIn } from '../support/http.ts';

/**
 * Gives the test file a `start(options)` that starts a sandbox for the test calling it (scribing
 * at once unless the options say otherwise) and closes it after that test, so each test owns its
 * faults and its state.
 */
export function sandboxPerTest(): (options?: Partial<SandboxOptions>) => Promise<Sandbox> {
  const started: Sandbox[] = [];
  afterEach(async () => {
    while (started.length) await started.pop()?.close();
  });
  return async (options = {}) => {
    const sandbox = await startSandbox({ scribeSeconds: 0, ...options });
    started.push(sandbox);
    return sandbox;
  };
}

/**
 * One sandbox for the whole file, with the demo vet signed in, for files whose tests only ask and
 * read (the agents, the formulary): its fields are set before the first test.
 */
export function signedInSandbox(options: Partial<SandboxOptions> = {}): { sandbox: Sandbox; me: SignedIn } {
  const world = {} as { sandbox: Sandbox; me: SignedIn };
  beforeAll(async () => {
    world.sandbox = await startSandbox({ scribeSeconds: 0, ...options });
    world.me = await signIn(world.sandbox);
  });
  afterAll(async () => {
    await world.sandbox?.close();
  });
  return world;
}

export interface Template {
  public_id: string;
  name: string;
  description: string;
}

/** A page of `GET /templates/all`, `GET /scribe/all` or `GET /recording-sessions/all`. */
export interface Page<T> {
  items: T[];
  has_next: boolean;
  current_page: number;
  items_per_page: number;
}

/** `GET /scribe/get/{id}`. */
export interface Scribe {
  public_id: string;
  transcript_public_id: string | null;
  template_public_id: string;
  status: string;
  categories_output: { category: string; content: string }[];
  rtf_output: string | null;
  error?: string;
}

/** FastAPI's 422 answer. */
export type Validation = { detail: { loc: (string | number)[]; msg: string; type: string }[] };

/** The first template the sandbox lists, as a vet picks one before asking for the note. */
export async function firstTemplate(s: Sandbox, token: string): Promise<Template> {
  const t = await call<Page<Template>>('GET', `${s.urls.scribe_url}/templates/all?page=1&limit=50`, { token });
  const first = t.json.items[0];
  if (!first) throw new Error('no templates');
  return first;
}

/** `POST /scribe/request` for an uploaded session with the first template; the scribe's id. */
export async function requestScribe(s: Sandbox, token: string, recordingSessionId: string): Promise<string> {
  const r = await call<{ public_id: string }>('POST', `${s.urls.scribe_url}/scribe/request`, {
    token,
    body: {
      recording_session_public_id: recordingSessionId,
      template_public_id: (await firstTemplate(s, token)).public_id,
    },
  });
  if (r.status !== 200) throw new Error(`scribe request answered ${r.status}: ${r.text}`);
  return r.json.public_id;
}

/** `GET /scribe/get/{id}` once. */
export async function getScribe(s: Sandbox, token: string, id: string): Promise<Scribe> {
  return (await call<Scribe>('GET', `${s.urls.scribe_url}/scribe/get/${id}`, { token })).json;
}

/** `GET /scribe/get/{id}` until the scribe has the status; its record then. */
export function scribeAt(s: Sandbox, token: string, id: string, status: string): Promise<Scribe> {
  return waitFor(async () => {
    const scribe = await getScribe(s, token, id);
    return scribe.status === status ? scribe : undefined;
  });
}
