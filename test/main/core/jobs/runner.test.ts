// What the job runner does beside the steps themselves: it waits out a 429 for its Retry-After,
// throttles upload progress events, and parks (never fails) the recordings queued when a refresh
// of the sign-in is refused, against a real sandbox over loopback HTTP and real files.
import { ownerOf } from '../../../../src/main/core/jobs/pipeline.ts';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import type { JobInfo } from '../../../../src/shared/jobs.ts';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.ts';
import { TEMPLATES } from '../../../../src/sandbox/templates.ts';
import {
  firstTemplateId,
  makeRecording,
  recorderChunks,
  startCore,
  startCoreAgainst,
  tempDir,
  waitForJob,
} from '../../../support/core.ts';
import { builtInCores, closedAfterEach } from '../support.ts';

// What a test started is closed after it, its cores first (after-hooks run last registered first).
const atEnd = closedAfterEach();
const { cores } = builtInCores();

async function sandbox(options: Parameters<typeof startSandbox>[0] = {}): Promise<Sandbox> {
  const s = await startSandbox(options);
  atEnd(() => s.close());
  return s;
}

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const done = (j: JobInfo) => j.state === 'completed' || j.state === 'failed';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function demoUser(c: AppCore) {
  const user = c.session.state().user;
  if (!user) throw new Error('not signed in');
  return user;
}

describe('Retry-After', () => {
  it('the pipeline waits out a 429 for at least its Retry-After, then finishes the job with one scribe record', async () => {
    // The sandbox counts requests per client in fixed one-minute windows and answers 429 with
    // Retry-After = the seconds left in the window. So that the window ends in a few seconds
    // rather than up to 60, the process clock (Date.now, which the sandbox, the session and the
    // pipeline all read) is moved on to 6 s before the end of a minute just before the window's
    // quota is used up: the set-up before it may take long on a busy machine without the window
    // ending before the job's first call. Nothing else is changed.
    const realNow = Date.now.bind(Date);
    let offset = 0;
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
    const endOfMinuteIn = (ms: number) => {
      const now = realNow();
      offset = (60_000 - (now % 60_000) - ms + 60_000) % 60_000;
    };
    try {
      const limit = 20;
      const s = await sandbox({ rateLimitPerMinute: limit, scribeSeconds: 0.3 });
      const lines: { at: number; line: string }[] = [];
      const c = await startCoreAgainst(s, {
        pipeline: {
          backoff: { baseMs: 100, capMs: 2000 },
          pollDelay: () => 150,
          log: (line) => lines.push({ at: performance.now(), line }),
        },
      });
      cores.push(c);
      await c.session.signIn(s.demo.email, s.demo.password);
      const id = await makeRecording(c);
      const template = await firstTemplateId(c);
      // This window's whole quota for the token is used up (until the sandbox refuses one), so
      // the job's first call is over it too.
      const token = await c.session.accessToken();
      endOfMinuteIn(6000);
      let refused = 0;
      for (let i = 0; i <= limit && refused === 0; i++)
        await c.client.templates(token, 1, 50).catch((e: unknown) => {
          if ((e as { status?: number }).status !== 429) throw e;
          refused++;
        });
      expect(s.stats().rateLimited).toBe(1);

      const stateAt: { at: number; state: string }[] = [];
      c.pipeline.on('job', (j) => {
        if (j.recordingId === id && stateAt.at(-1)?.state !== j.state)
          stateAt.push({ at: performance.now(), state: j.state });
      });
      await c.pipeline.submit(id, template);
      const job = await waitForJob(c, id, done, 20_000);
      expect(job.state).toBe('completed');
      expect(job.error).toBeNull();

      // The sandbox did refuse with 429 and Retry-After, and the pipeline said how long it waits.
      expect(s.stats().rateLimited).toBeGreaterThanOrEqual(2);
      const retries = lines
        .map(({ at, line }) => ({ at, m: /Try again in (\d+) s\. \(retry in (\d+) ms\)/.exec(line) }))
        .filter((r) => r.m !== null)
        .map(({ at, m }) => ({ at, retryAfterMs: Number(m?.[1]) * 1000, waitMs: Number(m?.[2]) }));
      expect(retries.length).toBeGreaterThanOrEqual(1);
      for (const r of retries) {
        expect(r.retryAfterMs).toBeGreaterThan(0);
        // The jitter of a first retry is under 100 ms: only Retry-After can make it this long.
        expect(r.waitMs).toBeGreaterThanOrEqual(r.retryAfterMs);
      }
      // And it did wait: the step refused came through no sooner than Retry-After after the refusal.
      const first = retries[0]!;
      const created = stateAt.find((x) => x.state === 'recording_session_created');
      expect(created).toBeDefined();
      expect(created!.at - first.at).toBeGreaterThanOrEqual(first.retryAfterMs - 15);
      // One recording, one scribe record, however many refusals.
      const stats = s.stats();
      expect(stats.scribeRequests).toBe(1);
      expect(Object.values(stats.scribeRecordsByFileKey)).toEqual([1]);
      expect(stats.byRoute['POST /scribe/recording-sessions/create']).toBe(1 + retries.length);
    } finally {
      vi.restoreAllMocks();
    }
  });
});

describe('progress events', () => {
  it('are throttled during an upload: at most one per 250 ms (progressThrottleMs), however many chunks go out', async () => {
    // pipeline.ts: progressThrottleMs defaults to 250; startCore leaves it as it is.
    const THROTTLE_MS = 250;
    const dataDir = tempDir();
    atEnd(async () => rmSync(dataDir, { recursive: true, force: true }));
    const c = await startCore({ dataDir });
    cores.push(c);
    const demo = c.appInfo().sandbox!.demo;
    await c.session.signIn(demo.email, demo.password);
    const template = await firstTemplateId(c);

    // A long consult: the real MediaRecorder chunks, then 128 more chunks of 1 MiB (the most a chunk may be).
    const meta = await c.recordings.start({
      mimeType: 'audio/webm;codecs=opus',
      label: 'Long consult',
      patientName: 'Bella',
      owner: ownerOf(demoUser(c), c.serviceKey()),
    });
    let seq = 0;
    for (const chunk of recorderChunks()) await c.recordings.appendChunk(meta.id, seq++, chunk, seq * 1000);
    const filler = Buffer.alloc(1024 * 1024, 0x42);
    for (let i = 0; i < 128; i++) await c.recordings.appendChunk(meta.id, seq++, filler, seq * 1000);
    await c.recordings.finish(meta.id, { durationMs: seq * 1000 });
    const size = readFileSync(c.recordings.audioPath(meta.id)).length;
    expect(size).toBeGreaterThan(128 * 1024 * 1024);

    // Count the progress callbacks the upload makes, passing each on to the pipeline unchanged.
    const callbacks: { at: number; sent: number }[] = [];
    const upload = c.client.upload.bind(c.client);
    c.client.upload = (url, path, type, options = {}) =>
      upload(url, path, type, {
        ...options,
        onProgress: (p) => {
          callbacks.push({ at: Date.now(), sent: p.sent });
          options.onProgress?.(p);
        },
      });
    const events: { at: number; job: JobInfo }[] = [];
    c.pipeline.on('job', (job) => {
      if (job.recordingId === meta.id) events.push({ at: Date.now(), job });
    });
    await c.pipeline.submit(meta.id, template);
    const job = await waitForJob(c, meta.id, done, 25_000);
    expect(job.state).toBe('completed');
    expect(job.bytesTotal).toBe(size);

    // The upload called back once per MiB written...
    expect(callbacks.length).toBeGreaterThanOrEqual(Math.floor(size / (1024 * 1024)));
    expect(callbacks.at(-1)?.sent).toBe(size);
    const uploadMs = (callbacks.at(-1)?.at ?? 0) - (callbacks[0]?.at ?? 0);
    // ...but the window heard of it at most once per interval: the events while at upload_url
    // are the state change into it and the throttled progress snapshots.
    const atUpload = events.filter((e) => e.job.state === 'upload_url');
    const progress = atUpload.filter((e) => e.job.bytesSent > 0);
    expect(atUpload.length - progress.length).toBe(1);
    expect(progress.length).toBeLessThanOrEqual(Math.floor(uploadMs / THROTTLE_MS) + 1);
    expect(progress.length).toBeLessThan(callbacks.length / 4);
    for (let i = 1; i < atUpload.length; i++) {
      expect(atUpload[i]!.at - atUpload[i - 1]!.at, `event ${i}`).toBeGreaterThanOrEqual(THROTTLE_MS - 5);
    }
    // Progress snapshots only go forward.
    const sent = progress.map((e) => e.job.bytesSent);
    expect([...sent].sort((a, b) => a - b)).toEqual(sent);
    // All job events: one per state change or status change, plus the throttled progress.
    const stateChanges = events.filter((e, i) => i === 0 || e.job.state !== events[i - 1]!.job.state).length;
    expect(events.length).toBeLessThanOrEqual(stateChanges + progress.length + 4);
  });
});

describe('a refused refresh with recordings queued', () => {
  it('signs out and parks the queued jobs with their audio and job files untouched; after signing in again both complete', async () => {
    // Tokens: access 1 s, refresh 2 s; every request takes the sandbox 1 s. The jobs' first call
    // goes out with a fresh token and arrives after it expired (401); the refresh that follows
    // leaves before the refresh token's expiry and arrives after it: the service refuses it.
    const LATENCY_MS = 1000;
    const dataDir = tempDir();
    atEnd(async () => rmSync(dataDir, { recursive: true, force: true }));
    const first = await startSandbox({
      dataDir: join(dataDir, 'service'),
      latencyMs: LATENCY_MS,
      accessTtlSeconds: 1,
      refreshTtlSeconds: 2,
    });
    atEnd(() => first.close());
    mkdirSync(join(dataDir, 'app'));
    const c = await startCoreAgainst(first, { dataDir: join(dataDir, 'app') });
    cores.push(c);
    const template = TEMPLATES[0]!.public_id;
    const ids = [await makeRecording(c, 'Bella — vomiting'), await makeRecording(c, 'Rex — limping')];
    const audioBefore = ids.map((id) => sha256(c.recordings.audioPath(id)));
    const jobFile = (id: string) => join(dirname(c.recordings.audioPath(id)), 'job.json');
    const metaFile = (id: string) => join(dirname(c.recordings.audioPath(id)), 'meta.json');

    // Sign in so the tokens are issued early in a second (they expire on whole seconds), which
    // gives the refresh its full second to leave in time. Tries again when the timing was off.
    let took = LATENCY_MS + 60;
    for (let attempt = 0; ; attempt++) {
      await sleep((1100 - ((Date.now() + took) % 1000)) % 1000);
      const started = Date.now();
      await c.session.signIn(first.demo.email, first.demo.password);
      took = Date.now() - started;
      const stored = await c.options.secretStore.load();
      const life = (stored?.expiresAt ?? 0) * 1000 - (stored?.obtainedAt ?? 0);
      if (life >= 750) break;
      if (attempt >= 4) throw new Error(`could not time the sign-in (token life ${life} ms)`);
      await c.session.signOut('user');
    }
    const signIns = first.stats().signIns;

    // Both recordings are queued while signed in.
    const ended = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the session did not end; jobs: ${JSON.stringify(c.pipeline.list())}`)),
        8000,
      );
      c.session.on('changed', (st) => {
        if (st.signedIn) return;
        clearTimeout(timer);
        resolve();
      });
    });
    // Recorded with no one signed in, each is the vet's once they claim it.
    for (const id of ids) await c.commands.claim(id, c.actors.current()!);
    for (const id of ids) await c.pipeline.submit(id, template);
    const jobBefore = ids.map((id) => readFileSync(jobFile(id), 'utf8'));
    const metaBefore = ids.map((id) => readFileSync(metaFile(id), 'utf8'));
    for (const meta of metaBefore) expect(JSON.parse(meta)).toMatchObject({ owner: { email: first.demo.email } });
    await ended;
    await Promise.all(ids.map((id) => waitForJob(c, id, (j) => j.waitingFor === 'sign-in', 5000)));

    // The service refused the refresh (it was asked, and issued nothing), and the session ended.
    expect(c.session.state()).toMatchObject({ signedIn: false, endedBecause: 'expired' });
    expect(first.stats().byRoute['POST /scribe/auth/refresh-token']).toBeGreaterThanOrEqual(1);
    expect(first.stats().refreshes).toBe(0);
    expect(first.stats().signIns).toBe(signIns);
    expect(await c.options.secretStore.load()).toBeNull();
    // The queued jobs are parked, not failed, and nothing of theirs changed on disk.
    for (const [i, id] of ids.entries()) {
      expect(c.pipeline.info(id)).toMatchObject({ state: 'recorded', waitingFor: 'sign-in', error: null });
      expect(readFileSync(jobFile(id), 'utf8'), `job file of ${id}`).toBe(jobBefore[i]);
      expect(JSON.parse(readFileSync(jobFile(id), 'utf8'))).toMatchObject({
        state: 'recorded',
        failedAt: null,
        error: null,
      });
      expect(sha256(c.recordings.audioPath(id)), `audio of ${id}`).toBe(audioBefore[i]);
      expect(readFileSync(metaFile(id), 'utf8'), `meta of ${id}`).toBe(metaBefore[i]);
    }
    // Parked means quiet: no request goes out while signed out.
    const quiet = first.stats().requests;
    await sleep(400);
    expect(first.stats().requests).toBe(quiet);

    // The service comes back with ordinary token lifetimes and no delay (same data, same port);
    // the vet signs in again and both jobs go on from where they were.
    const port = first.port;
    await first.close();
    const current = await startSandbox({ dataDir: join(dataDir, 'service'), port, scribeSeconds: 0.3 });
    atEnd(() => current.close());
    await c.session.signIn(current.demo.email, current.demo.password);
    for (const id of ids) expect((await waitForJob(c, id, done, 15_000)).state, id).toBe('completed');
    expect(current.stats().scribeRequests).toBe(2);
    expect(Object.values(current.stats().scribeRecordsByFileKey)).toEqual([1, 1]);
    for (const [i, id] of ids.entries()) expect(sha256(c.recordings.audioPath(id))).toBe(audioBefore[i]);
  });
});
