// The engines the engine's tests start, and their closing: a core on its built-in sandbox, signed
// in as the demo vet or not; a sandbox read off the wire by a recording proxy with a signed-in
// core talking through it; and one sandbox, proxy and held front shared by a file's tests. Each test file asks for them once, at its top level, so whatever a test
// started is stopped when it ends, pass or fail.
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { AppCore } from '../../../src/main/core/app-core.ts';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.ts';
import type { SandboxOptions } from '../../../src/sandbox/options.ts';
import { firstTemplateId, startCore, startCoreAgainst, type TestCoreOptions } from '../../support/core.ts';
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

/** A sandbox, a recording proxy in front of it, and a core signed in as the demo vet through the proxy. */
export interface Proxied {
  s: Sandbox;
  proxy: RecordingProxy;
  c: AppCore<Sandbox>;
  /** The first template the service lists. */
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
  const closers: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });
  return async (sandboxOptions = {}, options = {}) => {
    const s = await startSandbox({ rateLimitPerMinute: 0, ...sandboxOptions });
    closers.push(() => s.close());
    const proxy = await startRecordingProxy(s);
    closers.push(() => proxy.close());
    const c = await startCoreAgainst(s, { urls: proxy.urls, ...options });
    closers.push(() => c.stop());
    await c.session.signIn(s.demo.email, s.demo.password);
    return { s, proxy, c, template: await firstTemplateId(c) };
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
