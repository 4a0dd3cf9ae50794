// More documents from one recording (discharge instructions after the SOAP note), against the
// sandbox over real loopback HTTP through a recording proxy: each is one more scribe request for
// the consult's recording session, sent once, in its turn, and kept across a restart.
import { describe, expect, it } from 'vitest';
import { createHandlers } from '../../../../src/main/core/ipc-handlers.ts';
import { MemorySecretStore } from '../../../../src/main/core/sign-in/secret-store.ts';
import type { EventPayloads } from '../../../../src/shared/ipc.ts';
import type { DocumentInfo, JobInfo } from '../../../../src/shared/jobs.ts';
import { localDate } from '../../../../src/main/core/recordings/index.ts';
import { startSandbox } from '../../../../src/sandbox/index.ts';
import { TEMPLATES } from '../../../../src/sandbox/templates.ts';
import { makeRecording, recordThrough, startCoreAgainst, tempDir, waitForJob } from '../../../support/core.ts';
import { startRecordingProxy, type RecordingProxy } from '../../../support/recording-proxy.ts';
import { builtInCores, closedAfterEach } from '../support.ts';

const SOAP = TEMPLATES.find((t) => t.name === 'SOAP')!.public_id;
const DISCHARGE = TEMPLATES.find((t) => t.name === 'Discharge instructions')!.public_id;
const RECHECK = TEMPLATES.find((t) => t.name === 'Recheck / progress')!.public_id;

// What a test started is closed after it, its cores first (after-hooks run last registered first).
const atEnd = closedAfterEach();
const { cores } = builtInCores();

async function world(
  options: { scribeSeconds?: number; dataDir?: string; notify?: (title: string, body: string) => void } = {},
) {
  const s = await startSandbox({ rateLimitPerMinute: 0, scribeSeconds: options.scribeSeconds ?? 0.3 });
  atEnd(() => s.close());
  const proxy = await startRecordingProxy(s);
  atEnd(() => proxy.close());
  const secretStore = new MemorySecretStore();
  const dataDir = options.dataDir ?? tempDir();
  const start = async () => {
    const c = await startCoreAgainst(s, {
      urls: proxy.urls,
      dataDir,
      secretStore,
      pipeline: { pollDelay: () => 100 },
      ...(options.notify ? { notify: options.notify } : {}),
    });
    cores.push(c);
    return c;
  };
  const c = await start();
  await c.session.signIn(s.demo.email, s.demo.password);
  return { s, proxy, c, start };
}

const noteDone = (j: JobInfo) => j.state === 'completed' || j.state === 'failed';
const documentsDone = (n: number) => (j: JobInfo) =>
  j.documents.length === n && j.documents.every((d) => d.state === 'completed' || d.state === 'failed');
const scribeRequests = (proxy: RecordingProxy) =>
  proxy
    .find('POST', '/scribe/request')
    .map((r) => ({ body: r.json as Record<string, unknown>, key: r.headers['idempotency-key'], at: r.at }));

describe('another document from one recording', () => {
  it('sends one more scribe request for the same session with the other template, and gives its own note, files, edit and search', async () => {
    const notified: string[] = [];
    const { c, proxy, s } = await world({ notify: (title, body) => notified.push(`${title}: ${body}`) });
    const handlers = createHandlers(c);
    const ready: EventPayloads['note:ready'][] = [];
    c.on('note:ready', (e) => ready.push(e));
    const id = await makeRecording(c, null, null, { patientName: 'Bella' });
    await c.pipeline.submit(id, SOAP);
    await waitForJob(c, id, noteDone);

    const added = await handlers['consults:addDocument']({
      id,
      templateId: DISCHARGE,
      templateName: 'Discharge instructions',
    });
    expect(added).toMatchObject({
      ok: true,
      data: { job: { documents: [{ name: 'Discharge instructions', templateId: DISCHARGE }] } },
    });
    const job = await waitForJob(c, id, documentsDone(1));
    const doc = job.documents[0]!;
    expect(doc).toMatchObject({ state: 'completed', hasNote: true, error: null, waitingFor: null });

    // The same recording session, another template, another key; the audio is not sent again.
    const requests = scribeRequests(proxy);
    expect(requests).toHaveLength(2);
    expect(requests[1]!.body).toEqual({
      recording_session_public_id: requests[0]!.body['recording_session_public_id'],
      template_public_id: DISCHARGE,
    });
    expect(requests[1]!.key).toEqual(expect.any(String));
    expect(requests[1]!.key).not.toBe(requests[0]!.key);
    expect(proxy.find('PUT', '/storage/')).toHaveLength(1);
    expect(s.stats().scribeRequests).toBe(2);

    // Its own note, written with its template; the consult's note is untouched.
    const docNote = await handlers['consults:note']({ id, documentId: doc.id });
    expect(docNote).toMatchObject({ ok: true, data: { documentName: 'Discharge instructions', editedNote: null } });
    const docText = docNote.ok ? docNote.data.note! : '';
    expect(docText).toContain('This Discharge instructions note for Bella');
    expect(c.pipeline.note(id).note).toContain('This SOAP note for Bella');

    // Files are named by the document.
    const exported = await handlers['consults:export']({ id, documentId: doc.id, format: 'txt' });
    expect(exported).toMatchObject({
      ok: true,
      data: { fileName: `Bella ${localDate(c.cache.consult(id)!.recording.startedAt)} Discharge instructions.txt` },
    });
    const formats = await handlers['consults:noteFormats']({ id, documentId: doc.id });
    expect(formats.ok && formats.data.text).toContain('Discharge instructions note for Bella');

    // Announced once, as the document it is.
    expect(ready.map((e) => e.documentId ?? null)).toEqual([null, doc.id]);
    expect(notified).toEqual([
      'Note ready: Bella — the note is ready to read.',
      'Discharge instructions ready: Bella — Discharge instructions is ready to read.',
    ]);

    // An edit and a draft of the document are its own, not the note's.
    await handlers['consults:saveDraft']({ id, documentId: doc.id, text: 'draft of the discharge' });
    expect(await handlers['consults:draft']({ id })).toEqual({ ok: true, data: null });
    expect(await handlers['consults:draft']({ id, documentId: doc.id })).toMatchObject({
      ok: true,
      data: { text: 'draft of the discharge' },
    });
    expect(
      await handlers['consults:saveNote']({
        id,
        documentId: doc.id,
        text: 'Keep the cone on for 10 days. Zebrafinch.',
      }),
    ).toEqual({ ok: true, data: { saved: true } });
    expect(await handlers['consults:draft']({ id, documentId: doc.id })).toEqual({ ok: true, data: null });
    expect(c.pipeline.note(id).editedNote).toBeNull();
    expect(c.pipeline.info(id)?.documents[0]).toMatchObject({ edited: true });
    // Search reaches the words of the document (the vet's edit of it).
    expect(await handlers['consults:search']({ query: 'zebrafinch' })).toEqual({ ok: true, data: { ids: [id] } });
  });

  it('asked while the note is still being written, waits its turn; a double click makes one; the note’s own template is refused', async () => {
    const { c, proxy, s } = await world({ scribeSeconds: 1.5 });
    const handlers = createHandlers(c);
    const id = await makeRecording(c, null, null, { patientName: 'Bella' });
    await c.pipeline.submit(id, SOAP);
    await waitForJob(c, id, (j) => j.state === 'scribe_requested');

    const [first, second] = await Promise.all([
      handlers['consults:addDocument']({ id, templateId: DISCHARGE, templateName: 'Discharge instructions' }),
      handlers['consults:addDocument']({ id, templateId: DISCHARGE, templateName: 'Discharge instructions' }),
    ]);
    expect(first.ok).toBe(true);
    expect(second).toEqual({
      ok: false,
      error: { code: 'conflict', message: 'This consult already has a document from that template.' },
    });
    expect(await handlers['consults:addDocument']({ id, templateId: SOAP })).toEqual({
      ok: false,
      error: {
        code: 'conflict',
        message: 'The note of this consult is already written with that template; choose another.',
      },
    });
    // A second one behind the first.
    expect(
      (await handlers['consults:addDocument']({ id, templateId: RECHECK, templateName: 'Recheck / progress' })).ok,
    ).toBe(true);

    const waiting = await waitForJob(
      c,
      id,
      (j) => j.documents.length === 2 && j.documents.every((d) => d.waitingFor === 'turn'),
    );
    expect(waiting.state).toBe('scribe_requested');
    expect(scribeRequests(proxy)).toHaveLength(1);

    const job = await waitForJob(c, id, documentsDone(2));
    expect(job.documents.map((d) => [d.name, d.state])).toEqual([
      ['Discharge instructions', 'completed'],
      ['Recheck / progress', 'completed'],
    ]);
    // In turn: each request left only after the one before it was answered with its note.
    const requests = scribeRequests(proxy);
    expect(requests.map((r) => r.body['template_public_id'])).toEqual([SOAP, DISCHARGE, RECHECK]);
    const scribed = (template: string) =>
      proxy
        .find('GET', '/scribe/get/')
        .find(
          (r) =>
            (r.answer as Record<string, unknown>)['template_public_id'] === template &&
            (r.answer as Record<string, unknown>)['status'] === 'scribed',
        )!.at;
    expect(requests[1]!.at).toBeGreaterThanOrEqual(scribed(SOAP));
    expect(requests[2]!.at).toBeGreaterThanOrEqual(scribed(DISCHARGE));
    expect(s.stats().scribeRequests).toBe(3);
    expect(s.stats().scribeReplays).toBe(0);
  });

  it('asked again (after an edit of the note): the same template once more, the one before kept; a double click makes one; a stranger document is refused', async () => {
    const { c, proxy } = await world();
    const handlers = createHandlers(c);
    const id = await makeRecording(c, null, null, { patientName: 'Bella' });
    await c.pipeline.submit(id, SOAP);
    await waitForJob(c, id, noteDone);
    const first = await c.pipeline.addDocument(id, DISCHARGE, 'Discharge instructions');
    await waitForJob(c, id, documentsDone(1));
    await c.pipeline.saveEditedNote(id, 'Carprofen 4 mg/kg once daily.');

    const ask = () =>
      handlers['consults:addDocument']({
        id,
        templateId: DISCHARGE,
        templateName: 'Discharge instructions',
        again: first.id,
      });
    const [one, two] = await Promise.all([ask(), ask()]);
    expect(one.ok && two.ok).toBe(true);
    const job = await waitForJob(c, id, documentsDone(2));
    expect(job.documents.map((d) => [d.id === first.id, d.templateId, d.state, d.hasNote])).toEqual([
      [true, DISCHARGE, 'completed', true],
      [false, DISCHARGE, 'completed', true],
    ]);
    expect(scribeRequests(proxy).map((r) => r.body['template_public_id'])).toEqual([SOAP, DISCHARGE, DISCHARGE]);
    // Asked "again" for a document it is not, or under another template: refused in a sentence.
    expect(await handlers['consults:addDocument']({ id, templateId: RECHECK, again: first.id })).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'That document is not one of this consult’s; open the consult again.' },
    });
    expect((await handlers['consults:addDocument']({ id, templateId: DISCHARGE, again: 'no/such' })).ok).toBe(false);
  });

  it('is kept across a restart and sent once: a document waiting its turn, and one whose request is out', async () => {
    const dataDir = tempDir();
    const { c, proxy, s, start } = await world({ scribeSeconds: 1.2, dataDir });
    const id = await makeRecording(c, null, null, { patientName: 'Bella' });
    await c.pipeline.submit(id, SOAP);
    await waitForJob(c, id, (j) => j.state === 'scribe_requested');
    await c.pipeline.addDocument(id, DISCHARGE, 'Discharge instructions');
    await waitForJob(c, id, (j) => j.documents[0]?.waitingFor === 'turn');
    await c.stop();
    cores.splice(cores.indexOf(c), 1);

    const again = await start();
    const resumed = await waitForJob(again, id, (j) => j.documents[0]?.state === 'scribe_requested');
    expect(resumed.documents[0]).toMatchObject({ name: 'Discharge instructions', templateId: DISCHARGE });
    // Stopped with its request out: the next start polls it, and sends nothing again.
    await again.stop();
    cores.splice(cores.indexOf(again), 1);
    const third = await start();
    const job = await waitForJob(third, id, documentsDone(1));
    expect(job.documents[0]).toMatchObject({ state: 'completed', hasNote: true });
    expect(scribeRequests(proxy).map((r) => r.body['template_public_id'])).toEqual([SOAP, DISCHARGE]);
    expect(s.stats().scribeRequests).toBe(2);
  });

  it('a document the service refuses fails with its words, leaves the note alone and holds up no other; retry and bad input are answered clearly', async () => {
    const { c } = await world();
    const handlers = createHandlers(c);
    const id = await makeRecording(c, null, null, { patientName: 'Bella' });
    await c.pipeline.submit(id, SOAP);
    await waitForJob(c, id, noteDone);

    await handlers['consults:addDocument']({ id, templateId: 'no-such-template', templateName: 'Gone' });
    await handlers['consults:addDocument']({ id, templateId: DISCHARGE, templateName: 'Discharge instructions' });
    const job = await waitForJob(c, id, documentsDone(2));
    const [gone, discharge] = job.documents as [DocumentInfo, DocumentInfo];
    expect(gone).toMatchObject({ state: 'failed', error: { message: 'Template not found.', status: 404 } });
    expect(discharge).toMatchObject({ state: 'completed', hasNote: true });
    expect(job).toMatchObject({ state: 'completed', hasNote: true, error: null });

    // Retry asks again (the service still has no such template, so it fails again, saying so).
    expect((await handlers['consults:retryDocument']({ id, documentId: gone.id })).ok).toBe(true);
    const retried = await waitForJob(
      c,
      id,
      (j) => j.documents[0]?.state === 'failed' && j.documents[0].updatedAt !== gone.updatedAt,
    );
    expect(retried.documents[0]?.error?.message).toBe('Template not found.');
    expect(await handlers['consults:retryDocument']({ id, documentId: discharge.id })).toEqual({
      ok: false,
      error: { code: 'conflict', message: 'This document is already written.' },
    });

    // Bad input: an unknown document, one with characters no id has, and no consult at all.
    expect(await handlers['consults:note']({ id, documentId: 'abc123' })).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'That document is not part of this consult.' },
    });
    expect(await handlers['consults:saveDraft']({ id, documentId: 'abc123', text: 'x' })).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'That document is not part of this consult.' },
    });
    const bad = await handlers['consults:note']({ id, documentId: '../job' });
    expect(bad).toEqual({
      ok: false,
      error: {
        code: 'invalid_input',
        message: 'Invalid input for consults:note: documentId is not a document of a consult.',
      },
    });
    const other = await makeRecording(c, null, null, { patientName: 'Rex' });
    expect(await handlers['consults:addDocument']({ id: other, templateId: DISCHARGE })).toEqual({
      ok: false,
      error: {
        code: 'not_found',
        message: 'That consult has not been sent to be scribed; send it first, then ask for another document.',
      },
    });
  });

  it('another clinic’s vet can neither add nor read a document of the consult', async () => {
    const { c, s } = await world();
    const handlers = createHandlers(c);
    // Recorded through the window's calls by the demo clinic's vet: the consult is theirs.
    const id = await recordThrough(handlers, 'Bella');
    await handlers['consults:submit']({ id, templateId: SOAP });
    await waitForJob(c, id, noteDone);
    const doc = await c.pipeline.addDocument(id, DISCHARGE, 'Discharge instructions');
    await waitForJob(c, id, documentsDone(1));

    await c.session.signOut('user');
    await c.session.signIn('other@vetscribe.test', 'sandbox-other');
    const refused = {
      ok: false,
      error: {
        code: 'not_found',
        message: 'That consult is not on this computer, or it belongs to another clinic’s account.',
      },
    };
    expect(await handlers['consults:note']({ id, documentId: doc.id })).toEqual(refused);
    expect(await handlers['consults:addDocument']({ id, templateId: RECHECK })).toEqual(refused);
    expect(await handlers['consults:retryDocument']({ id, documentId: doc.id })).toEqual(refused);
    expect(s.stats().scribeRequests).toBe(2);
  });

  it('a document not yet written when the service is changed stops, saying so; many waiting at once raise no listener warning', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const { c } = await world({ scribeSeconds: 5 });
      const ids: string[] = [];
      for (let i = 0; i < 12; i += 1) ids.push(await makeRecording(c, null, null, { patientName: `Patient ${i}` }));
      for (const id of ids) await c.pipeline.submit(id, SOAP);
      // One at a time: the test's own waits must not add a listener each either.
      for (const id of ids) await waitForJob(c, id, (j) => j.state === 'scribe_requested');
      for (const id of ids) await c.pipeline.addDocument(id, DISCHARGE, 'Discharge instructions');
      for (const id of ids) await waitForJob(c, id, (j) => j.documents[0]?.waitingFor === 'turn');

      await c.pipeline.restartForNewService();
      for (const id of ids) {
        expect(c.pipeline.info(id)?.documents[0]).toMatchObject({
          state: 'failed',
          error: {
            code: 'service_changed',
            message:
              'The app now uses another service, which does not have this request; Try again asks it for this document.',
          },
        });
      }
      await new Promise((r) => setImmediate(r));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});
