// The durable record of one recording's way through the service. One file per recording
// (<data>/recordings/<id>/job.json; a further document's in <id>/documents/<doc>.json), rewritten
// atomically at every step, so a restart resumes exactly where the last run stopped. Members
// added later have defaults, so a job file written by an earlier version still loads: a queued
// job is never dropped over a change of this shape; a member or state renamed since is read
// under its old name too.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';

import { JOB_STATES, type JobState } from '../../../shared/jobs.ts';
import { isRecord } from '../../../shared/service/envelope.ts';
import { valueNow, withNamesNow } from '../../../shared/renamed.ts';

export { JOB_STATES, type DocumentInfo, type JobInfo, type JobState } from '../../../shared/jobs.ts';

/** Members a job file written by an earlier version named otherwise: old name -> name now. */
export const JOB_MEMBERS_RENAMED = { sessionId: 'recordingSessionId' } as const;
/** States an earlier version wrote under another name. */
export const JOB_STATES_RENAMED = { session_created: 'recording_session_created' } as const;

/** A job file as written by any version, under today's names. */
function jobNow(raw: unknown): unknown {
  const now = withNamesNow(raw, JOB_MEMBERS_RENAMED);
  if (!isRecord(now)) return now;
  return {
    ...now,
    state: valueNow(now['state'], JOB_STATES_RENAMED),
    failedAt: valueNow(now['failedAt'], JOB_STATES_RENAMED),
  };
}

const jobShape = z.object({
  version: z.literal(1),
  recordingId: z.string(),
  templateId: z.string(),
  state: z.enum(JOB_STATES),
  /** The step that failed, so a retry by hand starts there. */
  failedAt: z.enum(JOB_STATES).nullable(),
  recordingSessionId: z.string().nullable(),
  upload: z
    .object({
      url: z.string(),
      fileKey: z.string().nullable(),
      expiresAt: z.number().nullable(),
      issuedAt: z.number().optional(),
      headers: z.record(z.string(), z.string()).optional(),
    })
    .nullable(),
  /** Same for every send of this job's scribe request, so a repeat is recognised as one. */
  idempotencyKey: z.string(),
  /** Set before the scribe request leaves: if we crash before its answer, we re-send only with the same key. */
  scribeRequestSentAt: z.string().nullable(),
  scribeRequests: z.number().int().nonnegative(),
  scribeId: z.string().nullable(),
  serviceStatus: z.string().nullable(),
  /** The note as text, read from the service's categories, else its RTF, else its plain note. */
  note: z.string().nullable(),
  /** The service's own RTF of the note (`rtf_output`), kept as it came for copy and export. */
  noteRtf: z.string().nullable().default(null),
  editedNote: z.string().nullable(),
  error: z.object({ message: z.string(), code: z.string().nullable(), status: z.number().nullable() }).nullable(),
  bytesTotal: z.number().nonnegative(),
  createdAt: z.string(),
  updatedAt: z.string(),
  completedAt: z.string().nullable(),
  audioDeletedAt: z.string().nullable(),
  /**
   * The account whose consult this is: it is sent with that account's sign-in only, and waits
   * while another account is signed in. Null for jobs made before accounts were recorded.
   */
  ownerUserId: z.string().nullable().default(null),
  /**
   * Set for one more document of the consult (<recording>/documents/<id>.json): a scribe request
   * of its own, with its own key and note, for the recording session of the consult's job.
   */
  documentId: z.string().nullable().default(null),
  /** A document's name as the vet chose it (its template's name then), for its tab and its files. */
  documentName: z.string().nullable().default(null),
  /**
   * The vet who asked for this scribe request when it is not the consult's own: one more
   * document, a document asked for again, or "Ask again" for the note. It goes with that vet's
   * sign-in only (in front, or theirs kept in the background), waits for them otherwise, and keeps
   * no one else's background sign-in alive. Null for the consult's own request, and in files
   * written before it was kept: the consult's owner sends it, as then.
   */
  actor: z
    .object({
      userId: z.string(),
      organizationId: z.string(),
      name: z.string(),
      email: z.string(),
      service: z.string(),
    })
    .nullable()
    .default(null),
});
export const jobRecordSchema = z.preprocess(jobNow, jobShape);
export type JobRecord = z.infer<typeof jobShape>;

/** A job that has stopped, well or badly: nothing runs for it until a command starts it again. */
export const TERMINAL: ReadonlySet<JobState> = new Set(['completed', 'failed']);

/** A scribe request not yet sent, with its own key: what a new consult's job and a new document start from. */
export function unsent(now: string) {
  return {
    failedAt: null,
    recordingSessionId: null,
    upload: null,
    idempotencyKey: randomUUID(),
    scribeRequestSentAt: null,
    scribeRequests: 0,
    scribeId: null,
    serviceStatus: null,
    note: null,
    noteRtf: null,
    editedNote: null,
    error: null,
    createdAt: now,
    updatedAt: now,
    completedAt: null,
    audioDeletedAt: null,
  } satisfies Partial<JobRecord>;
}

/**
 * What makes the next POST /scribe/request a new request rather than a repeat of the last: a new
 * Idempotency-Key, and nothing left of the last one's send or answer. Retry, Ask again, a
 * document asked for again and a change of service all start from it.
 */
export function newScribeRequest() {
  return {
    idempotencyKey: randomUUID(),
    scribeRequestSentAt: null,
    scribeId: null,
    serviceStatus: null,
  } satisfies Partial<JobRecord>;
}
