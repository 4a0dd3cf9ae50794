// The session against a real sandbox: sign-in, refresh ahead of expiry and once on a 401,
// one refresh however many callers, a rotated token saved before use, faults while refreshing,
// and a refused refresh that signs out.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { newSandboxSecret, startSandbox, type Sandbox, type SandboxOptions } from '../../../../src/sandbox/index.ts';
import { MemorySecretStore, type StoredSession } from '../../../../src/main/core/sign-in/secret-store.ts';
import { ServiceClient } from '../../../../src/main/core/service/client.ts';
import { ServiceError } from '../../../../src/main/core/service/errors.ts';
import {
  Session,
  SignedOutError,
  type SessionOptions,
  type SessionState,
} from '../../../../src/main/core/sign-in/session.ts';

let sandbox: Sandbox;
afterEach(async () => {
  await sandbox?.close();
});

/** A sandbox of the test's own, a client of it, and a session on it keeping its tokens in `store` (in memory unless told). */
async function setup<S extends MemorySecretStore = MemorySecretStore>(
  options: Partial<SandboxOptions> = {},
  sessionOptions: Omit<SessionOptions, 'client' | 'store'> & { store?: S } = {},
) {
  sandbox = await startSandbox({ scribeSeconds: 0, ...options });
  const client = new ServiceClient({
    urls: () => ({
      agentsUrl: sandbox.urls.agents_url,
      scribeUrl: sandbox.urls.scribe_url,
      agentsApiUrl: sandbox.urls.agents_api_url,
    }),
    timeoutMs: 5000,
  });
  const { store = new MemorySecretStore() as S, ...rest } = sessionOptions;
  const session = new Session({ client, store, ...rest });
  return { client, store, session };
}

/** A store that records the order of saves, to show the rotated token is saved first. */
class RecordingStore extends MemorySecretStore {
  saves: StoredSession[] = [];
  override async save(s: StoredSession) {
    this.saves.push(structuredClone(s));
    await super.save(s);
  }
}

describe('session', () => {
  it('signs in, keeps the tokens in the store and the user in its state', async () => {
    const { session, store } = await setup();
    const state = await session.signIn(sandbox.demo.email, sandbox.demo.password);
    expect(state).toMatchObject({ signedIn: true, user: { email: sandbox.demo.email } });
    const saved = await store.load();
    expect(saved?.accessToken).toMatch(/^eyJ/);
    expect(saved?.refreshToken).toMatch(/^eyJ/);
  });

  it('wrong credentials are an http 401 with the service message, and nothing is stored', async () => {
    const { session, store } = await setup();
    const e = await session.signIn(sandbox.demo.email, 'wrong').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ServiceError);
    expect((e as ServiceError).status).toBe(401);
    expect((e as ServiceError).message).toMatch(/^Invalid credentials$/);
    expect(await store.load()).toBeNull();
    expect(session.state().signedIn).toBe(false);
  });

  it('refreshes ahead of expiry (60 s margin) with one refresh for many concurrent callers', async () => {
    // Two-minute tokens; then the clock moves 61 s on: the token is inside the 60 s margin.
    let offset = 0;
    const { session, client } = await setup({ accessTtlSeconds: 120 }, { now: () => Date.now() + offset });
    await session.signIn(sandbox.demo.email, sandbox.demo.password);
    expect(await session.withToken((t) => client.templates(t, 1, 50))).toBeTruthy();
    expect(sandbox.stats().refreshes).toBe(0);
    offset = 61_000;
    const results = await Promise.all(
      Array.from({ length: 25 }, () => session.withToken((t) => client.templates(t, 1, 50))),
    );
    expect(results.every((r) => r.items.length >= 8)).toBe(true);
    expect(sandbox.stats().refreshes).toBe(1);
    expect(session.refreshCount).toBe(1);
  });

  it('refreshes once on a 401 and repeats the call', async () => {
    const { session, client } = await setup({ accessTtlSeconds: 1 });
    await session.signIn(sandbox.demo.email, sandbox.demo.password);
    // Make the session believe its token is good for an hour, so only the 401 can tell.
    const stored = (await (session as unknown as { store: MemorySecretStore }).store.load())!;
    (session as unknown as { current: StoredSession }).current = {
      ...stored,
      expiresAt: Math.floor(Date.now() / 1000) + 3600,
    };
    await new Promise((r) => setTimeout(r, 1100));
    // The refreshed token lives long: a 1 s token, signed to the second, may be given with a
    // few ms left, and a slow machine would see it expire too before the call is repeated.
    sandbox.options.accessTtlSeconds = 3600;
    const page = await session.withToken((t) => client.templates(t, 1, 50));
    expect(page.items.length).toBeGreaterThan(0);
    expect(sandbox.stats().refreshes).toBe(1);
    expect(sandbox.stats().byRoute['GET /scribe/templates/all']).toBe(2);
  });

  it('saves the rotated refresh token before the new access token is used', async () => {
    let offset = 0;
    const { client, store, session } = await setup(
      { accessTtlSeconds: 120 },
      { store: new RecordingStore(), now: () => Date.now() + offset },
    );
    await session.signIn(sandbox.demo.email, sandbox.demo.password);
    offset = 61_000;
    let tokenUsed = '';
    let savedWhenUsed: StoredSession | undefined;
    await session.withToken(async (t) => {
      tokenUsed = t;
      savedWhenUsed = store.saves.at(-1);
      return client.templates(t, 1, 50);
    });
    expect(store.saves).toHaveLength(2);
    expect(savedWhenUsed?.accessToken).toBe(tokenUsed);
    expect(savedWhenUsed?.refreshToken).not.toBe(store.saves[0]?.refreshToken);
  });

  it('keeps the session through a network failure and 503s while refreshing, and refreshes when the service is back', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'session-faults-'));
    try {
      // The secret the app keeps in its secret store: the same one at every start.
      const secretKey = newSandboxSecret();
      const { session, client } = await setup({ accessTtlSeconds: 1, dataDir, secretKey });
      await session.signIn(sandbox.demo.email, sandbox.demo.password);
      await new Promise((r) => setTimeout(r, 1100));
      const port = sandbox.port;
      // The service goes away: the refresh fails with a network error, the session stays.
      await sandbox.close();
      const offline = await session.withToken((t) => client.templates(t)).catch((x: unknown) => x);
      expect(offline).toBeInstanceOf(ServiceError);
      expect((offline as ServiceError).kind).toBe('network');
      expect(session.state().signedIn).toBe(true);
      // It comes back answering 503 to everything: still signed in.
      sandbox = await startSandbox({ dataDir, port, accessTtlSeconds: 1, failRate: 1, secretKey });
      const busy = await session.withToken((t) => client.templates(t)).catch((x: unknown) => x);
      expect((busy as ServiceError).status).toBe(503);
      expect(session.state().signedIn).toBe(true);
      // And healthy: the same refresh token still works (the token it gives lives long, so a
      // slow machine cannot see it expire before it is used).
      await sandbox.close();
      sandbox = await startSandbox({ dataDir, port, secretKey });
      const page = await session.withToken((t) => client.templates(t));
      expect(page.items.length).toBeGreaterThan(0);
      expect(sandbox.stats().refreshes).toBe(1);
      await sandbox.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('a refused refresh signs out, with the reason, and later calls say so', async () => {
    const { session, client, store } = await setup({ accessTtlSeconds: 1, refreshTtlSeconds: 2 });
    await session.signIn(sandbox.demo.email, sandbox.demo.password);
    const changes: boolean[] = [];
    session.on('changed', (s) => changes.push(s.signedIn));
    await new Promise((r) => setTimeout(r, 2100));
    const e = await session.withToken((t) => client.templates(t)).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SignedOutError);
    expect(session.state()).toMatchObject({ signedIn: false, endedBecause: 'expired' });
    expect(changes).toEqual([false]);
    expect(await store.load()).toBeNull();
    await expect(session.accessToken()).rejects.toBeInstanceOf(SignedOutError);
  });

  it('a refresh the service refuses (a reused token: someone else refreshed) signs out as revoked', async () => {
    const { session, client, store } = await setup({ accessTtlSeconds: 1, refreshReuseGraceSeconds: 0 });
    await session.signIn(sandbox.demo.email, sandbox.demo.password);
    const stolen = (await store.load())!;
    await client.refresh(stolen.accessToken, stolen.refreshToken);
    await new Promise((r) => setTimeout(r, 1100));
    const e = await session.withToken((t) => client.templates(t)).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SignedOutError);
    expect(session.state()).toMatchObject({ signedIn: false, endedBecause: 'revoked' });
    expect(sandbox.stats().refreshReuseDetected).toBe(1);
  });

  it('restores the session from the store at launch', async () => {
    const { session, store, client } = await setup();
    await session.signIn(sandbox.demo.email, sandbox.demo.password);
    const again = new Session({ client, store });
    expect((await again.restore()).signedIn).toBe(true);
    const page = await again.withToken((t) => client.templates(t));
    expect(page.items.length).toBeGreaterThan(0);
  });

  it('starts signed out when the keychain cannot be read at launch (locked, prompt dismissed)', async () => {
    const { client } = await setup();
    const lines: string[] = [];
    const locked = new (class extends MemorySecretStore {
      override async load(): Promise<StoredSession | null> {
        throw new Error('Cannot unlock the collection');
      }
    })();
    const session = new Session({ client, store: locked, log: (l) => lines.push(l) });
    expect(await session.restore()).toMatchObject({ signedIn: false });
    expect(lines.join('\n')).toMatch(/could not be read \(Cannot unlock the collection\)/);
    // Signing in again works as usual.
    expect((await session.signIn(sandbox.demo.email, sandbox.demo.password)).signedIn).toBe(true);
  });
});

describe('the published sign-in and the check at launch', () => {
  it('signs in through /auth/login when its answer holds only the tokens: expiry from the JWT, the user from /users/me', async () => {
    const { store, session } = await setup({ loginTokensOnly: true }, { useScribeLogin: () => true });
    const state = await session.signIn(sandbox.demo.email, sandbox.demo.password);
    expect(state.user).toMatchObject({
      email: sandbox.demo.email,
      id: expect.any(String),
      organizationId: expect.any(String),
    });
    const saved = await store.load();
    expect(saved?.expiresAt).toBeGreaterThan(Date.now() / 1000);
    expect(sandbox.stats().byRoute['GET /scribe/users/me']).toBe(1);
    expect(sandbox.stats().byRoute['POST /agents/auth/sign-in']).toBeUndefined();
  });

  it('at launch, a kept session the service still knows stays, with the user the service names', async () => {
    const { client, store, session } = await setup();
    await session.signIn(sandbox.demo.email, sandbox.demo.password);
    const kept = (await store.load())!;
    await store.save({ ...kept, user: { ...kept.user!, name: 'An old name' } });
    const next = new Session({ client, store });
    await next.restore();
    expect(await next.verify()).toMatchObject({ signedIn: true, user: { name: 'Dr. Demo Vet' } });
    expect((await store.load())?.user?.name).toBe('Dr. Demo Vet');
  });

  it('at launch, a kept session the service refuses signs out and says the session ended', async () => {
    const { client, store, session } = await setup();
    await session.signIn(sandbox.demo.email, sandbox.demo.password);
    const kept = (await store.load())!;
    // Tokens the service never issued (another sandbox's): /users/me and the refresh are refused.
    await store.save({
      ...kept,
      accessToken: `${kept.accessToken.slice(0, -4)}AAAA`,
      refreshToken: `${kept.refreshToken.slice(0, -4)}AAAA`,
    });
    const next = new Session({ client, store });
    await next.restore();
    expect(next.state().signedIn).toBe(true);
    expect(await next.verify()).toMatchObject({ signedIn: false, endedBecause: 'expired' });
    expect(await store.load()).toBeNull();
  });

  it('at launch, a service out of reach keeps the vet signed in', async () => {
    const { store, session } = await setup();
    await session.signIn(sandbox.demo.email, sandbox.demo.password);
    const offline = new ServiceClient({
      urls: () => ({
        agentsUrl: 'http://127.0.0.1:9',
        scribeUrl: 'http://127.0.0.1:9',
        agentsApiUrl: 'http://127.0.0.1:9',
      }),
      timeoutMs: 2000,
    });
    const next = new Session({ client: offline, store });
    await next.restore();
    expect(await next.verify()).toMatchObject({ signedIn: true, user: { email: sandbox.demo.email } });
    expect(await store.load()).not.toBeNull();
  });
});

// The published answers the sandbox may not give: a local stand-in answers as docs/service.md says
// the real service may (tokens alone from /auth/login and from the refresh).
describe('the session against the published token-only answers', () => {
  const jwt = (claims: object) =>
    `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.c2ln`;
  const ME = { public_id: 'u1', email: 'vet@riverside.test', name: 'Dr Vet', organization_public_id: 'o1' };
  type Handler = (req: { method: string; path: string; auth: string | undefined; body: unknown }) => {
    status?: number;
    json: unknown;
  };
  let standIn: Server | null = null;
  const calls: string[] = [];
  afterEach(async () => {
    calls.length = 0;
    if (!standIn) return;
    standIn.closeAllConnections();
    await new Promise((r) => standIn!.close(r));
    standIn = null;
  });

  async function serve(handler: Handler): Promise<ServiceClient> {
    standIn = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const path = req.url ?? '/';
        calls.push(`${req.method} ${path} ${req.headers.authorization ?? '-'}`);
        const answer = handler({
          method: req.method ?? '',
          path,
          auth: req.headers.authorization,
          body: raw ? (JSON.parse(raw) as unknown) : undefined,
        });
        res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' }).end(JSON.stringify(answer.json));
      });
    });
    await new Promise<void>((r) => standIn!.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;
    return new ServiceClient({
      urls: () => ({ agentsUrl: origin, scribeUrl: origin, agentsApiUrl: origin }),
      timeoutMs: 5000,
    });
  }

  it('/auth/login with the three token fields only: expiry from the JWT, the user from /users/me asked with the new token', async () => {
    const exp = Math.floor(Date.now() / 1000) + 3600;
    const access = jwt({ sub: 'u1', exp });
    const client = await serve(({ path }) =>
      path === '/auth/login'
        ? { json: { access_token: access, refresh_token: 'refresh-1', token_type: 'bearer' } }
        : path === '/users/me'
          ? { json: ME }
          : { status: 404, json: { detail: 'Not Found' } },
    );
    const store = new MemorySecretStore();
    const session = new Session({ client, store, useScribeLogin: () => true });
    const state = await session.signIn('vet@riverside.test', 'pw');
    expect(state.user).toEqual({ id: 'u1', email: 'vet@riverside.test', name: 'Dr Vet', organizationId: 'o1' });
    expect(calls).toEqual(['POST /auth/login -', `GET /users/me Bearer ${access}`]);
    expect(await store.load()).toMatchObject({
      accessToken: access,
      refreshToken: 'refresh-1',
      expiresAt: exp,
      user: { id: 'u1' },
    });
  });

  it('a refresh answered with the three token fields only keeps the user already known', async () => {
    let refreshed = 0;
    const client = await serve(({ path, auth }) => {
      if (path === '/auth/sign-in')
        return {
          json: {
            access_token: 'old.a.t',
            refresh_token: 'refresh-1',
            user: { id: 'u1', email: 'vet@riverside.test', name: 'Dr Vet', organization_id: 'o1' },
          },
        };
      if (path === '/auth/refresh-token') {
        refreshed += 1;
        return { json: { access_token: 'new.a.t', refresh_token: 'refresh-2', token_type: 'bearer' } };
      }
      if (path.startsWith('/templates/all'))
        return auth === 'Bearer new.a.t'
          ? { json: { items: [], has_next: false } }
          : { status: 401, json: { detail: 'Token expired' } };
      return { status: 404, json: { detail: 'Not Found' } };
    });
    const store = new MemorySecretStore();
    const session = new Session({ client, store });
    await session.signIn('vet@riverside.test', 'pw');
    expect(await session.withToken((t) => client.templates(t))).toEqual({ items: [], hasNext: false });
    expect(refreshed).toBe(1);
    expect(session.state()).toMatchObject({ signedIn: true, user: { id: 'u1', name: 'Dr Vet', organizationId: 'o1' } });
    expect(await store.load()).toMatchObject({ accessToken: 'new.a.t', refreshToken: 'refresh-2', user: { id: 'u1' } });
  });

  async function keptSession(client: ServiceClient) {
    const store = new MemorySecretStore();
    await store.save({
      obtainedAt: Date.now(),
      accessToken: 'kept.a.t',
      refreshToken: 'kept-refresh',
      user: { id: 'u1', email: 'vet@riverside.test', name: 'Dr Vet', organizationId: 'o1' },
    });
    const session = new Session({ client, store });
    const changes: SessionState[] = [];
    session.on('changed', (s) => changes.push(s));
    await session.restore();
    return { store, session, changes };
  }

  it('at launch, a 401 that the refresh cannot cure signs out, removes the tokens and says the session ended', async () => {
    const client = await serve(({ path }) =>
      path === '/auth/refresh-token'
        ? { status: 401, json: { detail: 'Invalid refresh token' } }
        : { status: 401, json: { detail: 'Could not validate credentials' } },
    );
    const { store, session, changes } = await keptSession(client);
    expect(await session.verify()).toEqual({ signedIn: false, user: null, endedBecause: 'expired' });
    expect(await store.load()).toBeNull();
    expect(changes.at(-1)).toEqual({ signedIn: false, user: null, endedBecause: 'expired' });
    await expect(session.accessToken()).rejects.toThrow('Your session has ended; sign in again.');
    expect(calls).toEqual(['GET /users/me Bearer kept.a.t', 'POST /auth/refresh-token Bearer kept.a.t']);
  });

  it('at launch, a 401 cured by one refresh keeps the vet signed in with the new tokens', async () => {
    const client = await serve(({ path, auth }) => {
      if (path === '/auth/refresh-token')
        return { json: { access_token: 'fresh.a.t', refresh_token: 'fresh-refresh', token_type: 'bearer' } };
      return auth === 'Bearer fresh.a.t' ? { json: ME } : { status: 401, json: { detail: 'Token expired' } };
    });
    const { store, session } = await keptSession(client);
    expect(await session.verify()).toMatchObject({ signedIn: true, user: { id: 'u1' } });
    expect(await store.load()).toMatchObject({ accessToken: 'fresh.a.t', refreshToken: 'fresh-refresh' });
  });

  it('at launch, a service that answers 503 keeps the vet signed in and the tokens kept', async () => {
    const client = await serve(() => ({ status: 503, json: { detail: 'Service Unavailable' } }));
    const { store, session } = await keptSession(client);
    expect(await session.verify()).toMatchObject({ signedIn: true, endedBecause: null });
    expect(await store.load()).toMatchObject({ accessToken: 'kept.a.t' });
  });
});
