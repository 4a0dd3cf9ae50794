// What each step of a job sends over the wire and makes of the answer, against the sandbox over
// real loopback HTTP read off the wire by a recording proxy (docs/architecture.md, "A job's
// steps"): the published bodies, the note read from the categories or the RTF, and an upload
// address that has expired or leads nowhere asked for again.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { writeJsonAtomic } from '../../../../src/main/core/platform/atomic-file.ts';
import { localDate } from '../../../../src/main/core/recordings/index.ts';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.ts';
import { rtfToSections, sectionsFromCategories, sectionsToText } from '../../../../src/shared/note/index.ts';
import { call } from '../../../support/http.ts';
import type { RecordingProxy } from '../../../support/recording-proxy.ts';
import { firstTemplateId, makeRecording, startCoreAgainst, tempDir, waitForJob } from '../../../support/core.ts';
import { builtInCores, proxiedCores } from '../support.ts';
import { done, jobFile, jobRecord } from './support.ts';

/**
 * POST /recording-sessions/create and POST /audio/generate-upload-url by hand, as the published
 * service takes them: a session and its upload address.
 */
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

/** A core on `sandbox`, signed in, with a recording and a session and upload address asked for it by hand. */
async function recordingWithAddress(sandbox: Sandbox) {
  const dataDir = tempDir();
  const c = await startCoreAgainst(sandbox, { dataDir });
  await c.session.signIn(sandbox.demo.email, sandbox.demo.password);
  const template = await firstTemplateId(c);
  const id = await makeRecording(c);
  const { recordingSessionId, url } = await sessionAndAddress(c.serviceUrls().scribeUrl, await c.session.accessToken());
  return { c, dataDir, template, id, recordingSessionId, url };
}

/**
 * The core of `first`, stopped, started again on its data after a job was left at upload_url
 * with its session (as a restart finds one): it resumes there.
 */
async function resumedAtUpload(
  sandbox: Sandbox,
  first: Awaited<ReturnType<typeof recordingWithAddress>>,
  fields: { recordingId: string } & Record<string, unknown>,
) {
  await writeJsonAtomic(
    jobFile(first.c, fields.recordingId),
    jobRecord({
      templateId: first.template,
      state: 'upload_url',
      recordingSessionId: first.recordingSessionId,
      ...fields,
    }),
  );
  const again = await startCoreAgainst(sandbox, { dataDir: first.dataDir, secretStore: first.c.options.secretStore });
  cores.push(again);
  return again;
}

/** The job ends completed, with no error, having asked once for a new address; `puts` PUTs reached the storage in all. */
async function finishesAfterOneRenewal(sandbox: Sandbox, c: AppCore, id: string, puts: number) {
  const job = await waitForJob(c, id, done);
  expect(job.error).toBeNull();
  expect(job.state).toBe('completed');
  expect(c.pipeline.counters.uploadUrlRenewals).toBe(1);
  expect(sandbox.stats().byRoute['PUT /storage/:key']).toBe(puts);
}

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

const { cores } = builtInCores();
const proxied = proxiedCores();

describe('the published workflow', () => {
  const scribeAnswers = (proxy: RecordingProxy) =>
    proxy.find('GET', '/scribe/get/').map((r) => r.answer as Record<string, unknown>);

  it('sends the published bodies, goes requested -> scribing -> scribed, and reads the note from categories_output', async () => {
    const { c, proxy, template } = await proxied({ scribeSeconds: 1.5 }, { pipeline: { pollDelay: () => 100 } });
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
    const { c, proxy, template } = await proxied({ scribeSeconds: 0.3 });
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
    const { c, proxy, template } = await proxied({ scribeSeconds: 0.2 });
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
    const { sandbox, c, proxy, template } = await proxied({ scribeSeconds: 0.2, uploadTtlSeconds: 2 });
    const id = await makeRecording(c, null, null, { patientName: 'Rex' });
    // The first address is used only after it has expired; the next one lives long.
    const upload = c.client.upload.bind(c.client);
    let first = true;
    c.client.upload = async (...args: Parameters<typeof upload>) => {
      if (first) {
        first = false;
        await new Promise((r) => setTimeout(r, 2100));
        sandbox.options.uploadTtlSeconds = 3600;
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

  it('asks again for an upload URL that has expired, before and after trying it', async () => {
    const sandbox = await startSandbox({ uploadTtlSeconds: 1, scribeSeconds: 0.2 });
    try {
      const first = await recordingWithAddress(sandbox);
      await new Promise((r) => setTimeout(r, 1100));
      // Addresses given from now on live long, so a slow machine cannot see the new one expire
      // too (a 1 s address, signed to the second, may have a few ms left when it is given).
      sandbox.options.uploadTtlSeconds = 3600;
      await first.c.stop();
      // A job left at upload_url with an address that has expired but claims it has not (the
      // clocks disagree): the PUT is refused with 403 and the job asks for a new address.
      const again = await resumedAtUpload(sandbox, first, {
        recordingId: first.id,
        upload: { url: first.url, fileKey: null, expiresAt: Math.floor(Date.now() / 1000) + 3600 },
      });
      await finishesAfterOneRenewal(sandbox, again, first.id, 2);
      await again.stop();
      cores.pop();
      // And one whose expiry has passed by its own word is not even tried.
      const id2 = await makeRecording(again);
      const third = await resumedAtUpload(sandbox, first, {
        recordingId: id2,
        idempotencyKey: 'k-2',
        upload: { url: first.url, fileKey: null, expiresAt: Math.floor(Date.now() / 1000) - 5 },
      });
      await finishesAfterOneRenewal(sandbox, third, id2, 3);
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
      const first = await recordingWithAddress(sandbox);
      const deadUrl = new URL(first.url);
      deadUrl.port = new URL(gone.origin).port;
      await gone.close();
      await first.c.stop();
      const again = await resumedAtUpload(sandbox, first, {
        recordingId: first.id,
        idempotencyKey: 'k-dead',
        upload: { url: deadUrl.href, fileKey: null, expiresAt: Math.floor(Date.now() / 1000) + 3600 },
      });
      await finishesAfterOneRenewal(sandbox, again, first.id, 1);
      expect(sandbox.stats().scribeRequests).toBe(1);
    } finally {
      await sandbox.close();
    }
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
