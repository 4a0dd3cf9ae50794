// The recording session and its upload address asked for while recording, through the window's
// calls and the sandbox over real HTTP, read off the wire by a recording proxy: once the name is
// known they are made, and Stop goes straight to the PUT; a name changed after that gets a session
// of its own at Stop; an address expired before Stop is asked for again; a recording deleted
// after its session was made uploads nothing.
import { describe, expect, it } from 'vitest';
import { createHandlers } from '../../../../src/main/core/ipc-handlers.ts';
import { MemorySecretStore } from '../../../../src/main/core/sign-in/secret-store.ts';
import { startSandbox } from '../../../../src/sandbox/index.ts';
import { COLLEAGUE_ACCOUNT } from '../../../../src/sandbox/state.ts';
import type { PipelineOptions } from '../../../../src/main/core/jobs/pipeline.ts';
import { firstTemplateId, startCoreAgainst, tempDir, waitForJob, until } from '../../../support/core.ts';
import { startRecordingProxy, tokenUser } from '../../../support/recording-proxy.ts';
import { closedAfterEach, type ProxiedWindow, startAndFeed } from '../support.ts';

const atEnd = closedAfterEach();

type Handlers = ReturnType<typeof createHandlers>;

interface World extends ProxiedWindow {
  dataDir: string;
}

async function world({
  uploadTtlSeconds = 900,
  pipeline = {},
}: { uploadTtlSeconds?: number; pipeline?: Partial<PipelineOptions> } = {}): Promise<World> {
  const sandbox = await startSandbox({ scribeSeconds: 0.3, rateLimitPerMinute: 0, uploadTtlSeconds });
  atEnd(() => sandbox.close());
  const proxy = await startRecordingProxy(sandbox);
  atEnd(() => proxy.close());
  const w = { sandbox, proxy } as World;
  await startAgain(w, tempDir('vet-scribe-early-'), pipeline);
  return w;
}

/** A core (again) on the data folder given, through the world's proxy, signed in as the demo vet. */
async function startAgain(w: World, dataDir: string, pipeline: Partial<PipelineOptions> = {}): Promise<void> {
  const c = await startCoreAgainst(w.sandbox, {
    dataDir,
    urls: w.proxy.urls,
    secretStore: new MemorySecretStore(),
    // Asked for as soon as the name has settled: the rule on how much is recorded first has a test of its own.
    pipeline: { earlyRecordingSessionDelayMs: 200, earlyRecordingSessionAfterMs: 0, ...pipeline },
  });
  atEnd(() => c.stop());
  w.dataDir = dataDir;
  w.c = c;
  w.h = createHandlers(c);
  await c.session.signIn(w.sandbox.demo.email, w.sandbox.demo.password);
}

async function start(w: World, patientName: string, afterStart?: () => Promise<unknown>): Promise<string> {
  return startAndFeed(w.h, { patientName, templateId: await firstTemplateId(w.c) }, afterStart);
}

async function stop(w: World, id: string): Promise<number> {
  const at = Date.now();
  const stopped = await w.h['recording:stop']({ id, durationMs: 5000 });
  if (!stopped.ok) throw new Error(stopped.error.message);
  return at;
}

const creates = (w: World) => w.proxy.find('POST', '/recording-sessions/create');
const addresses = (w: World) => w.proxy.find('POST', '/audio/generate-upload-url');
const puts = (w: World) => w.proxy.seen.filter((r) => r.method === 'PUT');
const sessionOf = (r: { answer: unknown }) => (r.answer as { public_id?: string }).public_id ?? '';

/** The clinic's list, read again from the service, has the session (which it does list) only as this computer's. */
async function expectNotFromElsewhere(w: World, recordingSessionId: string): Promise<void> {
  expect(recordingSessionId).not.toBe('');
  const view = await w.h['clinic:refresh'](undefined);
  if (!view.ok) throw new Error(view.error.message);
  expect(view.data.error).toBeNull();
  expect(JSON.stringify(w.proxy.find('GET', '/recording-sessions/all').map((r) => r.answer))).toContain(
    recordingSessionId,
  );
  expect(
    view.data.consults.filter(
      (c) => c.recordingSessionId === recordingSessionId || c.key === `recording-session:${recordingSessionId}`,
    ),
  ).toEqual([]);
}

/** The clinic's list as a computer signed in to `h` shows it after a refresh: its patients' names. */
async function clinicNames(h: Handlers): Promise<(string | null)[]> {
  const view = await h['clinic:refresh'](undefined);
  if (!view.ok) throw new Error(view.error.message);
  expect(view.data.error).toBeNull();
  return view.data.consults.map((c) => c.patientName);
}

/** The recording sessions the service holds for a patient (GET /recording-sessions/all). */
async function sessionsAt(w: World, patientName: string): Promise<string[]> {
  const page = await w.c.session.withToken((t) => w.c.client.recordingSessionList(t, 1, 50));
  return page.items.filter((i) => i.patientName === patientName).map((i) => i.id);
}

/** Whether `p` settles within `ms`. */
async function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const settled = await Promise.race([p.then(() => true), late]);
  clearTimeout(timer);
  return settled;
}

describe('the recording session asked for while recording', () => {
  it('is made once the name is known, and Stop goes straight to the upload', async () => {
    const w = await world();
    const id = await start(w, 'Bella');
    await until(() => addresses(w).length === 1);
    expect(creates(w)).toHaveLength(1);
    expect((creates(w)[0]?.json as { patient_name?: string }).patient_name).toBe('Bella');
    expect(puts(w)).toHaveLength(0);
    const stoppedAt = await stop(w, id);
    expect((await waitForJob(w.c, id, (j) => j.state === 'completed' || j.state === 'failed')).state).toBe('completed');
    // Nothing asked of the service between Stop and the upload: one session, one address, in all.
    expect(creates(w)).toHaveLength(1);
    expect(addresses(w)).toHaveLength(1);
    expect(puts(w)).toHaveLength(1);
    expect(puts(w)[0]?.at).toBeGreaterThanOrEqual(stoppedAt);
    const recordingSessionId = sessionOf(creates(w)[0] ?? { answer: null });
    expect(decodeURIComponent(puts(w)[0]?.path ?? '')).toContain(`recordings/${recordingSessionId}/`);
    const scribe = w.proxy.find('POST', '/scribe/request');
    expect(scribe).toHaveLength(1);
    expect((scribe[0]?.json as { recording_session_public_id?: string }).recording_session_public_id).toBe(
      recordingSessionId,
    );
    expect(w.c.pipeline.counters.earlyRecordingSessionsUsed).toBe(1);
  });

  it('a name changed after the session was made: a new session under the new name at Stop, the first unused', async () => {
    const w = await world();
    const id = await start(w, 'Bela');
    await until(() => addresses(w).length === 1);
    const early = sessionOf(creates(w)[0] ?? { answer: null });
    const renamed = await w.h['consults:update']({ id, patientName: 'Bella' });
    if (!renamed.ok) throw new Error(renamed.error.message);
    await new Promise((resolve) => setTimeout(resolve, 600));
    // At most once per recording: no second session while recording.
    expect(creates(w)).toHaveLength(1);
    await stop(w, id);
    expect((await waitForJob(w.c, id, (j) => j.state === 'completed' || j.state === 'failed')).state).toBe('completed');
    const made = creates(w);
    expect(made.map((r) => (r.json as { patient_name?: string }).patient_name)).toEqual(['Bela', 'Bella']);
    const used = sessionOf(made[1] ?? { answer: null });
    expect(puts(w)).toHaveLength(1);
    expect(decodeURIComponent(puts(w)[0]?.path ?? '')).toContain(`recordings/${used}/`);
    const scribe = w.proxy.find('POST', '/scribe/request');
    expect(scribe.map((r) => (r.json as { recording_session_public_id?: string }).recording_session_public_id)).toEqual(
      [used],
    );
    // The first session: nothing uploaded to it, nothing asked of it.
    const after = w.proxy.seen.filter((r) => r.method === 'PUT' || r.path.endsWith('/scribe/request'));
    expect(after.length).toBe(2);
    expect(JSON.stringify(after)).not.toContain(early);
    expect(w.c.pipeline.counters.earlyRecordingSessionsUnused).toBe(1);
    // The unused session stays at the service, but it is this computer's: never a visit from elsewhere.
    await expectNotFromElsewhere(w, early);
  });

  it('an address expired before Stop is asked for again, and the upload goes through', async () => {
    const w = await world({ uploadTtlSeconds: 2 });
    const id = await start(w, 'Mango');
    await until(() => addresses(w).length === 1);
    // Past the address's life. The next one lives long, so a slow machine cannot see it expire
    // too (a 2 s address, signed to the second, may have only just over 1 s left when given).
    await new Promise((resolve) => setTimeout(resolve, 2500));
    w.sandbox.options.uploadTtlSeconds = 3600;
    await stop(w, id);
    expect((await waitForJob(w.c, id, (j) => j.state === 'completed' || j.state === 'failed')).state).toBe('completed');
    expect(creates(w)).toHaveLength(1);
    expect(addresses(w)).toHaveLength(2);
    expect(puts(w).map((r) => r.status)).toEqual([200]);
    expect(w.c.pipeline.counters.uploadUrlRenewals).toBe(1);
  });

  it('a recording deleted after its session was made: nothing is uploaded, nothing asked for', async () => {
    const w = await world();
    const id = await start(w, 'Pepper');
    await until(() => addresses(w).length === 1);
    const deleted = await w.h['consults:delete']({ id });
    if (!deleted.ok) throw new Error(deleted.error.message);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(puts(w)).toHaveLength(0);
    expect(w.proxy.find('POST', '/scribe/request')).toHaveLength(0);
    expect(creates(w)).toHaveLength(1);
    expect(addresses(w)).toHaveLength(1);
    expect(w.c.pipeline.counters.earlyRecordingSessionsUsed).toBe(0);
    await expectNotFromElsewhere(w, sessionOf(creates(w)[0] ?? { answer: null }));
  });
  it('signed out while recording: nothing is asked for then, and Stop makes the session as before', async () => {
    const w = await world();
    const id = await start(w, 'Biscuit', () => w.c.session.signOut());
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(creates(w)).toHaveLength(0);
    await w.c.session.signIn(w.sandbox.demo.email, w.sandbox.demo.password);
    const stoppedAt = await stop(w, id);
    expect((await waitForJob(w.c, id, (j) => j.state === 'completed' || j.state === 'failed')).state).toBe('completed');
    expect(creates(w)).toHaveLength(1);
    expect(creates(w)[0]?.at).toBeGreaterThanOrEqual(stoppedAt);
    expect(puts(w)).toHaveLength(1);
  });

  it('a session made while recording whose address did not come: Stop asks the address for it, and uploads there', async () => {
    const w = await world();
    let spoiled = 0;
    w.proxy.rewrite = (req) => (req.path.endsWith('/audio/generate-upload-url') && spoiled++ === 0 ? {} : undefined);
    const id = await start(w, 'Juniper');
    await until(() => addresses(w).length === 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await stop(w, id);
    expect((await waitForJob(w.c, id, (j) => j.state === 'completed' || j.state === 'failed')).state).toBe('completed');
    expect(creates(w)).toHaveLength(1);
    expect(addresses(w)).toHaveLength(2);
    const recordingSessionId = sessionOf(creates(w)[0] ?? { answer: null });
    expect(puts(w)).toHaveLength(1);
    expect(decodeURIComponent(puts(w)[0]?.path ?? '')).toContain(`recordings/${recordingSessionId}/`);
  });
  it('a colleague signs in while the recording goes on: its session goes with the recording vet’s sign-in, never theirs', async () => {
    const w = await world();
    const owner = w.c.session.state().user?.id ?? '';
    let colleague = '';
    const id = await start(w, 'Rusty', async () => {
      const switched = await w.h['session:switchUser'](undefined);
      if (!switched.ok) throw new Error(switched.error.message);
      await w.c.session.signIn(COLLEAGUE_ACCOUNT.email, COLLEAGUE_ACCOUNT.password);
      colleague = w.c.session.state().user?.id ?? '';
    });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(colleague).not.toBe(owner);
    const asked = [...creates(w), ...addresses(w)].map((r) => tokenUser(r.headers.authorization));
    expect(asked).not.toContain(colleague);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((sub) => sub === owner)).toBe(true);
    // Stopped by the colleague: the recording is kept as the first vet's, and nothing goes with the colleague.
    await w.h['recording:stop']({ id, durationMs: 5000 });
    await new Promise((resolve) => setTimeout(resolve, 600));
    const all = w.proxy.seen.filter((r) => r.method === 'POST' && r.headers.authorization !== undefined);
    expect(
      all
        .filter((r) => /recording-sessions|generate-upload-url|scribe\//.test(r.path))
        .map((r) => tokenUser(r.headers.authorization)),
    ).not.toContain(colleague);
  });
  it('a recording deleted while its session’s create is on its way: the session the service made is noted as this computer’s, never listed as from elsewhere', async () => {
    const w = await world();
    w.proxy.fate = (r) => (r.path.endsWith('/recording-sessions/create') ? 'hold' : undefined);
    const id = await start(w, 'Secret Bella');
    await until(() => w.proxy.held() === 1);
    const deleted = await w.h['consults:delete']({ id });
    if (!deleted.ok) throw new Error(deleted.error.message);
    w.proxy.release();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await sessionsAt(w, 'Secret Bella')).toHaveLength(1);
    expect(await clinicNames(w.h)).not.toContain('Secret Bella');
    // Nothing more is asked for a deleted recording.
    expect(addresses(w)).toHaveLength(0);
  });

  it('the app quits while the session’s create is out: at the next start the clinic’s list takes the session the service made as this computer’s', async () => {
    const w = await world();
    const dataDir = w.dataDir;
    w.proxy.fate = (r) => (r.path.endsWith('/recording-sessions/create') ? 'hold' : undefined);
    const id = await start(w, 'Secret Bella');
    await until(() => w.proxy.held() === 1);
    await w.c.stop();
    w.proxy.fate = null;
    w.proxy.release();
    await startAgain(w, dataDir);
    expect(await sessionsAt(w, 'Secret Bella')).toHaveLength(1);
    expect(await clinicNames(w.h)).not.toContain('Secret Bella');
    // The recording is kept, recovered, as any the app did not stop.
    expect(w.c.cache.all().map((c) => c.recording.id)).toContain(id);
  });

  it('a recording deleted in its first minute leaves nothing at the service: no session is asked for, and a colleague’s list does not show it', async () => {
    const w = await world({ pipeline: { earlyRecordingSessionAfterMs: 60_000 } });
    const id = await start(w, 'Secret Bella');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(creates(w)).toHaveLength(0);
    const deleted = await w.h['consults:delete']({ id });
    if (!deleted.ok) throw new Error(deleted.error.message);
    const colleague = await startCoreAgainst(w.sandbox, { urls: w.proxy.urls, secretStore: new MemorySecretStore() });
    atEnd(() => colleague.stop());
    await colleague.session.signIn(COLLEAGUE_ACCOUNT.email, COLLEAGUE_ACCOUNT.password);
    expect(await clinicNames(createHandlers(colleague))).not.toContain('Secret Bella');
    expect(await sessionsAt(w, 'Secret Bella')).toEqual([]);
  });

  it('Stop while the session’s create is held answers at once, and the job takes that session over when its answer comes', async () => {
    const w = await world();
    w.proxy.fate = (r) => (r.path.endsWith('/recording-sessions/create') ? 'hold' : undefined);
    const id = await start(w, 'Bella');
    await until(() => w.proxy.held() === 1);
    const at = Date.now();
    const stopping = w.h['recording:stop']({ id, durationMs: 5000 });
    // A loose bound: Stop makes no call to the service, so even a busy machine answers well within it.
    const answered = await within(stopping, 2000);
    const tookMs = Date.now() - at;
    w.proxy.fate = null;
    w.proxy.release();
    expect(answered, `Stop had not answered after ${tookMs} ms`).toBe(true);
    expect((await stopping).ok).toBe(true);
    expect((await waitForJob(w.c, id, (j) => j.state === 'completed' || j.state === 'failed')).state).toBe('completed');
    expect(creates(w)).toHaveLength(1);
    const recordingSessionId = sessionOf(creates(w)[0] ?? { answer: null });
    expect(puts(w)).toHaveLength(1);
    expect(decodeURIComponent(puts(w)[0]?.path ?? '')).toContain(`recordings/${recordingSessionId}/`);
    expect(w.proxy.find('POST', '/scribe/request')).toHaveLength(1);
  });

  it('renamed after Stop while the session’s create was held: the job makes one under the new name, and the first is this computer’s', async () => {
    const w = await world();
    w.proxy.fate = (r) => (r.path.endsWith('/recording-sessions/create') ? 'hold' : undefined);
    const id = await start(w, 'Bela');
    await until(() => w.proxy.held() === 1);
    const stopping = w.h['recording:stop']({ id, durationMs: 5000 });
    expect(await within(stopping, 2000), 'Stop had not answered after 2 s').toBe(true);
    const renamed = await w.h['consults:update']({ id, patientName: 'Bella' });
    if (!renamed.ok) throw new Error(renamed.error.message);
    w.proxy.fate = null;
    w.proxy.release();
    expect((await waitForJob(w.c, id, (j) => j.state === 'completed' || j.state === 'failed')).state).toBe('completed');
    expect(creates(w).map((r) => (r.json as { patient_name?: string }).patient_name)).toEqual(['Bela', 'Bella']);
    const [first, used] = creates(w).map((r) => sessionOf(r));
    const scribe = w.proxy.find('POST', '/scribe/request');
    expect(scribe.map((r) => (r.json as { recording_session_public_id?: string }).recording_session_public_id)).toEqual(
      [used],
    );
    await expectNotFromElsewhere(w, first ?? '');
  });

  it('a create whose answer is lost: the job finds the session the service made and uses it, one session in all, never listed as from elsewhere', async () => {
    const w = await world({ pipeline: { earlyRecordingSession: false } });
    let dropped = 0;
    w.proxy.fate = (r) => (r.path.endsWith('/recording-sessions/create') && dropped++ === 0 ? 'drop' : undefined);
    const id = await start(w, 'Lost Bella');
    await stop(w, id);
    expect((await waitForJob(w.c, id, (j) => j.state === 'completed' || j.state === 'failed')).state).toBe('completed');
    expect(dropped).toBeGreaterThan(0);
    const made = await sessionsAt(w, 'Lost Bella');
    expect(made).toHaveLength(1);
    const scribe = w.proxy.find('POST', '/scribe/request');
    expect(scribe.map((r) => (r.json as { recording_session_public_id?: string }).recording_session_public_id)).toEqual(
      made,
    );
    await expectNotFromElsewhere(w, made[0] ?? '');
  });
});
