// Several pets in one visit, through the window's calls and the sandbox over real HTTP: one
// recording, stopped with the other pets' names, becomes one consult per pet. Each has its own
// recording session under its own name, the same audio uploaded to its own address, one scribe
// request and a note naming its pet; read off the wire by a recording proxy. Faults: two pets
// with one name, one pet's upload refused while the other's goes through, and the vet handing
// the computer over, or signing out, between pets.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { createHandlers } from '../../../../src/main/core/ipc-handlers.ts';
import { MemorySecretStore } from '../../../../src/main/core/sign-in/secret-store.ts';
import { startSandbox } from '../../../../src/sandbox/index.ts';
import { COLLEAGUE_ACCOUNT } from '../../../../src/sandbox/state.ts';
import {
  firstTemplateId,
  recorderChunks,
  startCoreAgainst,
  tempDir,
  waitForJob,
  until,
} from '../../../support/core.ts';
import { startRecordingProxy, type RecordingProxy, tokenUser } from '../../../support/recording-proxy.ts';
import {
  closedAfterEach,
  type ProxiedWindow,
  startAndFeed,
  startUploadFront,
  type UploadDecision,
  type UploadFront,
} from '../support.ts';

const STOP_CHILD = join(import.meta.dirname, '../../../support/visit-stop-child.ts');

const atEnd = closedAfterEach();

type Handlers = ReturnType<typeof createHandlers>;

interface World extends ProxiedWindow {
  /** Each PUT's session and its answer's status, in order. */
  puts: UploadFront['puts'];
}

/** A sandbox behind a recording proxy, the uploads through a storage front the test may steer, and a core. */
async function world(decide: UploadDecision = () => true, scribeSeconds = 0.3): Promise<World> {
  const sandbox = await startSandbox({ scribeSeconds, rateLimitPerMinute: 0 });
  atEnd(() => sandbox.close());
  const proxy = await startRecordingProxy(sandbox);
  atEnd(() => proxy.close());
  const front = await startUploadFront(proxy, decide);
  atEnd(() => front.close());
  const c = await startCoreAgainst(sandbox, { urls: proxy.urls, secretStore: new MemorySecretStore() });
  atEnd(() => c.stop());
  const h = createHandlers(c);
  await c.session.signIn(sandbox.demo.email, sandbox.demo.password);
  return { sandbox, proxy, c, h, puts: front.puts };
}

/**
 * The demo vet records Bella and Mango in one visit; the second pet's upload is held at the storage
 * (still going while the computer changes hands) until `release` is called.
 */
async function visitWithSecondUploadHeld() {
  let release = () => {};
  const opened = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  const w = await world(async () => {
    if (++held === 2) await opened;
    return true;
  });
  const owner = w.c.session.state().user?.id ?? '';
  const [bella = '', mango = ''] = await recordVisit(w, 'Bella', ['Mango']);
  await until(() => held >= 2);
  return { w, owner, bella, mango, release };
}

/** One visit recorded through the window's calls: the first pet at Start, the others at Stop. */
async function recordVisit(w: World, first: string, others: string[]): Promise<string[]> {
  const id = await startAndFeed(w.h, { patientName: first, templateId: await firstTemplateId(w.c) });
  const stopped = await w.h['recording:stop']({ id, durationMs: 5000, pets: others });
  if (!stopped.ok) throw new Error(stopped.error.message);
  expect(stopped.data.recording.visitId).toBe(id);
  const listed = await w.h['consults:list'](undefined);
  if (!listed.ok) throw new Error(listed.error.message);
  const visit = listed.data.filter((x) => x.recording.visitId === id);
  expect(visit).toHaveLength(others.length + 1);
  // The first pet first, then one consult for each name given, in the order given.
  const rest = visit.filter((x) => x.recording.id !== id);
  return [
    id,
    ...others.map((name) => {
      const at = rest.findIndex((x) => (x.recording.patientName ?? '') === name);
      expect(at).toBeGreaterThanOrEqual(0);
      return rest.splice(at, 1)[0]?.recording.id ?? '';
    }),
  ];
}

async function noteOf(h: Handlers, id: string): Promise<string> {
  const note = await h['consults:note']({ id });
  if (!note.ok) throw new Error(note.error.message);
  return note.data.note ?? '';
}

async function done(c: AppCore, id: string): Promise<string> {
  return (await waitForJob(c, id, (j) => j.state === 'completed' || j.state === 'failed')).state;
}

/** The patient named in each recording session the app made, by session id. */
function sessionsMade(proxy: RecordingProxy): Map<string, string> {
  return new Map(
    proxy
      .find('POST', '/recording-sessions/create')
      .map((r) => r.answer as { public_id?: string; patient_name?: string })
      .map((a) => [a.public_id ?? '', a.patient_name ?? ''] as const),
  );
}

describe('several pets in one visit', () => {
  it('two pets: two sessions, the same audio uploaded to each, one scribe request each, and a note naming each pet', async () => {
    const w = await world();
    const [bella = '', mango = ''] = await recordVisit(w, 'Bella', ['Mango']);
    expect(await done(w.c, bella)).toBe('completed');
    expect(await done(w.c, mango)).toBe('completed');

    expect([...sessionsMade(w.proxy).values()].sort()).toEqual(['Bella', 'Mango']);
    // One audio on disk under two names, whole for each consult.
    const audio = w.c.recordings.audioPath(bella);
    expect(readFileSync(w.c.recordings.audioPath(mango)).equals(readFileSync(audio))).toBe(true);
    const uploads = w.proxy.find('PUT', '/storage/');
    expect(uploads.map((u) => u.bodyBytes)).toEqual([statSync(audio).size, statSync(audio).size]);
    expect(new Set(w.puts.map((p) => p.recordingSessionId))).toEqual(new Set(sessionsMade(w.proxy).keys()));
    expect(w.proxy.find('POST', '/scribe/request')).toHaveLength(2);

    const bellaNote = await noteOf(w.h, bella);
    const mangoNote = await noteOf(w.h, mango);
    expect(bellaNote).toContain('for Bella');
    expect(bellaNote).not.toContain('Mango');
    expect(mangoNote).toContain('for Mango');
    expect(mangoNote).not.toContain('Bella');

    // A repeated Stop adds no pet and sends nothing again.
    await w.h['recording:stop']({ id: bella, pets: ['Mango'] });
    const listed = await w.h['consults:list'](undefined);
    expect(listed.ok && listed.data.filter((x) => x.recording.visitId === bella)).toHaveLength(2);
    expect(w.proxy.find('POST', '/scribe/request')).toHaveLength(2);

    // One pet deleted: the other keeps its audio.
    expect(await w.h['consults:delete']({ id: bella })).toMatchObject({ ok: true });
    expect(statSync(w.c.recordings.audioPath(mango)).size).toBe(uploads[0]?.bodyBytes);
  });

  it('two pets with the same name are both sent, each its own consult and note; a pet without a name waits for it', async () => {
    const w = await world();
    const [first = '', second = '', unnamed = ''] = await recordVisit(w, 'Bella', ['Bella', '']);
    expect(await done(w.c, first)).toBe('completed');
    expect(await done(w.c, second)).toBe('completed');
    expect([...sessionsMade(w.proxy).values()]).toEqual(['Bella', 'Bella']);
    expect(w.proxy.find('POST', '/scribe/request')).toHaveLength(2);
    expect(await noteOf(w.h, second)).toContain('for Bella');

    // The third pet, not named at Stop, is kept and sent once named.
    expect(w.c.pipeline.info(unnamed)).toBeNull();
    const named = await w.h['consults:update']({ id: unnamed, patientName: 'Pip' });
    expect(named).toMatchObject({ ok: true });
    expect(await done(w.c, unnamed)).toBe('completed');
    expect(await noteOf(w.h, unnamed)).toContain('for Pip');
    expect(w.proxy.find('POST', '/scribe/request')).toHaveLength(3);
  });

  it("one pet's upload refused while the other's goes through: the refused one tries again on its own, and each pet is scribed once", async () => {
    let refused = 0;
    let mangoSession = '';
    const w = await world(async (req, res, recordingSessionId) => {
      mangoSession ||= [...sessionsMade(w.proxy)].find(([, name]) => name === 'Mango')?.[0] ?? '';
      if (recordingSessionId !== mangoSession || refused >= 2) return true;
      refused += 1;
      // Read to its end first, as a storage does: an answer while the body still comes may be
      // taken by the client as a cut connection rather than as the storage's refusal.
      req.resume();
      await new Promise((resolve) => req.on('end', resolve));
      res.writeHead(503, { 'content-type': 'application/xml', connection: 'close' });
      res.end('<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>');
      return false;
    });
    const [bella = '', mango = ''] = await recordVisit(w, 'Bella', ['Mango']);
    expect(await done(w.c, bella)).toBe('completed');
    expect(await done(w.c, mango)).toBe('completed');
    expect(refused).toBe(2);
    const bellaSession = [...sessionsMade(w.proxy)].find(([, name]) => name === 'Bella')?.[0];
    expect(w.puts.filter((p) => p.recordingSessionId === bellaSession).map((p) => p.status)).toEqual([200]);
    expect(w.puts.filter((p) => p.recordingSessionId === mangoSession).map((p) => p.status)).toEqual([503, 503, 200]);
    expect(w.proxy.find('POST', '/scribe/request')).toHaveLength(2);
    expect(await noteOf(w.h, mango)).toContain('for Mango');
  });

  it('the vet hands the computer over between pets: each pet is sent with its owner’s sign-in and its note arrives once', async () => {
    const { w, owner, bella, mango, release } = await visitWithSecondUploadHeld();
    const switched = await w.h['session:switchUser'](undefined);
    expect(switched).toMatchObject({ ok: true, data: { signedIn: false, switched: true } });
    await w.c.session.signIn(COLLEAGUE_ACCOUNT.email, COLLEAGUE_ACCOUNT.password);
    expect(w.c.session.state().user?.id).not.toBe(owner);
    release();
    expect(await done(w.c, bella)).toBe('completed');
    expect(await done(w.c, mango)).toBe('completed');
    expect(w.proxy.find('POST', '/scribe/request')).toHaveLength(2);
    expect(new Set(sendersOf(w.proxy))).toEqual(new Set([owner]));
    expect(await noteOf(w.h, mango)).toContain('for Mango');
  });

  it('the vet signs out between pets: nothing is sent with the colleague who signs in next, and once the owner is back each note arrives once', async () => {
    const { w, owner, bella, mango, release } = await visitWithSecondUploadHeld();
    const out = await w.h['session:signOut'](undefined);
    expect(out).toMatchObject({ ok: true, data: { signedIn: false } });
    await w.c.session.signIn(COLLEAGUE_ACCOUNT.email, COLLEAGUE_ACCOUNT.password);
    release();
    // Whatever the first pet had reached, neither pet goes further with the colleague's sign-in.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const colleague = w.c.session.state().user?.id ?? '';
    expect(sendersOf(w.proxy).filter((sub) => sub === colleague)).toEqual([]);
    await w.h['session:signOut'](undefined);
    await w.c.session.signIn(w.sandbox.demo.email, w.sandbox.demo.password);
    expect(await done(w.c, bella)).toBe('completed');
    expect(await done(w.c, mango)).toBe('completed');
    expect(w.proxy.find('POST', '/scribe/request')).toHaveLength(2);
    expect(new Set(sendersOf(w.proxy))).toEqual(new Set([owner]));
    expect(await noteOf(w.h, bella)).toContain('for Bella');
    expect(await noteOf(w.h, mango)).toContain('for Mango');
  });

  it('the other pets named while recording survive a crash: the recovered recording, once sent, is sent for each pet', async () => {
    const w = await world();
    const templateId = await firstTemplateId(w.c);
    const started = await w.h['recording:start']({ mimeType: 'audio/webm;codecs=opus', patientName: 'Bella' });
    if (!started.ok) throw new Error(started.error.message);
    const id = started.data.id;
    for (const [seq, data] of recorderChunks().entries())
      await w.h['recording:chunk']({ id, seq, data: new Uint8Array(data), elapsedMs: (seq + 1) * 1000 });
    expect(await w.h['recording:pets']({ id, pets: [' Mango ', ''] })).toMatchObject({ ok: true });
    // Too many pets, or a name too long: refused with a sentence, nothing kept.
    const tooMany = await w.h['recording:pets']({ id, pets: Array.from({ length: 10 }, () => 'Pip') });
    expect(tooMany).toMatchObject({ ok: false, error: { message: expect.stringMatching(/at most 9 other pets/) } });
    const tooLong = await w.h['recording:pets']({ id, pets: ['x'.repeat(201)] });
    expect(tooLong).toMatchObject({ ok: false });

    // The app ends without Stop; at the next launch the recording is recovered with its pets.
    await w.c.stop();
    const again = await startCoreAgainst(w.sandbox, {
      urls: w.proxy.urls,
      secretStore: new MemorySecretStore(),
      dataDir: w.c.options.dataDir,
    });
    atEnd(() => again.stop());
    await again.session.signIn(w.sandbox.demo.email, w.sandbox.demo.password);
    const h = createHandlers(again);
    expect(again.cache.consult(id)?.recording.state).toBe('recovered');
    expect(await h['consults:submit']({ id, templateId })).toMatchObject({ ok: true });
    const visit = again.cache.all().filter((x) => x.recording.visitId === id);
    expect(visit.map((x) => x.recording.patientName).sort()).toEqual(['Bella', 'Mango', null]);
    const mango = visit.find((x) => x.recording.patientName === 'Mango')?.recording.id ?? '';
    expect(await done(again, id)).toBe('completed');
    expect(await done(again, mango)).toBe('completed');
    expect(await noteOf(h, mango)).toContain('for Mango');
    // The pet without a name waits for it.
    expect(visit.find((x) => x.recording.patientName === null)?.job).toBeNull();
    expect(w.proxy.find('POST', '/scribe/request')).toHaveLength(2);
  });

  it('two Stops at once make each pet once and send each once, round after round', async () => {
    const w = await world();
    const templateId = await firstTemplateId(w.c);
    for (let round = 1; round <= 5; round++) {
      const started = await w.h['recording:start']({
        mimeType: 'audio/webm;codecs=opus',
        patientName: 'Bella',
        templateId,
      });
      if (!started.ok) throw new Error(started.error.message);
      const id = started.data.id;
      for (const [seq, data] of recorderChunks().entries())
        await w.h['recording:chunk']({ id, seq, data: new Uint8Array(data), elapsedMs: (seq + 1) * 1000 });
      const [one, two] = await Promise.all([
        w.h['recording:stop']({ id, durationMs: 5000, pets: ['Tom', 'Jerry'] }),
        w.h['recording:stop']({ id, durationMs: 5000, pets: ['Tom', 'Jerry'] }),
      ]);
      expect(one, `round ${round}`).toMatchObject({ ok: true });
      const visit = w.c.cache.all().filter((x) => x.recording.visitId === id);
      expect(visit.map((x) => x.recording.patientName).sort(), `round ${round}`).toEqual(['Bella', 'Jerry', 'Tom']);
      for (const each of visit) expect(await done(w.c, each.recording.id)).toBe('completed');
      expect(w.proxy.find('POST', '/scribe/request'), `round ${round}`).toHaveLength(3 * round);
      // The second Stop answered what the first did.
      expect(two, `round ${round}`).toEqual(one);
    }
    expect([...sessionsMade(w.proxy).values()].sort()).toEqual(
      ['Bella', 'Jerry', 'Tom'].flatMap((name) => Array.from({ length: 5 }, () => name)).sort(),
    );
  });
});

/** Runs the Stop child (`support/visit-stop-child.ts`) against the world's proxy: its JSON lines, and the signal that ended it. */
async function stopInChild(
  w: World,
  mode: 'kill' | 'full' | 'full-send' | 'full-send-pet',
  dataDir: string,
  templateId: string,
): Promise<{ lines: Record<string, unknown>[]; signal: NodeJS.Signals | null; stderr: string }> {
  const urls = JSON.stringify({ ...w.proxy.urls, ...w.sandbox.demo });
  // Without the suite's log file: the child's own disk fills, and the log would be refused too.
  const { VET_SCRIBE_LOG_FILE: _log, ...env } = process.env;
  const child = spawn(process.execPath, [STOP_CHILD, mode, dataDir, urls, templateId], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  let out = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const signal = await new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, sig) => resolve(sig)));
  const lines = out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { lines, signal, stderr };
}

/** The recording folders of a data folder, and anything else left beside them. */
function folders(dataDir: string): string[] {
  return readdirSync(join(dataDir, 'recordings')).sort();
}

const hasPrlimit = process.platform === 'linux' && spawnSync('prlimit', ['--version']).status === 0;

describe('a visit split cut short', () => {
  it('a kill right after the first other pet is written: the next start makes the rest, and each pet is made and sent once', async () => {
    const w = await world();
    const templateId = await firstTemplateId(w.c);
    const dataDir = tempDir('vet-scribe-visit-kill-');
    const run = await stopInChild(w, 'kill', dataDir, templateId);
    expect(run.signal, run.stderr).toBe('SIGKILL');
    const id = String(run.lines[0]?.['recorded']);
    expect(run.lines).toHaveLength(1);
    // Bella and Tom only, and nothing sent yet.
    expect(folders(dataDir)).toHaveLength(2);
    expect(w.proxy.find('POST', '/scribe/request')).toHaveLength(0);

    const again = await startCoreAgainst(w.sandbox, {
      urls: w.proxy.urls,
      secretStore: new MemorySecretStore(),
      dataDir,
    });
    atEnd(() => again.stop());
    // The vet who pressed Stop is told the visit was finished, not only the log.
    expect(again.appInfo().notices).toContainEqual({
      level: 'info',
      message:
        'The visit of Bella, cut short when the app closed, was finished: Tom and Jerry are consults of their own now.',
    });
    await again.session.signIn(w.sandbox.demo.email, w.sandbox.demo.password);
    const visit = again.cache.all().filter((x) => x.recording.visitId === id);
    expect(visit.map((x) => x.recording.patientName).sort()).toEqual(['Bella', 'Jerry', 'Tom']);
    for (const each of visit) expect(await done(again, each.recording.id)).toBe('completed');
    expect(folders(dataDir)).toEqual(visit.map((x) => x.recording.id).sort());
    expect([...sessionsMade(w.proxy).values()].sort()).toEqual(['Bella', 'Jerry', 'Tom']);
    expect(w.proxy.find('POST', '/scribe/request')).toHaveLength(3);
    const h = createHandlers(again);
    for (const each of visit) {
      const trail = await again.trail.read(each.recording.id);
      expect(
        trail.map((e) => e.action),
        each.recording.patientName ?? '',
      ).toEqual(['recorded', 'sent']);
      expect(await noteOf(h, each.recording.id)).toContain(`for ${each.recording.patientName}`);
    }
  });

  it.skipIf(!hasPrlimit).each([
    ['Stop', 'full'],
    ['Send on Bella', 'full-send'],
    ['Send on Tom', 'full-send-pet'],
  ] as const)(
    'a disk that fills after the first other pet: Stop says what was kept and what was not, deletes nothing, sends nothing, and %s once there is room finishes the visit',
    async (_press, mode) => {
      const w = await world();
      const templateId = await firstTemplateId(w.c);
      const dataDir = tempDir('vet-scribe-visit-full-');
      const run = await stopInChild(w, mode, dataDir, templateId);
      expect(run.signal, run.stderr).toBeNull();
      expect(run.lines, run.stderr).toHaveLength(4);
      const [recorded, first, second, settled] = run.lines as [
        { recorded: string },
        { first: { ok: boolean; error?: { code: string; message: string } }; visit: { name: string; sent: boolean }[] },
        { second: { ok: boolean }; visit: { name: string; sent: boolean }[] },
        { settled: { id: string; name: string; sent: boolean }[] },
      ];
      expect(first.first).toEqual({
        ok: false,
        error: {
          code: 'disk_full',
          message:
            'Bella and Tom were kept; Jerry could not be made yet: the disk is full (free some space on this computer). It will be made when you press Stop or Send again, or at the next start; until then nothing of the visit is sent.',
        },
      });
      // Nothing made was deleted, and no pet went alone.
      expect(first.visit.map((p) => [p.name, p.sent]).sort()).toEqual([
        ['Bella', false],
        ['Tom', false],
      ]);
      expect(second.second).toMatchObject({ ok: true });
      expect(settled.settled.map((p) => [p.name, p.sent]).sort()).toEqual([
        ['Bella', true],
        ['Jerry', true],
        ['Tom', true],
      ]);
      expect(folders(dataDir)).toEqual(settled.settled.map((p) => p.id).sort());
      // Each consult's history: recorded once, then sent once.
      for (const pet of settled.settled) {
        const trail = readFileSync(join(dataDir, 'recordings', pet.id, 'trail.jsonl'), 'utf8')
          .trim()
          .split('\n');
        expect(
          trail.map((line) => (JSON.parse(line) as { action: string }).action),
          pet.name,
        ).toEqual(['recorded', 'sent']);
      }
      expect(recorded.recorded).toBe(settled.settled.find((p) => p.name === 'Bella')?.id);
      expect([...sessionsMade(w.proxy).values()].sort()).toEqual(['Bella', 'Jerry', 'Tom']);
      expect(w.proxy.find('POST', '/scribe/request')).toHaveLength(3);
    },
  );
});

/** Whose sign-in (the token's subject) each request of the workflow went with, in order. */
function sendersOf(proxy: RecordingProxy): (string | null)[] {
  return proxy.seen
    .filter((r) => /recording-sessions|generate-upload-url|scribe\//.test(r.path))
    .filter((r) => r.headers.authorization !== undefined)
    .map((r) => tokenUser(r.headers.authorization));
}
