// What the jobs' tests build again and again: a job file written by hand (as a crash, a restart or
// an earlier version leaves one) and where it lies.
import { dirname, join } from 'node:path';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import type { JobInfo } from '../../../../src/shared/jobs.ts';

/**
 * A job file with the members every version writes (those added since take their defaults when
 * it is read): a job at `recorded` with nothing sent yet, unless `fields` says otherwise.
 */
export function jobRecord(fields: { recordingId: string; templateId: string } & Record<string, unknown>) {
  const now = new Date().toISOString();
  return {
    version: 1,
    state: 'recorded',
    failedAt: null,
    recordingSessionId: null,
    upload: null,
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
    ...fields,
  };
}

/** Where a recording's job is kept: `job.json` beside its audio. */
export const jobFile = (c: AppCore, id: string) => join(dirname(c.recordings.audioPath(id)), 'job.json');

/** A job that has stopped, well or badly. */
export const done = (j: JobInfo) => j.state === 'completed' || j.state === 'failed';
