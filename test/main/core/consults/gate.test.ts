// One gate between a consult and the wrong account: two clinics' accounts on one computer, the
// sandbox over real HTTP (behind a proxy that holds and refuses on cue), real files. Each case
// is a way a consult once reached another clinic's account, or left something behind.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { answerAudioRequest, audioUrl } from '../../../../src/main/audio-protocol.ts';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { createHandlers } from '../../../../src/main/core/ipc-handlers.ts';
import { ServiceError } from '../../../../src/main/core/service/errors.ts';
import { SessionChangedError } from '../../../../src/main/core/sign-in/session.ts';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.ts';
import { OTHER_ACCOUNT } from '../../../../src/sandbox/state.ts';
import {
  firstTemplateId,
  makeRecording,
  recorderChunks,
  startCore,
  startCoreAgainst,
  waitForJob,
} from '../../../support/core.ts';
import { listening, passOn } from '../support.ts';

const NO_SUCH = 'That consult is not on this computer, or it belongs to another clinic’s account.';
const done = (j: { state: string }) => j.state === 'completed' || j.state === 'failed';

const cores: AppCore[] = [];
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cores.splice(0)) await c.stop();
});
afterAll(async () => {
  for (const close of closers.splice(0)) await close();
});

async function core(options: Parameters<typeof startCore>[0] = {}) {
  const c = await startCore(options);
  cores.push(c);
  const demo = c.appInfo().sandbox?.demo;
  if (!demo) throw new Error('no sandbox');
  return { c, h: createHandlers(c), demo };
}

/** Records a consult through the window's calls (as whoever is signed in now, or no one). */
async function record(h: ReturnType<typeof createHandlers>, patientName: string, templateId?: string) {
  const started = await h['recording:start']({
    mimeType: 'audio/webm;codecs=opus',
    patientName,
    ...(templateId ? { templateId } : {}),
  });
  if (!started.ok) throw new Error(started.error.message);
  const id = started.data.id;
  for (const [seq, data] of recorderChunks().entries())
    await h['recording:chunk']({ id, seq, data: new Uint8Array(data), elapsedMs: (seq + 1) * 1000 });
  return id;
}

describe('a consult recorded while signed out', () => {
  it('is no account’s until a vet claims it; once claimed and sent, another clinic can neither list, read, play, edit, rename nor stop it, without a restart', async () => {
    const { c, h, demo } = await core();
    // The template is known before anyone signs in only because the demo vet looked it up once.
    await c.session.signIn(demo.email, demo.password);
    const template = await firstTemplateId(c);
    await c.session.signOut('user');

    const id = await record(h, 'Bella', template);
    expect((await h['recording:stop']({ id, durationMs: 5000 })).ok).toBe(true);
    expect(c.cache.consult(id)?.recording.recordedBy).toBeNull();

    // A vet signs in: the consult is offered, not handed over. Nothing of it can be read, and
    // nothing is sent, until they say it is theirs.
    await c.session.signIn(OTHER_ACCOUNT.email, OTHER_ACCOUNT.password);
    const offered = await h['consults:list'](undefined);
    expect(offered.ok && offered.data.map((x) => [x.recording.id, x.claimable])).toEqual([[id, true]]);
    expect(await waitForJob(c, id, (j) => j.waitingFor === 'claim')).toMatchObject({ state: 'recorded' });
    for (const answer of [
      await h['consults:audioUrl']({ id }),
      await h['consults:note']({ id }),
      await h['consults:update']({ id, patientName: 'Rex' }),
    ]) {
      expect(answer).toEqual({ ok: false, error: { code: 'not_found', message: NO_SUCH } });
    }
    expect(c.embeddedSandbox?.stats().byRoute['POST /scribe/recording-sessions/create'] ?? 0).toBe(0);
    await c.session.signOut('user');

    // The demo vet claims it ("send it as Dr. Demo Vet?"): it goes with their sign-in.
    await c.session.signIn(demo.email, demo.password);
    const claimed = await h['consults:claim']({ id });
    expect(claimed.ok && claimed.data.recording.recordedBy?.email).toBe(demo.email);
    expect(claimed.ok && claimed.data.claimable).toBeUndefined();
    expect((await waitForJob(c, id, done)).state).toBe('completed');
    expect(await h['consults:claim']({ id })).toEqual({ ok: false, error: { code: 'not_found', message: NO_SUCH } });

    // The other clinic signs in at the same computer, with no restart in between.
    await c.session.signOut('user');
    await c.session.signIn(OTHER_ACCOUNT.email, OTHER_ACCOUNT.password);
    const events: string[] = [];
    const onChanged = (x: { recording: { id: string } }) => events.push(x.recording.id);
    c.on('consult:changed', onChanged);
    expect(await h['consults:list'](undefined)).toEqual({ ok: true, data: [] });
    expect(await h['consults:search']({ query: 'Bella' })).toEqual({ ok: true, data: { ids: [] } });
    for (const answer of [
      await h['consults:note']({ id }),
      await h['consults:audioUrl']({ id }),
      await h['consults:saveNote']({ id, text: 'not mine' }),
      await h['consults:export']({ id, format: 'txt' }),
      await h['consults:draft']({ id }),
      await h['consults:saveDraft']({ id, text: 'not mine' }),
      await h['consults:delete']({ id }),
      await h['consults:claim']({ id }),
      await h['consults:update']({ id, label: 'mine now' }),
      await h['recording:pause']({ id }),
    ]) {
      expect(answer).toEqual({ ok: false, error: { code: 'not_found', message: NO_SUCH } });
    }
    const stopped = await h['recording:stop']({ id });
    expect(stopped.ok).toBe(false);
    expect(JSON.stringify(stopped)).not.toContain('Bella');
    // The audio the window plays: Electron's protocol answers through the same gate.
    expect(c.access.audioFor(id)).toBeNull();
    expect((await answerAudioRequest(audioUrl(id), null, { audio: (x) => c.access.audioFor(x) })).status).toBe(404);
    // A change of the job (a note edit by nobody) is not sent to this window either.
    await c.pipeline.inTurn(id, async () => undefined);
    c.off('consult:changed', onChanged);
    expect(events).toEqual([]);
    // The note is as the owner left it.
    await c.session.signOut('user');
    await c.session.signIn(demo.email, demo.password);
    const note = await h['consults:note']({ id });
    expect(note.ok && note.data.editedNote).toBeNull();
    expect((await answerAudioRequest(audioUrl(id), null, { audio: (x) => c.access.audioFor(x) })).status).toBe(200);
  });
});

/**
 * A proxy in front of the sandbox that holds the first POST /recording-sessions/create until
 * released and then answers it 401, and notes the bearer of every request.
 */
async function holdingProxy(sandbox: Sandbox) {
  const seen: { method: string; path: string; bearer: string }[] = [];
  let release: (() => void) | null = null;
  let heldOne = false;
  const held = new Promise<void>((resolve) => (release = resolve));
  let arrived: () => void = () => undefined;
  const holding = new Promise<void>((resolve) => (arrived = resolve));
  const target = new URL(sandbox.origin);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0] ?? '';
    seen.push({ method: req.method ?? '', path, bearer: String(req.headers.authorization ?? '') });
    if (!heldOne && req.method === 'POST' && path.endsWith('/recording-sessions/create')) {
      heldOne = true;
      req.resume();
      arrived();
      void held.then(() => {
        if (!res.writableEnded && !res.destroyed)
          res.writeHead(401, { 'content-type': 'application/json' }).end('{"detail":"Token expired"}');
      });
      return;
    }
    passOn(req, res, `${target.origin}${req.url ?? '/'}`);
  });
  const origin = await listening(server);
  const rebase = (u: string) => origin + new URL(u).pathname.replace(/\/$/, '');
  return {
    seen,
    holding,
    release: () => release?.(),
    urls: {
      agentsUrl: rebase(sandbox.urls.agents_url),
      scribeUrl: rebase(sandbox.urls.scribe_url),
      agentsApiUrl: rebase(sandbox.urls.agents_api_url),
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('a request belongs to the sign-in it was sent with', () => {
  it('a recording-session-create answered 401 after Switch user is not sent again with the next vet’s token; the consult waits for its owner and is made once, at its own clinic', async () => {
    const sandbox = await startSandbox({ scribeSeconds: 0.3, rateLimitPerMinute: 0 });
    closers.push(() => sandbox.close());
    const proxy = await holdingProxy(sandbox);
    closers.push(proxy.close);
    const c = await startCoreAgainst(sandbox, { urls: proxy.urls });
    cores.push(c);
    const h = createHandlers(c);
    await c.session.signIn(sandbox.demo.email, sandbox.demo.password);
    const first = (await c.options.secretStore.load())?.accessToken ?? '';
    const template = await firstTemplateId(c);
    const id = await record(h, 'Bella', template);
    await h['recording:stop']({ id, durationMs: 5000 });
    await proxy.holding;

    // Switch user while the request is out; only then does the service answer it 401.
    await c.session.signOut('user');
    await c.session.signIn(OTHER_ACCOUNT.email, OTHER_ACCOUNT.password);
    const second = (await c.options.secretStore.load())?.accessToken ?? '';
    proxy.release();
    expect((await waitForJob(c, id, (j) => j.waitingFor === 'owner')).state).toBe('recorded');
    await new Promise((resolve) => setTimeout(resolve, 400));
    const workflow = /recording-sessions\/create|generate-upload-url|scribe\/request/;
    expect(proxy.seen.filter((r) => r.bearer === `Bearer ${second}` && workflow.test(r.path))).toEqual([]);
    expect(sandbox.stats().byRoute['POST /scribe/recording-sessions/create'] ?? 0).toBe(0);

    await c.session.signOut('user');
    await c.session.signIn(sandbox.demo.email, sandbox.demo.password);
    expect((await waitForJob(c, id, done)).state).toBe('completed');
    expect(sandbox.stats().byRoute['POST /scribe/recording-sessions/create']).toBe(1);
    const creates = proxy.seen.filter((r) => r.path.endsWith('/recording-sessions/create'));
    expect(creates.map((r) => r.bearer)).not.toContain(`Bearer ${second}`);
    expect(creates[0]?.bearer).toBe(`Bearer ${first}`);
  });

  it('Session.withToken: a 401 that comes back after another sign-in stops the call instead of retrying it with the new token', async () => {
    const { c, demo } = await core();
    await c.session.signIn(demo.email, demo.password);
    const tokens: string[] = [];
    let signedInAgain: () => void = () => undefined;
    const switched = new Promise<void>((resolve) => (signedInAgain = resolve));
    let entered: () => void = () => undefined;
    const sent = new Promise<void>((resolve) => (entered = resolve));
    const call = c.session.withToken(async (token) => {
      tokens.push(token);
      if (tokens.length === 1) {
        entered();
        await switched;
        throw new ServiceError('http', 'recording-session-create', 'Token expired', { status: 401 });
      }
      return 'sent';
    });
    const outcome = call.then(
      () => null,
      (e: unknown) => e,
    );
    await sent;
    await c.session.signOut('user');
    await c.session.signIn(OTHER_ACCOUNT.email, OTHER_ACCOUNT.password);
    signedInAgain();
    expect(await outcome).toBeInstanceOf(SessionChangedError);
    expect(tokens).toHaveLength(1);
  });
});

describe('adding and deleting take the consult’s turn', () => {
  it('“Another document…” racing Delete leaves no orphan, and a change of service afterwards succeeds and says what it did', async () => {
    const { c, h, demo } = await core();
    await c.session.signIn(demo.email, demo.password);
    const page = await c.session.withToken((t) => c.client.templates(t, 1, 50));
    const [note, other] = page.items;
    if (!note || !other) throw new Error('two templates needed');
    for (let round = 0; round < 8; round++) {
      const id = await makeRecording(c);
      await c.pipeline.submit(id, note.id);
      await waitForJob(c, id, done);
      const [added, deleted] = await Promise.all([
        h['consults:addDocument']({ id, templateId: other.id }),
        h['consults:delete']({ id }),
      ]);
      expect(deleted).toEqual({ ok: true, data: { deleted: true } });
      // The add either came first (and went with the consult) or found no consult.
      if (!added.ok) expect(added.error.code).toBe('not_found');
      expect(c.pipeline.info(id)).toBeNull();
      expect(c.pipeline.documentTexts(id)).toEqual([]);
      expect(existsSync(dirname(c.recordings.audioPath(id)))).toBe(false);
    }
    const changed = await h['settings:update']({
      useSandbox: false,
      serviceUrls: {
        agentsUrl: 'https://agents.example.test',
        scribeUrl: 'https://scribe.example.test',
        agentsApiUrl: 'https://agents-api.example.test',
      },
    });
    expect(changed.ok).toBe(true);
    expect(c.appInfo().notices.filter((n) => n.level === 'error')).toEqual([]);
  });

  it('a draft saved while its consult is deleted is not left behind, and leftovers of a write cut short go at the next start', async () => {
    const { c, h, demo } = await core();
    await c.session.signIn(demo.email, demo.password);
    const template = await firstTemplateId(c);
    const draftsDir = join(c.options.dataDir, 'drafts');
    for (let round = 0; round < 10; round++) {
      const id = await makeRecording(c);
      await c.pipeline.submit(id, template);
      await waitForJob(c, id, done);
      await h['consults:saveDraft']({ id, text: `draft ${round}` });
      // Saves keep coming, a millisecond apart, while the delete runs (a vet typing as a
      // colleague deletes the consult in another window).
      let ended = false;
      const deleted = h['consults:delete']({ id }).finally(() => (ended = true));
      const saves: Promise<unknown>[] = [];
      while (!ended && saves.length < 200) {
        saves.push(h['consults:saveDraft']({ id, text: `late ${round}` }));
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      expect(await deleted).toEqual({ ok: true, data: { deleted: true } });
      await Promise.all(saves);
      expect(readdirSync(draftsDir).filter((f) => f.startsWith(id))).toEqual([]);
    }
    // A temporary file of an unsaved edit, as a kill in mid-write leaves it, goes at the next start.
    const kept = await makeRecording(c);
    const leftover = join(draftsDir, `${kept}.json.0b6d3c4e-1f2a-4b5c-8d9e-0f1a2b3c4d5e.tmp`);
    writeFileSync(leftover, '{"text":"half');
    await c.stop();
    cores.splice(cores.indexOf(c), 1);
    const again = await startCore({ dataDir: c.options.dataDir });
    cores.push(again);
    expect(existsSync(leftover)).toBe(false);
  });
});

describe('retention and owners are each clinic’s own', () => {
  it('one clinic’s retention deletes only its own audio; the other clinic’s is kept', async () => {
    const now = { t: Date.now() };
    const { c, h, demo } = await core({ pipeline: { now: () => now.t } });
    const mine: string[] = [];
    for (const account of [demo, OTHER_ACCOUNT]) {
      await c.session.signIn(account.email, account.password);
      const template = await firstTemplateId(c);
      const id = await makeRecording(c);
      await c.pipeline.submit(id, template);
      expect((await waitForJob(c, id, done)).state).toBe('completed');
      mine.push(id);
      await c.session.signOut('user');
    }
    const [demoConsult, otherConsult] = mine as [string, string];
    now.t += 2 * 24 * 3600 * 1000;
    // Signed out, no clinic's retention can be changed.
    const refused = await h['settings:update']({ retentionDays: 1 });
    expect(refused.ok).toBe(false);
    await c.session.signIn(OTHER_ACCOUNT.email, OTHER_ACCOUNT.password);
    expect(await h['settings:retentionPreview']({ retentionDays: 1 })).toEqual({ ok: true, data: { wouldDelete: 1 } });
    const changed = await h['settings:update']({ retentionDays: 1, retentionAppliesFrom: null });
    expect(changed.ok && changed.data.retentionDays).toBe(1);
    expect(existsSync(c.recordings.audioPath(otherConsult))).toBe(false);
    expect(existsSync(c.recordings.audioPath(demoConsult))).toBe(true);
    // The demo vet's clinic still has its own (the default of 7 days).
    await c.session.signOut('user');
    await c.session.signIn(demo.email, demo.password);
    const settings = await h['settings:get'](undefined);
    expect(settings.ok && settings.data.retentionDays).toBe(7);
    await c.retention.sweep();
    expect(existsSync(c.recordings.audioPath(demoConsult))).toBe(true);
  });

  it('after a change of service an unsent consult keeps its owner: another vet signing in there neither sees nor sends it; its own vet is asked', async () => {
    const a = await startSandbox({ scribeSeconds: 30, rateLimitPerMinute: 0 });
    const b = await startSandbox({ scribeSeconds: 0.3, rateLimitPerMinute: 0 });
    closers.push(
      () => a.close(),
      () => b.close(),
    );
    const c = await startCoreAgainst(a);
    cores.push(c);
    const h = createHandlers(c);
    await c.session.signIn(a.demo.email, a.demo.password);
    const id = await makeRecording(c);
    await c.pipeline.submit(id, await firstTemplateId(c));
    await waitForJob(c, id, (j) => j.state === 'scribe_requested');
    expect(
      (
        await h['settings:update']({
          serviceUrls: {
            agentsUrl: b.urls.agents_url,
            scribeUrl: b.urls.scribe_url,
            agentsApiUrl: b.urls.agents_api_url,
          },
        })
      ).ok,
    ).toBe(true);
    expect(c.cache.consult(id)?.recording.recordedBy?.email).toBe(a.demo.email);

    await c.session.signIn(OTHER_ACCOUNT.email, OTHER_ACCOUNT.password);
    expect(await h['consults:list'](undefined)).toEqual({ ok: true, data: [] });
    expect(await waitForJob(c, id, (j) => j.waitingFor === 'claim')).toMatchObject({ state: 'recorded' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(b.stats().byRoute['POST /scribe/recording-sessions/create'] ?? 0).toBe(0);
    expect(await h['consults:claim']({ id })).toEqual({ ok: false, error: { code: 'not_found', message: NO_SUCH } });

    await c.session.signOut('user');
    await c.session.signIn(b.demo.email, b.demo.password);
    const offered = await h['consults:list'](undefined);
    expect(offered.ok && offered.data.map((x) => x.claimable)).toEqual([true]);
    expect((await h['consults:claim']({ id })).ok).toBe(true);
    expect((await waitForJob(c, id, done)).state).toBe('completed');
    expect(b.stats().byRoute['POST /scribe/recording-sessions/create']).toBe(1);
  });
});
