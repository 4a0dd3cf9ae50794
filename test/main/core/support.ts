// What the engine's tests start, and its closing: a core on its built-in sandbox, signed in as the
// demo vet or not; a sandbox read off the wire by a recording proxy with a signed-in core talking
// through it; one sandbox, proxy and held front shared by a file's tests; a storage front that
// holds or refuses uploads; a fresh folder per test; and a recording made through the window's
// calls. A test file asks for the closing kinds once, at its top level (they register their own
// hooks), so whatever a test started is stopped when it ends, pass or fail.
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { AppCore } from '../../../src/main/core/app-core.ts';
import { createHandlers, type HandlerTable } from '../../../src/main/core/ipc-handlers.ts';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import type { SandboxOptions } from '../../../src/sandbox/options.ts';
import {
  firstTemplateId,
  recorderChunks,
  startCore,
  startCoreAgainst,
  type TestCoreOptions,
} from '../../support/core.ts';
import { startHeldFront, type HeldFront } from '../../support/held-front.ts';
import { startRecordingProxy, type RecordingProxy } from '../../support/recording-proxy.ts';

/** Signs the core in as its built-in sandbox's demo vet. */
export async function signInDemo(c: AppCore): Promise<void> {
  const demo = c.appInfo().sandbox?.demo;
  if (!demo) throw new Error('no sandbox');
  await c.session.signIn(demo.email, demo.password);
}

/**
 * Gives `core` (a core on its built-in sandbox) and `signedIn` (the same, signed in as the demo
 * vet); `cores` holds those still to be stopped after the test, so a test that stops one itself
 * takes it out.
 */
export function builtInCores() {
  const cores: AppCore<Sandbox>[] = [];
  afterEach(async () => {
    while (cores.length) await cores.pop()?.stop();
  });
  async function core(options: TestCoreOptions = {}): Promise<AppCore<Sandbox>> {
    const c = await startCore(options);
    cores.push(c);
    return c;
  }
  async function signedIn(options: TestCoreOptions = {}): Promise<AppCore<Sandbox>> {
    const c = await core(options);
    await signInDemo(c);
    return c;
  }
  return { core, signedIn, cores };
}

/**
 * A sandbox, the recording proxy in front of it, a core talking through the proxy and the core's
 * handler table (the window's calls).
 */
export interface ProxiedWindow {
  sandbox: Sandbox;
  proxy: RecordingProxy;
  c: AppCore<Sandbox>;
  h: HandlerTable;
}

/** The same with the demo vet signed in, and the first template the service lists. */
export interface Proxied extends ProxiedWindow {
  template: string;
}

/**
 * Gives `proxied`, a sandbox (with no rate limit unless told) behind a recording proxy and a
 * signed-in core through it, all closed after each test, the core first.
 */
export function proxiedCores(): (
  sandboxOptions?: Partial<SandboxOptions>,
  options?: Parameters<typeof startCoreAgainst>[1],
) => Promise<Proxied> {
  const atEnd = closedAfterEach();
  return async (sandboxOptions = {}, options = {}) => {
    const sandbox = await startSandbox({ rateLimitPerMinute: 0, ...sandboxOptions });
    atEnd(() => sandbox.close());
    const proxy = await startRecordingProxy(sandbox);
    atEnd(() => proxy.close());
    const c = await startCoreAgainst(sandbox, { urls: proxy.urls, ...options });
    atEnd(() => c.stop());
    await c.session.signIn(sandbox.demo.email, sandbox.demo.password);
    return { sandbox, proxy, c, h: createHandlers(c), template: await firstTemplateId(c) };
  };
}

/**
 * Gives `atEnd`: what a test hands it (a sandbox, a proxy, a core, a server to close) is closed
 * when the test ends, pass or fail, the last started first.
 */
export function closedAfterEach(): (close: () => Promise<unknown>) => void {
  const closers: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });
  return (close) => {
    closers.push(close);
  };
}

/** A sandbox, the recording proxy in front of it, and a held front before the proxy. */
export interface HeldWire {
  readonly sandbox: Sandbox;
  readonly proxy: RecordingProxy;
  readonly front: HeldFront;
  /** The cores a test started: stopped after it. */
  readonly cores: AppCore[];
}

/**
 * One sandbox (with no rate limit) behind a recording proxy and a held front, started before the
 * tests of the file that calls this and closed after them; after each test the front lets go of
 * what it holds, the proxy rewrites nothing, and the test's cores are stopped.
 */
export function heldWire(sandboxOptions: Partial<SandboxOptions>): HeldWire {
  let started: { sandbox: Sandbox; proxy: RecordingProxy; front: HeldFront } | null = null;
  const get = () => {
    if (!started) throw new Error('the wire is started before the tests');
    return started;
  };
  const cores: AppCore[] = [];
  beforeAll(async () => {
    const sandbox = await startSandbox({ rateLimitPerMinute: 0, ...sandboxOptions });
    const proxy = await startRecordingProxy(sandbox);
    started = { sandbox, proxy, front: await startHeldFront(proxy.origin, proxy.urls) };
  });
  afterEach(async () => {
    get().front.release();
    get().proxy.rewrite = null;
    while (cores.length) await cores.pop()?.stop();
  });
  afterAll(async () => {
    const { sandbox, proxy, front } = get();
    await front.close();
    await proxy.close();
    await sandbox.close();
  });
  return {
    get sandbox() {
      return get().sandbox;
    },
    get proxy() {
      return get().proxy;
    },
    get front() {
      return get().front;
    },
    cores,
  };
}

/**
 * A recording started through the window's calls, as the recorder starts one, and fed the
 * fixture's five chunks a second apart (after `afterStart`, when given); not stopped.
 */
export async function startAndFeed(
  h: HandlerTable,
  input: { patientName: string; templateId?: string; description?: string },
  afterStart?: () => Promise<unknown>,
): Promise<string> {
  const started = await h['recording:start']({ mimeType: 'audio/webm;codecs=opus', ...input });
  if (!started.ok) throw new Error(started.error.message);
  const id = started.data.id;
  await afterStart?.();
  for (const [seq, data] of recorderChunks().entries())
    await h['recording:chunk']({ id, seq, data: new Uint8Array(data), elapsedMs: (seq + 1) * 1000 });
  return id;
}

/**
 * What an upload front does with one PUT (of the recording session named in its address): pass it
 * on to the sandbox's storage (true), or not (false: it has answered it itself, or never will).
 */
export type UploadDecision = (
  req: IncomingMessage,
  res: ServerResponse,
  recordingSessionId: string,
) => boolean | Promise<boolean>;

export interface UploadFront {
  /** Each PUT's recording session and the status it was answered with, in order. */
  puts: { recordingSessionId: string; status: number }[];
  close(): Promise<void>;
}

/**
 * A storage front the test steers: the proxy's upload addresses are rewritten to lead through
 * it, so every PUT reaches it first and goes on as `decide` says, once it has said so.
 */
export async function startUploadFront(proxy: RecordingProxy, decide: UploadDecision): Promise<UploadFront> {
  const puts: UploadFront['puts'] = [];
  const front = createServer((req, res) => {
    const target = new URL(req.url ?? '/', 'http://x').searchParams.get('to') ?? '';
    const recordingSessionId = /recordings(?:%2F|\/)([^%/]+)/.exec(target)?.[1] ?? '';
    void (async () => {
      if (await decide(req, res, recordingSessionId))
        passOn(req, res, target, (status) => puts.push({ recordingSessionId, status }));
      else puts.push({ recordingSessionId, status: res.statusCode });
    })();
  });
  const origin = await listening(front);
  proxy.rewrite = (req, answer) =>
    req.path.endsWith('/audio/generate-upload-url')
      ? { ...(answer as object), url: `${origin}/put?to=${encodeURIComponent((answer as { url: string }).url)}` }
      : undefined;
  return {
    puts,
    close: async () => {
      front.closeAllConnections();
      await new Promise((resolve) => front.close(resolve));
    },
  };
}

/** The data of a handler's answer that must be ok; throws with the answer's message otherwise. */
export async function ok<T>(
  answer: Promise<{ ok: true; data: T } | { ok: false; error: { message: string } }>,
): Promise<T> {
  const a = await answer;
  if (!a.ok) throw new Error(a.error.message);
  return a.data;
}

/**
 * Gives each test of the file that calls this a new, empty folder, removed after it: `root`, and
 * `dir` (`<root>/<sub>`, not made) where the code under test writes.
 */
export function folderEachTest(prefix: string, sub: string): { readonly root: string; readonly dir: string } {
  const folder = { root: '', dir: '' };
  beforeEach(() => {
    folder.root = mkdtempSync(join(tmpdir(), prefix));
    folder.dir = join(folder.root, sub);
  });
  afterEach(() => rmSync(folder.root, { recursive: true, force: true }));
  return folder;
}

/**
 * Passes a request on to `url` as it came (but for its Host) and the answer back as it comes,
 * telling `onAnswer` its status; a target that cannot be reached ends the connection.
 */
export function passOn(req: IncomingMessage, res: ServerResponse, url: string, onAnswer?: (status: number) => void) {
  const onward = request(
    url,
    { method: req.method, headers: { ...req.headers, host: new URL(url).host } },
    (answer) => {
      onAnswer?.(answer.statusCode ?? 0);
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  onward.on('error', () => res.destroy());
  req.pipe(onward);
}

/** Starts the server on a free port of 127.0.0.1: its origin. */
export async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}
