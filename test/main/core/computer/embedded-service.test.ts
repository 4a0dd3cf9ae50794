// The built-in sandbox can never take the app down: a data folder where it cannot start, or a
// disk that stops taking its saves mid-run, leaves the app running with the vet's recordings in
// reach and, where the vet must know, a notice. Real files, the real core.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { RecordingStore } from '../../../../src/main/core/recordings/index.ts';
import { MemorySecretStore } from '../../../../src/main/core/sign-in/secret-store.ts';
import { newSandboxSecret, startSandbox, type Sandbox } from '../../../../src/sandbox/index.ts';
import { makeRecording, startCore, tempDir } from '../../../support/core.ts';
import { call, fakeWebm, signIn, uploadRecording } from '../../../support/http.ts';

let core: AppCore | null = null;
const sandboxes: Sandbox[] = [];
afterEach(async () => {
  await core?.stop();
  core = null;
  for (const s of sandboxes.splice(0)) await s.close();
});

async function sandboxAt(dataDir: string, secretKey: string | null) {
  const s = await startSandbox({ dataDir, secretKey, scribeSeconds: 0 });
  sandboxes.push(s);
  return s;
}

const refresh = (s: Sandbox, access: string, token: string) =>
  call<{ access_token: string; refresh_token: string }>('POST', `${s.urls.scribe_url}/auth/refresh-token`, {
    token: access,
    body: { token },
  });

const WEBHOOK_SECRET = 'clinic-webhook-secret-0123456789';

/** A day's work on the sandbox: a sign-in, a refresh, a registered webhook, an upload. */
async function dayOfWork(s: Sandbox) {
  const first = await signIn(s);
  const rotated = await refresh(s, first.access, first.refresh);
  expect(rotated.status).toBe(200);
  const access = rotated.json.access_token;
  const hook = await call('PUT', `${s.urls.scribe_url}/webhook/update`, {
    token: access,
    body: { event_type: 'scribe', webhook_url: 'https://hooks.clinic.test/scribe', auth_token: WEBHOOK_SECRET },
  });
  expect(hook.status).toBe(200);
  const upload = await uploadRecording(s, access, fakeWebm());
  const address = await call<{ url: string }>('POST', `${s.urls.scribe_url}/audio/generate-upload-url`, {
    token: access,
    body: { recording_session_public_id: upload.recordingSessionId },
  });
  return {
    first,
    access,
    refresh: rotated.json.refresh_token,
    recordingSessionId: upload.recordingSessionId,
    url: address.json.url,
  };
}

describe('the sandbox cannot take the app down', () => {
  it('a sandbox folder that cannot be made: the app starts, the recordings are there, and the vet is told the sandbox could not start', async () => {
    const dataDir = tempDir();
    const id = await makeRecording(new RecordingStore({ dir: join(dataDir, 'recordings') }));
    // Where the sandbox keeps its state and uploads, a file.
    writeFileSync(join(dataDir, 'sandbox'), 'not a folder');
    core = await startCore({ dataDir });
    expect(core.cache.all().map((c) => c.recording.id)).toEqual([id]);
    expect(core.embeddedSandbox).toBeNull();
    expect(core.appInfo().notices).toContainEqual({
      level: 'error',
      message:
        'The built-in sandbox could not start, so nothing can be sent to it. Recordings on this computer are kept. Choose another service in Settings, or restart the app.',
    });
  });

  it('a disk that stops taking the sandbox saves mid-run: it goes on in memory, leaves no half-written file, and the app keeps answering', async () => {
    const dataDir = tempDir();
    core = await startCore({ dataDir });
    const sandboxDir = join(dataDir, 'sandbox');
    expect(readdirSync(sandboxDir)).toContain('sandbox-state.json');
    // The folder goes away and a file takes its place: every save fails from now on.
    rmSync(sandboxDir, { recursive: true, force: true });
    writeFileSync(sandboxDir, 'not a folder');
    const demo = core.appInfo().sandbox?.demo;
    if (!demo) throw new Error('no sandbox');
    // A sign-in saves the sandbox's state: it fails underneath, and the sign-in still works.
    expect((await core.session.signIn(demo.email, demo.password)).signedIn).toBe(true);
    expect(core.embeddedSandbox?.stateProblem()).toMatch(/^its state could not be saved \(ENOTDIR\)$/);
    // The sandbox's own clock (it saves when a job finishes) ran through the failures too.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(
      (await core.client.templates(await core.session.withToken((t) => Promise.resolve(t)), 1, 5)).items.length,
    ).toBeGreaterThan(0);
    // Back to a folder: the next save writes the state again.
    rmSync(sandboxDir, { force: true });
    mkdirSync(sandboxDir);
    await core.session.signOut('user');
    await core.session.signIn(demo.email, demo.password);
    expect(core.embeddedSandbox?.stateProblem()).toBeNull();
    expect(readdirSync(sandboxDir)).toEqual(['sandbox-state.json']);
  });
});

describe('a sandbox-state.json it cannot read', () => {
  it('is left as it is; the sandbox starts afresh in memory and says what is wrong with the file', async () => {
    const cases: [string, RegExp][] = [
      ['{"version":2,"users":[]}', /version: unknown sandbox state version 2\)$/],
      ['{"version":1,"users":{},"organizations":[]}', /users: Invalid input: expected array, received object\)$/],
      ['{"version":1,"users":[], "organiz', /JSON/],
    ];
    for (const [text, problem] of cases) {
      const dataDir = tempDir();
      writeFileSync(join(dataDir, 'sandbox-state.json'), text);
      const s = await sandboxAt(dataDir, null);
      expect(s.stateProblem()).toMatch(/^its state could not be read or kept \(/);
      expect(s.stateProblem()).toMatch(problem);
      // It answers all the same: the demo account signs in.
      expect((await signIn(s)).access).toBeTruthy();
      expect(readFileSync(join(dataDir, 'sandbox-state.json'), 'utf8')).toBe(text);
    }
  });
});

describe('a slow body cannot hold the sandbox', () => {
  it('closes a connection on which nothing moves for the idle time, and not one that keeps flowing', async () => {
    const { startSandbox } = await import('../../../../src/sandbox/index.ts');
    const { connect } = await import('node:net');
    const sandbox = await startSandbox({ idleTimeoutMs: 400, rateLimitPerMinute: 0 });
    try {
      const { hostname, port } = new URL(sandbox.origin);
      const open = () => connect({ host: hostname, port: Number(port) });
      const closedWithin = (socket: ReturnType<typeof open>, ms: number) =>
        new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), ms);
          socket.on('close', () => (clearTimeout(timer), resolve(true)));
          socket.on('error', () => undefined);
        });
      const head = `POST /agents/auth/sign-in HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":`;
      // Stalled after a few bytes of its body: closed.
      const stalled = open();
      stalled.write(head);
      expect(await closedWithin(stalled, 3_000)).toBe(true);
      // A body that keeps coming, a byte every 100 ms for 1.5 s: not cut.
      const flowing = open();
      flowing.write(head);
      const gone = closedWithin(flowing, 1_500);
      const drip = setInterval(() => flowing.write(' '), 100);
      expect(await gone).toBe(false);
      clearInterval(drip);
      flowing.destroy();
      // And the sandbox answers the others all along.
      expect(
        (
          await fetch(`${sandbox.urls.agents_url}/auth/sign-in`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(sandbox.demo),
          })
        ).status,
      ).toBe(200);
    } finally {
      await sandbox.close();
    }
  });
});

describe('the sandbox state file holds no key and no live token', () => {
  it('after sign-ins, a refresh, a registered webhook and an upload address, the file has none of them, and the webhook secret only sealed', async () => {
    const dataDir = tempDir();
    const secretKey = newSandboxSecret();
    const s = await sandboxAt(dataDir, secretKey);
    const day = await dayOfWork(s);
    const file = readFileSync(join(dataDir, 'sandbox-state.json'), 'utf8');
    for (const [what, secret] of [
      ['the first access token', day.first.access],
      ['the first refresh token', day.first.refresh],
      ['the access token after the refresh', day.access],
      ['the refresh token after the refresh', day.refresh],
      ['the webhook secret', WEBHOOK_SECRET],
      ['the secret the keys come from', secretKey],
      ["the upload address's signature", new URL(day.url).searchParams.get('X-Amz-Signature') ?? 'none'],
    ] as const) {
      expect(file.includes(secret), `${what} in the state file`).toBe(false);
    }
    const state = JSON.parse(file) as Record<string, unknown> & {
      webhooks: Record<string, unknown>[];
      refresh_families: Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(state)).not.toContain('jwt_secret');
    expect(Object.keys(state)).not.toContain('upload_secret');
    for (const family of Object.values(state.refresh_families))
      expect(Object.keys(family)).not.toContain('last_answer');
    const sealed = state.webhooks.map((h) => h['auth_token_sealed']).filter((v) => typeof v === 'string');
    expect(sealed).toHaveLength(1);
    expect(state.webhooks.every((h) => !('auth_token' in h))).toBe(true);
  });

  it('started again with the same secret (the app keeps it in its secret store), the sign-in, the upload address and the webhook secret still serve', async () => {
    const dataDir = tempDir();
    const secretKey = newSandboxSecret();
    const first = await sandboxAt(dataDir, secretKey);
    const day = await dayOfWork(first);
    await first.close();
    const again = await sandboxAt(dataDir, secretKey);
    const templates = await call('GET', `${again.urls.scribe_url}/templates/all`, { token: day.access });
    expect(templates.status).toBe(200);
    const url = day.url.replace(first.origin, again.origin);
    expect((await call('PUT', url, { rawBody: fakeWebm() })).status).toBe(200);
    expect((await refresh(again, day.access, day.refresh)).status).toBe(200);
  });

  it('started with another secret: the sign-ins and upload addresses of before are refused (an address as InvalidAccessKeyId, which the app asks again for), and the data stays', async () => {
    const dataDir = tempDir();
    const first = await sandboxAt(dataDir, newSandboxSecret());
    const day = await dayOfWork(first);
    await first.close();
    const again = await sandboxAt(dataDir, null);
    expect((await call('GET', `${again.urls.scribe_url}/templates/all`, { token: day.access })).status).toBe(401);
    const put = await call('PUT', day.url.replace(first.origin, again.origin), { rawBody: fakeWebm() });
    expect([put.status, /<Code>InvalidAccessKeyId<\/Code>/.test(put.text)]).toEqual([403, true]);
    // Signed in again, the session of before is still there and takes a new address.
    const me = await signIn(again);
    const address = await call<{ url: string }>('POST', `${again.urls.scribe_url}/audio/generate-upload-url`, {
      token: me.access,
      body: { recording_session_public_id: day.recordingSessionId },
    });
    expect(address.status).toBe(200);
    expect((await call('PUT', address.json.url, { rawBody: fakeWebm() })).status).toBe(200);
  });

  it('a refresh answer lost just before a restart: the token rotated away is answered with a new pair, not taken for a stolen one', async () => {
    const dataDir = tempDir();
    const secretKey = newSandboxSecret();
    const first = await sandboxAt(dataDir, secretKey);
    const me = await signIn(first);
    // Answered, but the answer never reached the app.
    expect((await refresh(first, me.access, me.refresh)).status).toBe(200);
    await first.close();
    const again = await sandboxAt(dataDir, secretKey);
    const replay = await refresh(again, me.access, me.refresh);
    expect(replay.status).toBe(200);
    expect(
      (await call('GET', `${again.urls.scribe_url}/templates/all`, { token: replay.json.access_token })).status,
    ).toBe(200);
    expect((await refresh(again, replay.json.access_token, replay.json.refresh_token)).status).toBe(200);
  });

  it('a state file of the version before (keys, last answers and the webhook secret in it) loads, and the next save leaves none of them', async () => {
    const dataDir = tempDir();
    const first = await sandboxAt(dataDir, newSandboxSecret());
    await dayOfWork(first);
    await first.close();
    const path = join(dataDir, 'sandbox-state.json');
    const old = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown> & {
      webhooks: Record<string, unknown>[];
      refresh_families: Record<string, Record<string, unknown>>;
    };
    old['jwt_secret'] = Buffer.alloc(32, 7).toString('base64');
    old['upload_secret'] = Buffer.alloc(32, 9).toString('base64');
    for (const f of Object.values(old.refresh_families))
      f['last_answer'] = {
        access_token: 'old.access.token',
        refresh_token: 'old.refresh.token',
        expires_at: 1,
        refresh_expires_at: 2,
      };
    for (const h of old.webhooks)
      if (h['auth_token_sealed']) {
        delete h['auth_token_sealed'];
        h['auth_token'] = WEBHOOK_SECRET;
      }
    writeFileSync(path, JSON.stringify(old));
    const again = await sandboxAt(dataDir, newSandboxSecret());
    const file = readFileSync(path, 'utf8');
    for (const gone of ['jwt_secret', 'upload_secret', 'last_answer', 'old.access.token', WEBHOOK_SECRET])
      expect(file.includes(gone), gone).toBe(false);
    expect(file).toContain('auth_token_sealed');
    expect(again.stats().requests).toBe(0);
  });

  it('the app keeps the built-in sandbox secret in its secret store: a restart of the app keeps the vet signed in to it, and the file holds no key', async () => {
    const dataDir = tempDir();
    // One store for both runs, as the system keychain is.
    const secretStore = new MemorySecretStore();
    // As the browser host passes them: sandbox options parsed from flags, secretKey null.
    const sandbox = { secretKey: null };
    core = await startCore({ dataDir, secretStore, sandbox });
    const demo = core.appInfo().sandbox?.demo;
    if (!demo) throw new Error('no sandbox');
    await core.session.signIn(demo.email, demo.password);
    const kept = await secretStore.loadSecret('sandbox-key');
    expect(kept).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    await core.stop();
    core = await startCore({ dataDir, secretStore, sandbox });
    expect(await core.session.verify()).toMatchObject({ signedIn: true });
    expect(await secretStore.loadSecret('sandbox-key')).toBe(kept);
    expect(readFileSync(join(dataDir, 'sandbox', 'sandbox-state.json'), 'utf8').includes(kept ?? 'none')).toBe(false);
  });
});

describe('a sign-in does not hold up the process', () => {
  it('while eight sign-ins hash their passwords (async scrypt) the event loop keeps turning; hashed in the loop, it would turn once between each', async () => {
    const { Auth } = await import('../../../../src/sandbox/auth.ts');
    const { StateStore, DEMO_ACCOUNT } = await import('../../../../src/sandbox/state.ts');
    const { sandboxKeys } = await import('../../../../src/sandbox/keys.ts');
    const { DEFAULT_OPTIONS } = await import('../../../../src/sandbox/options.ts');
    const keys = sandboxKeys(null);
    const auth = new Auth(new StateStore(null, keys), DEFAULT_OPTIONS, keys.jwt);
    let turns = 0;
    let done = false;
    const spin = () => {
      if (done) return;
      turns += 1;
      setImmediate(spin);
    };
    setImmediate(spin);
    await Promise.all(Array.from({ length: 8 }, () => auth.checkPassword(DEMO_ACCOUNT.email, DEMO_ACCOUNT.password)));
    done = true;
    // Each hash takes tens of milliseconds; a free loop turns many times a millisecond.
    expect(turns).toBeGreaterThan(100);
  });
});
