// The pipeline against the embedded sandbox over real loopback HTTP: the whole way from a
// recording on disk to a note, and every rule of docs/architecture.md, "A job's steps".
import { ownerOf } from '../../../../src/main/core/jobs/pipeline.ts';
import { createHash } from 'node:crypto';
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { createHandlers } from '../../../../src/main/core/ipc-handlers.ts';
import { PATIENT_NAME_REQUIRED } from '../../../../src/main/core/jobs/pipeline.ts';
import { DEFAULT_SETTINGS, PUBLISHED_SERVICE_URLS } from '../../../../src/shared/settings.ts';
import { writeJsonAtomic } from '../../../../src/main/core/platform/atomic-file.ts';
import type { JobInfo } from '../../../../src/shared/jobs.ts';
import { call } from '../../../support/http.ts';
import { localDate } from '../../../../src/main/core/recordings/index.ts';
import { rtfToSections, sectionsFromCategories, sectionsToText } from '../../../../src/shared/note/index.ts';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.ts';
import {
  firstTemplateId,
  makeRecording,
  startCore,
  startCoreAgainst,
  tempDir,
  waitForJob,
} from '../../../support/core.ts';
import { startRecordingProxy, type RecordingProxy } from '../../../support/recording-proxy.ts';

/** Rows 4 and 6 by hand, as the published service takes them: a session and an upload address. */
async function sessionAndAddress(
  scribeUrl: string,
  token: string,
): Promise<{ recordingSessionId: string; url: string }> {
  const s = await call<{ public_id: string }>('POST', `${scribeUrl}/recording-sessions/create`, {
    token,
    headers: { 'x-api-version': 'v1' },
    body: { patient_name: 'Bella', description: '', session_date: '2026-11-20' },
  });
  if (s.status >= 300) throw new Error(`create session answered ${s.status}: ${s.text}`);
  const u = await call<{ url: string }>('POST', `${scribeUrl}/audio/generate-upload-url`, {
    token,
    headers: { 'x-api-version': 'v1' },
    body: { recording_session_public_id: s.json.public_id },
  });
  if (u.status >= 300) throw new Error(`upload url answered ${u.status}: ${u.text}`);
  return { recordingSessionId: s.json.public_id, url: u.json.url };
}

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

const cores: AppCore[] = [];
afterEach(async () => {
  while (cores.length) await cores.pop()?.stop();
});
async function core(options: Parameters<typeof startCore>[0] = {}) {
  const c = await startCore(options);
  cores.push(c);
  return c;
}
async function signedIn(options: Parameters<typeof startCore>[0] = {}) {
  const c = await core(options);
  const demo = c.appInfo().sandbox?.demo;
  if (!demo) throw new Error('no sandbox');
  await c.session.signIn(demo.email, demo.password);
  return c;
}
const done = (j: JobInfo) => j.state === 'completed' || j.state === 'failed';
async function waitUntil(predicate: () => boolean, timeoutMs = 5000) {
  const end = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > end) throw new Error('waitUntil: timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('pipeline', () => {
  it('takes a recording to a note: every step in order, one scribe request, a notification that opens it', async () => {
    const notified: string[] = [];
    const about: (string | undefined)[] = [];
    const c = await signedIn({
      notify: (title, body, consultId) => {
        notified.push(`${title}: ${body}`);
        about.push(consultId);
      },
    });
    const template = await firstTemplateId(c);
    const id = await makeRecording(c, 'Bella — vomiting');
    const states: string[] = [];
    c.pipeline.on('job', (j) => {
      if (states.at(-1) !== j.state) states.push(j.state);
    });
    await c.pipeline.submit(id, template);
    const job = await waitForJob(c, id, done);
    expect(job.state).toBe('completed');
    expect(states).toEqual([
      'recorded',
      'recording_session_created',
      'upload_url',
      'uploaded',
      'scribe_requested',
      'completed',
    ]);
    await waitUntil(() => notified.length > 0);
    // A click on the notification opens that consult, while it is still this account's.
    expect(about).toEqual([id]);
    const opened: string[] = [];
    c.on('consult:open', ({ id: opening }) => opened.push(opening));
    expect(c.openConsult(id)).toBe(true);
    expect(opened).toEqual([id]);
    expect(job.bytesSent).toBe(job.bytesTotal);
    expect(job.bytesTotal).toBeGreaterThan(10_000);
    const { note } = c.pipeline.note(id);
    // The note as the service sent it, in sections: the sandbox's example for the patient named.
    expect(note).toMatch(
      /^## Example note\n\nExample note: the sandbox does not listen to the audio\. This SOAP note for Bella/,
    );
    expect(note).toContain('## Subjective\n\nBella has vomited');
    expect(notified).toEqual(['Note ready: Bella — the note is ready to read.']);
    const stats = c.embeddedSandbox!.stats();
    expect(stats.scribeRequests).toBe(1);
    expect(Object.values(stats.scribeRecordsByFileKey)).toEqual([1]);
    // The service received exactly the bytes on disk.
    expect(stats.uploads).toBe(1);
    // Once another vet (here: no one) is signed in, the notification's click opens nothing.
    await c.session.signOut();
    expect(c.openConsult(id)).toBe(false);
    expect(opened).toEqual([id]);
  });

  it('twelve consults queued while signed out wait without a listener each (no leak warning), and all go on at sign-in', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const c = await core();
      const ids: string[] = [];
      for (let i = 0; i < 12; i += 1) ids.push(await makeRecording(c, null, null, { patientName: `Patient ${i}` }));
      for (const id of ids) await c.pipeline.submit(id, 'any-template');
      // One at a time: the test's own waits must not add a listener each either.
      for (const id of ids) await waitForJob(c, id, (j) => j.waitingFor === 'sign-in');
      const demo = c.appInfo().sandbox!.demo;
      await c.session.signIn(demo.email, demo.password);
      const template = await firstTemplateId(c);
      // Recorded with no one signed in, they are no one's: each waits for a vet to claim it.
      for (const id of ids) await waitForJob(c, id, (j) => j.waitingFor === 'claim');
      for (const id of ids) await c.commands.claim(id, c.actors.current()!);
      // The template given is unknown to the service: each goes on, and stops with its words.
      for (const id of ids) expect((await waitForJob(c, id, done)).error?.message).toBe('Template not found.');
      expect(template).toBeTruthy();
      await new Promise((r) => setImmediate(r));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('a second submit joins the job under way instead of starting another', async () => {
    const c = await signedIn();
    const template = await firstTemplateId(c);
    const id = await makeRecording(c);
    const [a, b] = await Promise.all([c.pipeline.submit(id, template), c.pipeline.submit(id, template)]);
    expect(a.createdAt).toBe(b.createdAt);
    await waitForJob(c, id, done);
    expect(c.embeddedSandbox!.stats().scribeRequests).toBe(1);
  });

  it('a signed-out session parks the job, and it goes on after sign-in', async () => {
    const c = await core();
    const id = await makeRecording(c);
    await c.pipeline.submit(id, 'any-template');
    const waiting = await waitForJob(c, id, (j) => j.waitingFor === 'sign-in');
    expect(waiting.state).toBe('recorded');
    const demo = c.appInfo().sandbox!.demo;
    await c.session.signIn(demo.email, demo.password);
    await c.commands.claim(id, c.actors.current()!);
    const template = await firstTemplateId(c);
    // The template given was not one the service knows: the job fails with the service's words.
    const failed = await waitForJob(c, id, done);
    expect(failed.state).toBe('failed');
    expect(failed.error?.message).toBe('Template not found.');
    expect(failed.error?.status).toBe(404);
    // The audio is kept; a retry by hand with a good template starts at the failed step.
    expect(existsSync(c.recordings.audioPath(id))).toBe(true);
    await c.pipeline.retry(id, template);
    const ok = await waitForJob(c, id, (j) => j.state === 'completed');
    expect(ok.error).toBeNull();
    expect(c.embeddedSandbox!.stats().scribeRequests).toBe(1);
  });

  it('a job the service fails is shown with the service reason', async () => {
    const c = await signedIn();
    const template = await firstTemplateId(c);
    // The store checks WebM's first bytes; an Ogg recording it takes as it comes.
    const meta = await c.recordings.start({
      mimeType: 'audio/ogg',
      label: null,
      patientName: 'Bella',
      owner: ownerOf(c.session.state().user!, c.serviceKey()),
    });
    await c.recordings.appendChunk(meta.id, 0, Buffer.from('not audio, just text'), 1000);
    await c.recordings.finish(meta.id, { durationMs: 1000 });
    await c.pipeline.submit(meta.id, template);
    const job = await waitForJob(c, meta.id, done);
    expect(job.state).toBe('failed');
    expect(job.error?.message).toMatch(/not audio/);
    expect(job.serviceStatus).toBe('failed');
  });

  it('resumes after a restart at the step it stopped, and finishes with one scribe request', async () => {
    const dataDir = tempDir();
    const first = await signedIn({ dataDir, sandbox: { scribeSeconds: 1 } });
    const template = await firstTemplateId(first);
    const id = await makeRecording(first);
    await first.pipeline.submit(id, template);
    await waitForJob(first, id, (j) => j.state === 'scribe_requested');
    await first.stop();
    cores.pop();
    const second = await core({ dataDir, secretStore: first.options.secretStore, sandbox: { scribeSeconds: 1 } });
    expect(second.session.state().signedIn).toBe(true);
    const job = await waitForJob(second, id, done);
    expect(job.state).toBe('completed');
    expect(Object.values(second.embeddedSandbox!.stats().scribeRecordsByFileKey)).toEqual([1]);
  });

  it('asks again for an upload URL that has expired, before and after trying it', async () => {
    const sandbox = await startSandbox({ uploadTtlSeconds: 1, scribeSeconds: 0.2 });
    try {
      const dataDir = tempDir();
      const c = await startCoreAgainst(sandbox, { dataDir });
      await c.session.signIn(sandbox.demo.email, sandbox.demo.password);
      const template = await firstTemplateId(c);
      const id = await makeRecording(c);
      const token = await c.session.accessToken();
      const scribe = c.serviceUrls().scribeUrl;
      const { recordingSessionId, url } = await sessionAndAddress(scribe, token);
      await new Promise((r) => setTimeout(r, 1100));
      // Addresses given from now on live long, so a slow machine cannot see the new one expire
      // too (a 1 s address, signed to the second, may have a few ms left when it is given).
      sandbox.options.uploadTtlSeconds = 3600;
      await c.stop();
      // A job left at upload_url with an address that has expired but claims it has not (the
      // clocks disagree): the PUT is refused with 403 and the job asks for a new address.
      const jobFile = join(dirname(c.recordings.audioPath(id)), 'job.json');
      const now = new Date().toISOString();
      const base = {
        version: 1,
        recordingId: id,
        templateId: template,
        state: 'upload_url',
        failedAt: null,
        recordingSessionId,
        idempotencyKey: 'k-1',
        scribeRequestSentAt: null,
        scribeRequests: 0,
        scribeId: null,
        serviceStatus: null,
        note: null,
        editedNote: null,
        error: null,
        bytesTotal: 1,
        createdAt: now,
        updatedAt: now,
        completedAt: null,
        audioDeletedAt: null,
      };
      await writeJsonAtomic(jobFile, {
        ...base,
        upload: { url, fileKey: null, expiresAt: Math.floor(Date.now() / 1000) + 3600 },
      });
      const again = await startCoreAgainst(sandbox, { dataDir, secretStore: c.options.secretStore });
      cores.push(again);
      const resumed = await waitForJob(again, id, done);
      expect(resumed.error).toBeNull();
      expect(resumed.state).toBe('completed');
      expect(again.pipeline.counters.uploadUrlRenewals).toBe(1);
      expect(sandbox.stats().byRoute['PUT /storage/:key']).toBe(2);
      await again.stop();
      cores.pop();
      // And one whose expiry has passed by its own word is not even tried.
      const id2 = await makeRecording(again);
      await writeJsonAtomic(join(dirname(again.recordings.audioPath(id2)), 'job.json'), {
        ...base,
        recordingId: id2,
        idempotencyKey: 'k-2',
        upload: { url, fileKey: null, expiresAt: Math.floor(Date.now() / 1000) - 5 },
      });
      const third = await startCoreAgainst(sandbox, { dataDir, secretStore: c.options.secretStore });
      cores.push(third);
      const late = await waitForJob(third, id2, done);
      expect(late.error).toBeNull();
      expect(late.state).toBe('completed');
      expect(third.pipeline.counters.uploadUrlRenewals).toBe(1);
      expect(sandbox.stats().byRoute['PUT /storage/:key']).toBe(3);
    } finally {
      await sandbox.close();
    }
  });

  it('asks a fresh upload URL when the one it has points at a host that no longer answers', async () => {
    // The service restarted on another port after handing out the address, as the embedded
    // sandbox does when the app restarts.
    const gone = await startSandbox({});
    const sandbox = await startSandbox({ scribeSeconds: 0.2 });
    try {
      const dataDir = tempDir();
      const c = await startCoreAgainst(sandbox, { dataDir });
      await c.session.signIn(sandbox.demo.email, sandbox.demo.password);
      const template = await firstTemplateId(c);
      const id = await makeRecording(c);
      const token = await c.session.accessToken();
      const { recordingSessionId, url } = await sessionAndAddress(c.serviceUrls().scribeUrl, token);
      const deadUrl = new URL(url);
      deadUrl.port = new URL(gone.origin).port;
      await gone.close();
      await c.stop();
      const now = new Date().toISOString();
      await writeJsonAtomic(join(dirname(c.recordings.audioPath(id)), 'job.json'), {
        version: 1,
        recordingId: id,
        templateId: template,
        state: 'upload_url',
        failedAt: null,
        recordingSessionId,
        idempotencyKey: 'k-dead',
        upload: { url: deadUrl.href, fileKey: null, expiresAt: Math.floor(Date.now() / 1000) + 3600 },
        scribeRequestSentAt: null,
        scribeRequests: 0,
        scribeId: null,
        serviceStatus: null,
        note: null,
        editedNote: null,
        error: null,
        bytesTotal: 1,
        createdAt: now,
        updatedAt: now,
        completedAt: null,
        audioDeletedAt: null,
      });
      const again = await startCoreAgainst(sandbox, { dataDir, secretStore: c.options.secretStore });
      cores.push(again);
      const job = await waitForJob(again, id, done);
      expect(job.error).toBeNull();
      expect(job.state).toBe('completed');
      expect(again.pipeline.counters.uploadUrlRenewals).toBe(1);
      expect(sandbox.stats().byRoute['PUT /storage/:key']).toBe(1);
      expect(sandbox.stats().scribeRequests).toBe(1);
    } finally {
      await sandbox.close();
    }
  });

  it('after a crash with the scribe request in flight, sends it again with the same key: still one record', async () => {
    const dataDir = tempDir();
    const c = await signedIn({ dataDir });
    const template = await firstTemplateId(c);
    const id = await makeRecording(c);
    await c.pipeline.submit(id, template);
    const job = await waitForJob(c, id, done);
    expect(job.state).toBe('completed');
    await c.stop();
    cores.pop();
    // Rewind the job file to "request sent, answer never written", as a crash would leave it.
    const jobFile = join(dirname(c.recordings.audioPath(id)), 'job.json');
    const record = JSON.parse(readFileSync(jobFile, 'utf8')) as Record<string, unknown>;
    await writeJsonAtomic(jobFile, {
      ...record,
      state: 'uploaded',
      scribeId: null,
      note: null,
      completedAt: null,
      serviceStatus: null,
    });
    const again = await core({ dataDir, secretStore: c.options.secretStore });
    const resumed = await waitForJob(again, id, done);
    expect(resumed.state).toBe('completed');
    const stats = again.embeddedSandbox!.stats();
    expect(stats.scribeReplays).toBe(1);
    expect(Object.values(stats.scribeRecordsByFileKey)).toEqual([1]);
  });

  it('deletes a job with its audio, and applies the retention setting to finished notes', async () => {
    const c = await signedIn();
    const template = await firstTemplateId(c);
    const keep = await makeRecording(c, 'keep');
    const gone = await makeRecording(c, 'gone');
    await c.pipeline.submit(keep, template);
    await c.pipeline.submit(gone, template);
    await waitForJob(c, keep, done);
    await waitForJob(c, gone, done);
    await c.pipeline.delete(gone);
    expect(existsSync(dirname(c.recordings.audioPath(gone)))).toBe(false);
    expect(c.pipeline.info(gone)).toBeNull();
    expect(await c.pipeline.applyRetention(() => ({ keepDays: 7, countFrom: null }))).toEqual([]);
    expect(existsSync(c.recordings.audioPath(keep))).toBe(true);
    expect(await c.pipeline.applyRetention(() => ({ keepDays: 0, countFrom: null }))).toEqual([keep]);
    expect(existsSync(c.recordings.audioPath(keep))).toBe(false);
    expect(c.pipeline.info(keep)).toMatchObject({ state: 'completed', audioDeleted: true, hasNote: true });
    expect(c.pipeline.note(keep).note).toMatch(/\S/);
  });

  it('keeps the vet edit of a note beside the original', async () => {
    const c = await signedIn();
    const id = await makeRecording(c);
    await c.pipeline.submit(id, await firstTemplateId(c));
    await waitForJob(c, id, done);
    await c.pipeline.saveEditedNote(id, 'My own words');
    expect(c.pipeline.note(id).editedNote).toBe('My own words');
    expect(c.pipeline.note(id).note).not.toBe('My own words');
  });

  it('a switch to another service starts the consults without a note again there; notes stay', async () => {
    const a = await startSandbox({ scribeSeconds: 30, rateLimitPerMinute: 0 });
    const b = await startSandbox({ scribeSeconds: 0.2, rateLimitPerMinute: 0 });
    try {
      const c = await startCoreAgainst(a);
      cores.push(c);
      await c.session.signIn(a.demo.email, a.demo.password);
      const templateA = await firstTemplateId(c);
      const waiting = await makeRecording(c, 'waits at A');
      await c.pipeline.submit(waiting, templateA);
      await waitForJob(c, waiting, (j) => j.state === 'scribe_requested');

      await c.appSettings.update({
        serviceUrls: {
          agentsUrl: b.urls.agents_url,
          scribeUrl: b.urls.scribe_url,
          agentsApiUrl: b.urls.agents_api_url,
        },
      });
      expect(c.session.state().signedIn).toBe(false);
      await waitForJob(c, waiting, (j) => j.state === 'recorded' && j.waitingFor === 'sign-in');
      await c.session.signIn(b.demo.email, b.demo.password);
      // It keeps the owner it was recorded by: on the new service it waits for that vet to take it.
      expect((await waitForJob(c, waiting, (j) => j.waitingFor === 'claim')).state).toBe('recorded');
      expect(c.access.consultFor(waiting).claimable).toBe(true);
      await c.commands.claim(waiting, c.actors.current()!);
      const job = await waitForJob(c, waiting, done);
      expect(job.state).toBe('completed');
      // One record at each service: the one at A is left behind, B wrote the note.
      expect(Object.values(a.stats().scribeRecordsByFileKey)).toEqual([1]);
      expect(Object.values(b.stats().scribeRecordsByFileKey)).toEqual([1]);
      expect(c.pipeline.note(waiting).note).toMatch(/sandbox/i);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('saves made at once reach the job file in order: the file holds the newest record', async () => {
    const c = await signedIn();
    const id = await makeRecording(c);
    await c.pipeline.submit(id, await firstTemplateId(c));
    await waitForJob(c, id, done);
    const jobFile = join(dirname(c.recordings.audioPath(id)), 'job.json');
    for (let i = 0; i < 30; i++) {
      await Promise.all([
        c.pipeline.saveEditedNote(id, `edit ${i}a`),
        c.pipeline.saveEditedNote(id, `edit ${i}b`),
        c.pipeline.saveEditedNote(id, `edit ${i}c`),
      ]);
      const onDisk = JSON.parse(readFileSync(jobFile, 'utf8')) as { editedNote: string | null };
      expect(onDisk.editedNote, `round ${i}`).toBe(c.pipeline.note(id).editedNote);
      expect(onDisk.editedNote).toBe(`edit ${i}c`);
    }
  });

  it('a good answer ends the backoff: the next failure waits the first delay again', async () => {
    // Every third answer or so is cut mid-way (a network error, no Retry-After); with random()
    // = 1 each wait is the ceiling of its attempt, 100 ms × 2^(failures in a row before it). A
    // backoff that counted every failure of a long scribing job would climb to its cap.
    const lines: string[] = [];
    const c = await core({
      sandbox: { scribeSeconds: 4, dropRate: 0.3, seed: 20261123, rateLimitPerMinute: 0 },
      pipeline: {
        backoff: { baseMs: 100, capMs: 6400, random: () => 1 },
        pollDelay: () => 25,
        log: (l) => lines.push(l),
      },
    });
    const demo = c.appInfo().sandbox?.demo;
    if (!demo) throw new Error('no sandbox');
    const template = await untilAnswered(async () => {
      if (!c.session.state().signedIn) await c.session.signIn(demo.email, demo.password);
      return firstTemplateId(c);
    });
    const id = await makeRecording(c);
    await c.pipeline.submit(id, template);
    expect((await waitForJob(c, id, done, 25_000)).state).toBe('completed');
    const exponents = lines
      .flatMap((l) => /retry in (\d+) ms/.exec(l)?.[1] ?? [])
      .map((ms) => Math.log2(Number(ms) / 100));
    expect(exponents.length).toBeGreaterThan(10);
    expect(exponents.every((e) => Number.isInteger(e) && e >= 0)).toBe(true);
    expect(Math.max(...exponents)).toBeLessThanOrEqual(4);
    expect(exponents.filter((e) => e === 0).length).toBeGreaterThan(exponents.length / 2);
  });
});

async function untilAnswered<T>(fn: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await fn();
    } catch (e) {
      if (i >= 20) throw e;
    }
  }
}

describe('the published workflow', () => {
  const sandboxes: Sandbox[] = [];
  const proxies: RecordingProxy[] = [];
  afterEach(async () => {
    while (cores.length) await cores.pop()?.stop();
    while (proxies.length) await proxies.pop()?.close();
    while (sandboxes.length) await sandboxes.pop()?.close();
  });
  /** A sandbox, a recording proxy in front of it, and a signed-in core talking through the proxy. */
  async function through(
    sandboxOptions: Parameters<typeof startSandbox>[0],
    options: Parameters<typeof startCoreAgainst>[1] = {},
  ) {
    const s = await startSandbox({ rateLimitPerMinute: 0, ...sandboxOptions });
    sandboxes.push(s);
    const proxy = await startRecordingProxy(s);
    proxies.push(proxy);
    const c = await startCoreAgainst(s, { urls: proxy.urls, ...options });
    cores.push(c);
    await c.session.signIn(s.demo.email, s.demo.password);
    return { s, proxy, c, template: await firstTemplateId(c) };
  }
  const scribeAnswers = (proxy: RecordingProxy) =>
    proxy.find('GET', '/scribe/get/').map((r) => r.answer as Record<string, unknown>);

  it('sends the published bodies, goes requested -> scribing -> scribed, and reads the note from categories_output', async () => {
    const { c, proxy, template } = await through({ scribeSeconds: 1.5 }, { pipeline: { pollDelay: () => 100 } });
    const id = await makeRecording(c, null, null, { patientName: 'Bella', description: 'Vomiting since Tuesday' });
    const statuses: string[] = [];
    c.pipeline.on('job', (j) => {
      if (j.recordingId === id && j.serviceStatus !== null && statuses.at(-1) !== j.serviceStatus)
        statuses.push(j.serviceStatus);
    });
    await c.pipeline.submit(id, template);
    const job = await waitForJob(c, id, done);
    expect(job.state).toBe('completed');
    expect(statuses).toEqual(['requested', 'scribing', 'scribed']);
    expect(new Set(scribeAnswers(proxy).map((a) => a['status']))).toEqual(
      new Set(['requested', 'scribing', 'scribed']),
    );

    const meta = (await c.recordings.get(id))!;
    const [create] = proxy.find('POST', '/recording-sessions/create');
    expect(create?.json).toEqual({
      patient_name: 'Bella',
      description: 'Vomiting since Tuesday',
      session_date: localDate(meta.startedAt),
    });
    const recordingSessionId = (create?.answer as { public_id: string }).public_id;
    expect(proxy.find('POST', '/audio/generate-upload-url').map((r) => r.json)).toEqual([
      { recording_session_public_id: recordingSessionId },
    ]);
    const puts = proxy.seen.filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(1);
    const size = readFileSync(c.recordings.audioPath(id)).length;
    expect(puts[0]!.headers['content-type']).toBeUndefined();
    expect(puts[0]!.headers['x-api-version']).toBeUndefined();
    expect(puts[0]!.headers['authorization']).toBeUndefined();
    expect(puts[0]!.headers['content-length']).toBe(String(size));
    expect(puts[0]!.bodyBytes).toBe(size);
    expect(puts[0]!.status).toBe(200);
    const scribe = proxy.find('POST', '/scribe/request');
    expect(scribe.map((r) => r.json)).toEqual([
      { recording_session_public_id: recordingSessionId, template_public_id: template },
    ]);
    expect(scribe[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(scribe[0]!.headers['x-api-version']).toBe('v1');

    // The note is the categories, as sections; the service's RTF is kept as it came.
    const last = scribeAnswers(proxy).at(-1)!;
    const categories = last['categories_output'] as Record<string, unknown>[];
    expect(categories.length).toBeGreaterThan(1);
    const { note, noteRtf } = c.pipeline.note(id);
    expect(note).toBe(sectionsToText(sectionsFromCategories(categories)));
    expect(note).toContain('Bella');
    expect(note).not.toMatch(/\\(par|rtf1)\b|[{}]/);
    expect(noteRtf).toBe(last['rtf_output']);
    expect(noteRtf).toMatch(/^\{\\rtf1/);
  });

  it('reads the note from rtf_output when categories_output is empty', async () => {
    const { c, proxy, template } = await through({ scribeSeconds: 0.3 });
    // The sandbox always fills both; the proxy empties the categories of its answers.
    proxy.rewrite = (request, answer) =>
      request.method === 'GET' && request.path.includes('/scribe/get/')
        ? { ...(answer as Record<string, unknown>), categories_output: [] }
        : undefined;
    const id = await makeRecording(c, null, null, { patientName: 'Milo' });
    await c.pipeline.submit(id, template);
    expect((await waitForJob(c, id, done)).state).toBe('completed');
    const rtf = scribeAnswers(proxy).at(-1)!['rtf_output'] as string;
    const { note, noteRtf } = c.pipeline.note(id);
    expect(noteRtf).toBe(rtf);
    expect(note).toBe(sectionsToText(rtfToSections(rtf)));
    expect(note).toContain('Milo');
    // Text, not RTF: no control words or groups left.
    expect(note).not.toMatch(/\\[a-z]+|[{}]/);
    expect(rtfToSections(rtf).length).toBeGreaterThan(1);
  });

  it('renews an expired (AccessDenied) upload address; a bad signature stops the job clearly with the audio kept, and Retry asks a new address', async () => {
    const { c, proxy, template } = await through({ scribeSeconds: 0.2 });
    const id = await makeRecording(c, null, null, { patientName: 'Rex' });
    const audio = sha256(c.recordings.audioPath(id));
    // The first two addresses are spoilt: one by a signature with a character appended, which
    // the storage must refuse as SignatureDoesNotMatch.
    let spoilt = 0;
    proxy.rewrite = (request, answer) => {
      if (!request.path.endsWith('/audio/generate-upload-url') || spoilt >= 1) return undefined;
      spoilt += 1;
      const a = answer as { url: string };
      return { ...a, url: tamperSignature(a.url) };
    };
    await c.pipeline.submit(id, template);
    const failed = await waitForJob(c, id, done);
    expect(failed.state).toBe('failed');
    expect(failed.error).toMatchObject({ code: 'SignatureDoesNotMatch', status: 403 });
    expect(failed.error?.message).toMatch(/wrongly signed.*the audio is kept/);
    expect(sha256(c.recordings.audioPath(id))).toBe(audio);
    expect(proxy.seen.filter((r) => r.method === 'PUT').map((r) => r.status)).toEqual([403]);
    // Retry by hand: a new address, and through.
    proxy.rewrite = null;
    await c.pipeline.retry(id);
    expect((await waitForJob(c, id, done)).state).toBe('completed');
    expect(proxy.find('POST', '/audio/generate-upload-url')).toHaveLength(2);
    expect(proxy.seen.filter((r) => r.method === 'PUT').map((r) => r.status)).toEqual([403, 200]);
    expect(proxy.find('POST', '/scribe/request')).toHaveLength(1);
  });

  it('an address that has expired by the time it is used is refused (AccessDenied) and asked for again', async () => {
    // Signed to the second, a 2 s address lives 1–2 s: long enough to be tried, not renewed
    // ahead by its own word, however slow the machine is between asking and trying.
    const { s, c, proxy, template } = await through({ scribeSeconds: 0.2, uploadTtlSeconds: 2 });
    const id = await makeRecording(c, null, null, { patientName: 'Rex' });
    // The first address is used only after it has expired; the next one lives long.
    const upload = c.client.upload.bind(c.client);
    let first = true;
    c.client.upload = async (...args: Parameters<typeof upload>) => {
      if (first) {
        first = false;
        await new Promise((r) => setTimeout(r, 2100));
        s.options.uploadTtlSeconds = 3600;
      }
      return upload(...args);
    };
    await c.pipeline.submit(id, template);
    expect((await waitForJob(c, id, done)).state).toBe('completed');
    const puts = proxy.seen.filter((r) => r.method === 'PUT');
    expect(puts.map((r) => r.status)).toEqual([403, 200]);
    expect(c.pipeline.counters.uploadUrlRenewals).toBe(1);
    expect(proxy.find('POST', '/audio/generate-upload-url')).toHaveLength(2);
  });
});

/** The address with its signature changed by one appended character. */
function tamperSignature(url: string): string {
  const u = new URL(url);
  const names = [...u.searchParams.keys()];
  const name = names.find((n) => /signature/i.test(n)) ?? names.at(-1);
  if (!name) throw new Error(`no query to tamper with in ${url}`);
  u.searchParams.set(name, `${u.searchParams.get(name) ?? ''}a`);
  return u.href;
}

describe('a note that is late', () => {
  const sandboxes: Sandbox[] = [];
  const proxies: RecordingProxy[] = [];
  afterEach(async () => {
    while (cores.length) await cores.pop()?.stop();
    while (proxies.length) await proxies.pop()?.close();
    while (sandboxes.length) await sandboxes.pop()?.close();
  });

  it('is marked overdue after the minutes set, announced once, polled slowly; Ask again sends a new request for the same session', async () => {
    const s = await startSandbox({ rateLimitPerMinute: 0, scribeSeconds: 0.2 });
    sandboxes.push(s);
    const proxy = await startRecordingProxy(s);
    proxies.push(proxy);
    const notified: string[] = [];
    const SLOW_MS = 700;
    // 1.5 s instead of 30 minutes; quick polls before that, slow ones after.
    const c = await startCoreAgainst(s, {
      urls: proxy.urls,
      notify: (title, body) => notified.push(`${title}: ${body}`),
      pipeline: { overdueMinutes: () => 0.025, slowPollMs: SLOW_MS, pollDelay: () => 100 },
    });
    cores.push(c);
    await c.session.signIn(s.demo.email, s.demo.password);
    const handlers = createHandlers(c);
    const id = await makeRecording(c, null, null, { patientName: 'Bella' });
    const overdueEvents: { at: number; job: JobInfo }[] = [];
    c.pipeline.on('overdue', (job) => overdueEvents.push({ at: Date.now(), job }));
    const changed: boolean[] = [];
    c.on('consult:changed', ({ job }) => {
      if (job?.recordingId === id) changed.push(job.overdue);
    });
    // The service never finishes this note: its answers say 'scribing' for ever.
    proxy.rewrite = (request, answer) =>
      request.method === 'GET' && request.path.includes('/scribe/get/')
        ? { ...(answer as object), status: 'scribing', categories_output: [], rtf_output: null }
        : undefined;
    await c.pipeline.submit(id, await firstTemplateId(c));
    const requested = await waitForJob(c, id, (j) => j.state === 'scribe_requested');
    expect(requested.overdue).toBe(false);
    // Too early to ask again.
    expect(await handlers['consults:askAgain']({ id })).toMatchObject({
      ok: false,
      error: {
        code: 'conflict',
        message: expect.stringMatching(
          /^The service has had this consult for less than 2 seconds; Ask again is for a note that is late\.$/,
        ),
      },
    });
    const late = await waitForJob(c, id, (j) => j.overdue, 10_000);
    expect(late.state).toBe('scribe_requested');
    expect(changed).toContain(true);
    await new Promise((r) => setTimeout(r, SLOW_MS * 3 + 200));
    // Announced once; the desktop notification names the patient.
    expect(overdueEvents).toHaveLength(1);
    expect(notified).toEqual([expect.stringMatching(/^Note taking longer than usual: Bella: /)]);
    // Polled slowly now: looks at least SLOW_MS apart.
    const looks = proxy.find('GET', '/scribe/get/').map((r) => r.at);
    expect(overdueEvents[0]!.job).toMatchObject({ recordingId: id, overdue: true });
    const after = looks.filter((t) => t >= overdueEvents[0]!.at);
    for (let i = 1; i < after.length; i++) expect(after[i]! - after[i - 1]!).toBeGreaterThanOrEqual(SLOW_MS - 50);
    expect(after.length).toBeLessThanOrEqual(6);

    const firstRequest = proxy.find('POST', '/scribe/request')[0]!;
    const firstScribeId = (firstRequest.answer as { public_id: string }).public_id;
    proxy.rewrite = null;
    const asked = await handlers['consults:askAgain']({ id });
    expect(asked).toMatchObject({ ok: true, data: { job: { overdue: false } } });
    const job = await waitForJob(c, id, (j) => j.state === 'completed' || j.state === 'failed');
    expect(job.state).toBe('completed');
    const requests = proxy.find('POST', '/scribe/request');
    expect(requests).toHaveLength(2);
    // The same recording session and template, a new key, and the new record is the one polled.
    expect(requests[1]!.json).toEqual(requests[0]!.json);
    expect(requests[1]!.headers['idempotency-key']).not.toBe(requests[0]!.headers['idempotency-key']);
    const secondScribeId = (requests[1]!.answer as { public_id: string }).public_id;
    expect(secondScribeId).not.toBe(firstScribeId);
    expect(proxy.find('GET', '/scribe/get/').at(-1)!.path).toContain(secondScribeId);
    expect(proxy.find('POST', '/recording-sessions/create')).toHaveLength(1);
    expect(proxy.seen.filter((r) => r.method === 'PUT')).toHaveLength(1);
    expect(c.pipeline.note(id).note).toContain('Bella');
  });
});

describe('files written by the version before', () => {
  /** A job file as the version before wrote it: no noteRtf, an upload with a file key. */
  function oldJob(recordingId: string, templateId: string, patch: Record<string, unknown>) {
    const at = '2026-11-20T09:00:00.000Z';
    return {
      version: 1,
      recordingId,
      templateId,
      state: 'recorded',
      failedAt: null,
      recordingSessionId: null,
      upload: null,
      idempotencyKey: 'b1946ac9-2f1c-4c5e-9a3c-6f1e1f3b0001',
      scribeRequestSentAt: null,
      scribeRequests: 0,
      scribeId: null,
      serviceStatus: null,
      note: null,
      editedNote: null,
      error: null,
      bytesTotal: 1,
      createdAt: at,
      updatedAt: at,
      completedAt: null,
      audioDeletedAt: null,
      ...patch,
    };
  }
  async function withoutPatient(dir: string, id: string) {
    const file = join(dir, 'meta.json');
    const meta = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    delete meta['patientName'];
    delete meta['description'];
    await writeJsonAtomic(file, meta);
    return id;
  }

  it("load: a queued job without the patient's name waits saying so, and goes on once the name is given; a finished note keeps its text", async () => {
    const dataDir = tempDir();
    const first = await signedIn({ dataDir });
    const template = await firstTemplateId(first);
    const queued = await makeRecording(first, 'Consult at 06:14', null, { patientName: null });
    const done_ = await makeRecording(first, 'Consult at 07:02', null, { patientName: null });
    await first.stop();
    cores.pop();
    const folder = (id: string) => dirname(first.recordings.audioPath(id));
    await withoutPatient(folder(queued), queued);
    await withoutPatient(folder(done_), done_);
    await writeJsonAtomic(join(folder(queued), 'job.json'), oldJob(queued, template, {}));
    await writeJsonAtomic(
      join(folder(done_), 'job.json'),
      oldJob(done_, template, {
        state: 'completed',
        recordingSessionId: 'old-session',
        upload: { url: 'http://127.0.0.1:9/storage/old', fileKey: 'recordings/old.webm', expiresAt: 1763629200 },
        scribeId: 'old-scribe',
        serviceStatus: 'completed',
        note: 'Subjective\nVomiting for two days.\n\nPlan\nBland diet.',
        completedAt: '2026-11-20T09:05:00.000Z',
      }),
    );

    const c = await core({ dataDir, secretStore: first.options.secretStore });
    const handlers = createHandlers(c);
    // Both jobs are there: none dropped over the members added since.
    expect(c.pipeline.info(done_)).toMatchObject({ state: 'completed', hasNote: true, overdue: false });
    expect(await handlers['consults:note']({ id: done_ })).toEqual({
      ok: true,
      data: {
        note: 'Subjective\nVomiting for two days.\n\nPlan\nBland diet.',
        editedNote: null,
        rtf: null,
        patientName: null,
        recordingSessionDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        documentName: null,
        othersEditing: [],
      },
    });
    // Without the service's RTF, the RTF is written from the note's sections.
    expect(await handlers['consults:noteFormats']({ id: done_ })).toMatchObject({
      ok: true,
      data: { rtf: expect.stringMatching(/^\{\\rtf1[\s\S]*Bland diet\./) },
    });

    const waiting = await waitForJob(c, queued, done);
    expect(waiting).toMatchObject({
      state: 'failed',
      error: { code: 'patient_name_required', message: PATIENT_NAME_REQUIRED },
    });
    expect(existsSync(c.recordings.audioPath(queued))).toBe(true);
    expect(await handlers['consults:update']({ id: queued, patientName: 'Bella' })).toMatchObject({
      ok: true,
      data: { recording: { patientName: 'Bella', description: null } },
    });
    const finished = await waitForJob(c, queued, (j) => j.state === 'completed');
    expect(finished.error).toBeNull();
    expect(c.pipeline.note(queued).note).toContain('Bella');
  });

  it('settings saved before scribeOverdueMinutes existed load with its default, and keep what they had', async () => {
    const dataDir = tempDir();
    const { scribeOverdueMinutes: _dropped, ...before } = {
      ...DEFAULT_SETTINGS,
      retentionDays: 30,
      lastTemplateId: 'soap',
    };
    await writeJsonAtomic(join(dataDir, 'settings.json'), before);
    const c = await core({ dataDir });
    expect(c.settings.get()).toEqual({ ...before, scribeOverdueMinutes: 30 });
    expect(c.settings.notice).toBeNull();
    expect(await createHandlers(c)['settings:update']({ scribeOverdueMinutes: 45 })).toMatchObject({
      ok: true,
      data: { scribeOverdueMinutes: 45, retentionDays: 30 },
    });
    expect(JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'))).toMatchObject({
      scribeOverdueMinutes: 45,
    });
    expect(await createHandlers(c)['settings:update']({ scribeOverdueMinutes: 0 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
  });

  it('settings saved with the old name of “Sign in at the scribe address” (useLoginRow) keep it, and are saved again under its name now', async () => {
    const dataDir = tempDir();
    const { signInAtScribe: _now, ...rest } = DEFAULT_SETTINGS;
    await writeJsonAtomic(join(dataDir, 'settings.json'), { ...rest, useLoginRow: true, retentionDays: 30 });
    const c = await core({ dataDir });
    expect(c.settings.get()).toMatchObject({ signInAtScribe: true, retentionDays: 30 });
    expect(c.settings.notice).toBeNull();
    await createHandlers(c)['settings:update']({ scribeOverdueMinutes: 45 });
    const saved = JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')) as Record<string, unknown>;
    expect(saved).toMatchObject({ signInAtScribe: true, retentionDays: 30 });
    expect(saved).not.toHaveProperty('useLoginRow');
  });

  it('choosing the published service signs out and starts again there every consult without a note', async () => {
    const c = await signedIn({ sandbox: { scribeSeconds: 30 } });
    const id = await makeRecording(c);
    await c.pipeline.submit(id, await firstTemplateId(c));
    await waitForJob(c, id, (j) => j.state === 'scribe_requested');
    const settings = await createHandlers(c)['settings:update']({
      useSandbox: false,
      serviceUrls: { ...PUBLISHED_SERVICE_URLS },
    });
    expect(settings).toMatchObject({ ok: true, data: { useSandbox: false, serviceUrls: PUBLISHED_SERVICE_URLS } });
    expect(c.serviceUrls()).toEqual(PUBLISHED_SERVICE_URLS);
    expect(c.session.state().signedIn).toBe(false);
    expect(c.embeddedSandbox).toBeNull();
    // Nothing is sent to the published service until the vet signs in there.
    expect(await waitForJob(c, id, (j) => j.state === 'recorded' && j.waitingFor === 'sign-in')).toMatchObject({
      error: null,
      overdue: false,
    });
    const onDisk = JSON.parse(readFileSync(join(dirname(c.recordings.audioPath(id)), 'job.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(onDisk).toMatchObject({ state: 'recorded', recordingSessionId: null, scribeId: null, upload: null });
  });
});
