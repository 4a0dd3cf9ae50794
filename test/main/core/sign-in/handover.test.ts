// Hand-over on a shared computer, through the sandbox over real HTTP: Dr. Demo Vet stops a
// consult and switches user; a colleague signs in. The leaving vet's consult goes on with their
// own sign-in (kept in the background) and finishes once, or waits for its owner when that
// sign-in ends. Every request on the consult's way is read off the wire, and the user each
// token was issued to (its `sub`) must be the owner's.
import { describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { createHandlers, type HandlerTable } from '../../../../src/main/core/ipc-handlers.ts';
import { MemorySecretStore } from '../../../../src/main/core/sign-in/secret-store.ts';
import { startSandbox } from '../../../../src/sandbox/index.ts';
import type { SandboxOptions } from '../../../../src/sandbox/options.ts';
import { COLLEAGUE_ACCOUNT } from '../../../../src/sandbox/state.ts';
import { firstTemplateId, startCoreAgainst, waitForJob, until } from '../../../support/core.ts';
import { startRecordingProxy, type RecordingProxy, tokenUser } from '../../../support/recording-proxy.ts';
import { closedAfterEach, type ProxiedWindow, startAndFeed, startUploadFront } from '../support.ts';

const atEnd = closedAfterEach();

/** The users whose tokens went with the consult's requests (sessions, uploads, scribe, polls). */
function sendersOf(proxy: RecordingProxy): string[] {
  return [
    ...new Set(
      proxy.seen
        .filter((r) => /recording-sessions|generate-upload-url|scribe\/request|\/scribe\//.test(r.path))
        .filter((r) => r.headers.authorization !== undefined)
        .map((r) => tokenUser(r.headers.authorization) ?? '?'),
    ),
  ];
}

interface World extends ProxiedWindow {
  store: MemorySecretStore;
  /** The demo vet's user id: the owner of what they record. */
  owner: string;
  /** Opens the storage's held upload, when one is held. */
  release: () => void;
  held: () => number;
}

/**
 * A sandbox behind a recording proxy, storage that holds the first upload until released (when
 * told), and a core with the demo vet signed in.
 */
async function world(options: Partial<SandboxOptions>, holdUpload: boolean): Promise<World> {
  const sandbox = await startSandbox({ scribeSeconds: 0.3, rateLimitPerMinute: 0, ...options });
  atEnd(() => sandbox.close());
  const proxy = await startRecordingProxy(sandbox);
  atEnd(() => proxy.close());
  let held = 0;
  let release = () => {};
  const opened = new Promise<void>((resolve) => (release = resolve));
  const front = await startUploadFront(proxy, async () => {
    if (held++ === 0 && holdUpload) await opened;
    return true;
  });
  atEnd(() => front.close());
  const store = new MemorySecretStore();
  const c = await startCoreAgainst(sandbox, { urls: proxy.urls, secretStore: store });
  atEnd(() => c.stop());
  await c.session.signIn(sandbox.demo.email, sandbox.demo.password);
  const owner = c.session.state().user?.id ?? '';
  return { sandbox, proxy, c, h: createHandlers(c), store, owner, release, held: () => held };
}

/** The vet in front records a consult with a template; once its note is being written, they switch user. */
async function inFlightThenSwitch(w: World, patientName: string): Promise<string> {
  const id = await recordWithTemplate(w.h, w.c, patientName);
  await waitForJob(w.c, id, (j) => j.state === 'scribe_requested');
  await w.h['session:switchUser'](undefined);
  return id;
}

describe('switch user with consults in flight', () => {
  it("an upload half done goes on with the leaving vet's own sign-in while a colleague works; it finishes once and the background sign-in ends", async () => {
    const { proxy, c, store, release, held, h, owner } = await world({}, true);
    const id = await recordWithTemplate(h, c, 'Bella');
    await until(() => held() === 1);
    expect(c.pipeline.info(id)?.state).toBe('upload_url');

    const switched = await h['session:switchUser'](undefined);
    expect(switched).toMatchObject({ ok: true, data: { signedIn: false, switched: true } });
    expect(switched.ok && switched.data.background).toEqual([{ userId: owner, name: 'Dr. Demo Vet' }]);
    // The tokens are in the account's own entry, not in the window's answer.
    expect(JSON.stringify(switched)).not.toMatch(/eyJ/);
    expect((await store.forAccount(owner).load())?.user?.id).toBe(owner);
    expect(await store.load()).toBeNull();

    await c.session.signIn(COLLEAGUE_ACCOUNT.email, COLLEAGUE_ACCOUNT.password);
    const colleague = c.session.state().user?.id ?? '';
    expect(colleague).not.toBe(owner);
    release();
    expect((await waitForJob(c, id, (j) => j.state === 'completed' || j.state === 'failed')).state).toBe('completed');
    expect(proxy.find('POST', '/scribe/request')).toHaveLength(1);
    expect(sendersOf(proxy)).toEqual([owner]);
    // Done: the background sign-in ends and its entry is cleared.
    await until(() => !c.background.has(owner));
    expect(await store.forAccount(owner).load()).toBeNull();
    expect(c.calls.sessionInfo().background).toBeUndefined();
    expect(c.session.state().user?.id).toBe(colleague);
  });

  it("a note being written is polled with its owner's sign-in; signing in again as that vet brings the sign-in to the front, and signing out ends it everywhere", async () => {
    const w = await world({ scribeSeconds: 2 }, false);
    const { sandbox, proxy, c, store, h, owner } = w;
    const bella = await inFlightThenSwitch(w, 'Bella');
    await c.session.signIn(COLLEAGUE_ACCOUNT.email, COLLEAGUE_ACCOUNT.password);
    expect((await waitForJob(c, bella, (j) => j.state === 'completed' || j.state === 'failed')).state).toBe(
      'completed',
    );
    expect(proxy.find('POST', '/scribe/request')).toHaveLength(1);
    expect(sendersOf(proxy).sort()).toEqual([owner].sort());

    // A second consult in flight, then the owner signs in again: one sign-in per account.
    await h['session:signOut'](undefined);
    await c.session.signIn(sandbox.demo.email, sandbox.demo.password);
    const rex = await inFlightThenSwitch(w, 'Rex');
    expect(c.background.has(owner)).toBe(true);
    await h['session:signIn']({ email: sandbox.demo.email, password: sandbox.demo.password });
    expect(c.background.has(owner)).toBe(false);
    expect(await store.forAccount(owner).load()).toBeNull();
    // Signing out (not switching) leaves no sign-in of theirs anywhere.
    await h['session:signOut'](undefined);
    expect(c.background.has(owner)).toBe(false);
    expect(await store.load()).toBeNull();
    expect(c.pipeline.info(rex)?.state).not.toBe('completed');
  });

  it('a note ready between the switch and the next sign-in is told to the colleague when they sign in, once', async () => {
    const w = await world({ scribeSeconds: 1 }, false);
    const { sandbox, c, h } = w;
    const bella = await recordWithTemplate(h, c, 'Bella');
    await waitForJob(c, bella, (j) => j.state === 'scribe_requested');
    const told: string[] = [];
    c.on('note:ready', (e) => told.push(e.recording.id));
    await h['session:switchUser'](undefined);
    // Ready while no one is signed in: there is no one to tell yet.
    expect((await waitForJob(c, bella, (j) => j.state === 'completed' || j.state === 'failed')).state).toBe(
      'completed',
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(told).toEqual([]);
    await c.session.signIn(COLLEAGUE_ACCOUNT.email, COLLEAGUE_ACCOUNT.password);
    await until(() => told.length > 0, 5_000);
    expect(told).toEqual([bella]);
    // Told once: the next sign-in hears nothing more of it.
    await h['session:signOut'](undefined);
    await c.session.signIn(sandbox.demo.email, sandbox.demo.password);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(told).toEqual([bella]);
  });

  it('a background sign-in is restored at launch while its consults are in flight, and ends when they are done', async () => {
    const w = await world({ scribeSeconds: 3 }, false);
    const { sandbox, proxy, c, store, owner } = w;
    const bella = await inFlightThenSwitch(w, 'Bella');
    await c.stop();

    // The app starts again on the same data folder and store: the sign-in comes back in the background.
    const again = await startCoreAgainst(sandbox, { urls: proxy.urls, secretStore: store, dataDir: c.options.dataDir });
    atEnd(() => again.stop());
    expect(again.background.has(owner)).toBe(true);
    expect(again.session.state().signedIn).toBe(false);
    expect((await waitForJob(again, bella, (j) => j.state === 'completed' || j.state === 'failed')).state).toBe(
      'completed',
    );
    await until(() => !again.background.has(owner));
    expect(await store.forAccount(owner).load()).toBeNull();
    expect(proxy.find('POST', '/scribe/request')).toHaveLength(1);
    expect(sendersOf(proxy)).toEqual([owner]);

    // Started again with nothing in flight, no background sign-in is kept.
    await again.stop();
    const third = await startCoreAgainst(sandbox, { urls: proxy.urls, secretStore: store, dataDir: c.options.dataDir });
    atEnd(() => third.stop());
    expect(third.background.has(owner)).toBe(false);
  });

  it('a change of service ends the background sign-ins: they belong to the service they were made with', async () => {
    const w = await world({ scribeSeconds: 60 }, false);
    const { sandbox, c, store, h, owner } = w;
    await inFlightThenSwitch(w, 'Bella');
    expect(c.background.has(owner)).toBe(true);
    await h['settings:update']({
      serviceUrls: {
        agentsUrl: sandbox.urls.agents_url,
        scribeUrl: sandbox.urls.scribe_url,
        agentsApiUrl: sandbox.urls.agents_api_url,
      },
    });
    expect(c.background.has(owner)).toBe(false);
    expect(await store.forAccount(owner).load()).toBeNull();
  });

  it("when the leaving vet's sign-in is refused in the background, their consult waits for them and says so; back, it finishes once with their account", async () => {
    const w = await world({ scribeSeconds: 6, accessTtlSeconds: 2, refreshReuseGraceSeconds: 0 }, false);
    const { sandbox, proxy, c, store, owner } = w;
    const bella = await inFlightThenSwitch(w, 'Bella');
    await c.session.signIn(COLLEAGUE_ACCOUNT.email, COLLEAGUE_ACCOUNT.password);
    // The background sign-in's refresh token is used elsewhere: its next refresh is refused.
    const kept = await store.forAccount(owner).load();
    if (!kept) throw new Error('no background sign-in');
    await c.client.refresh(kept.accessToken, kept.refreshToken);
    const waiting = await waitForJob(c, bella, (j) => j.waitingFor === 'owner', 15_000);
    expect(waiting.state).toBe('scribe_requested');
    expect(c.background.has(owner)).toBe(false);
    expect(c.calls.sessionInfo().background).toBeUndefined();
    expect(sendersOf(proxy)).toEqual([owner]);

    await c.session.signOut('user');
    await c.session.signIn(sandbox.demo.email, sandbox.demo.password);
    expect((await waitForJob(c, bella, (j) => j.state === 'completed' || j.state === 'failed')).state).toBe(
      'completed',
    );
    expect(proxy.find('POST', '/scribe/request')).toHaveLength(1);
    expect(sendersOf(proxy)).toEqual([owner]);
  });
});

/** A consult recorded and stopped through the window's calls, with the first template: sent at Stop. */
async function recordWithTemplate(h: HandlerTable, c: AppCore, patientName: string): Promise<string> {
  const id = await startAndFeed(h, { patientName, templateId: await firstTemplateId(c) });
  await h['recording:stop']({ id, durationMs: 5000 });
  return id;
}
