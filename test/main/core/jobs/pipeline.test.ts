// The pipeline against the embedded sandbox over real loopback HTTP: the whole way from a
// recording on disk to a note, and every rule of docs/architecture.md, "A job's steps". What each
// step sends is in steps.test.ts; job files of earlier versions, record.test.ts.
import { ownerOf } from '../../../../src/main/core/jobs/pipeline.ts';
import { readFileSync, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeJsonAtomic } from '../../../../src/main/core/platform/atomic-file.ts';
import type { JobInfo } from '../../../../src/shared/jobs.ts';
import { startSandbox } from '../../../../src/sandbox/index.ts';
import { firstTemplateId, makeRecording, startCoreAgainst, tempDir, waitForJob } from '../../../support/core.ts';
import { builtInCores, proxiedCores, signInDemo } from '../support.ts';
import { done, jobFile } from './support.ts';

const { core, signedIn, cores } = builtInCores();
const proxied = proxiedCores();
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
      await signInDemo(c);
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
    await signInDemo(c);
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
    const file = jobFile(c, id);
    const record = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    await writeJsonAtomic(file, {
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
    const file = jobFile(c, id);
    for (let i = 0; i < 30; i++) {
      await Promise.all([
        c.pipeline.saveEditedNote(id, `edit ${i}a`),
        c.pipeline.saveEditedNote(id, `edit ${i}b`),
        c.pipeline.saveEditedNote(id, `edit ${i}c`),
      ]);
      const onDisk = JSON.parse(readFileSync(file, 'utf8')) as { editedNote: string | null };
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

describe('a note that is late', () => {
  it('is marked overdue after the minutes set, announced once, polled slowly; Ask again sends a new request for the same session', async () => {
    const notified: string[] = [];
    const SLOW_MS = 700;
    // 1.5 s instead of 30 minutes; quick polls before that, slow ones after.
    const {
      c,
      h: handlers,
      proxy,
      template,
    } = await proxied(
      { scribeSeconds: 0.2 },
      {
        notify: (title, body) => notified.push(`${title}: ${body}`),
        pipeline: { overdueMinutes: () => 0.025, slowPollMs: SLOW_MS, pollDelay: () => 100 },
      },
    );
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
    await c.pipeline.submit(id, template);
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
