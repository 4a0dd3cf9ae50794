// Job files written by an earlier version (src/main/core/jobs/record.ts reads them through one
// schema whose later members have defaults): each loads, none is dropped, and a queued one goes
// on. The real engine and its embedded sandbox over loopback HTTP.
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHandlers } from '../../../../src/main/core/ipc-handlers.ts';
import { PATIENT_NAME_REQUIRED } from '../../../../src/main/core/jobs/pipeline.ts';
import { writeJsonAtomic } from '../../../../src/main/core/platform/atomic-file.ts';
import { firstTemplateId, makeRecording, tempDir, waitForJob } from '../../../support/core.ts';
import { builtInCores } from '../support.ts';
import { done, jobRecord } from './support.ts';

const { core, signedIn, cores } = builtInCores();

/** A job file as the version before wrote it: no noteRtf, documents or actor, a fixed key and time. */
const oldJob = (fields: Parameters<typeof jobRecord>[0]) =>
  jobRecord({
    idempotencyKey: 'b1946ac9-2f1c-4c5e-9a3c-6f1e1f3b0001',
    createdAt: '2026-11-20T09:00:00.000Z',
    updatedAt: '2026-11-20T09:00:00.000Z',
    ...fields,
  });

describe('files written by the version before', () => {
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
    await writeJsonAtomic(join(folder(queued), 'job.json'), oldJob({ recordingId: queued, templateId: template }));
    await writeJsonAtomic(
      join(folder(done_), 'job.json'),
      oldJob({
        recordingId: done_,
        templateId: template,
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
});
