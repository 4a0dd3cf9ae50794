// The durable record of one recording's way through the service, and the snapshot of it that
// the window sees. One file per recording (<data>/recordings/<id>/job.json), rewritten
// atomically at every step, so a restart resumes exactly where the last run stopped. Members
// added later have defaults, so a job file written by an earlier version still loads: a queued
// job is never dropped over a change of this shape.
import { z } from 'zod';

import { JOB_STATES } from '../../shared/jobs.ts';

export { JOB_STATES, type DocumentInfo, type JobInfo, type JobState } from '../../shared/jobs.ts';

export const jobRecordSchema = z.object({
  version: z.literal(1),
  recordingId: z.string(),
  templateId: z.string(),
  state: z.enum(JOB_STATES),
  /** The step that failed, so a retry by hand starts there. */
  failedAt: z.enum(JOB_STATES).nullable(),
  sessionId: z.string().nullable(),
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
});
export type JobRecord = z.infer<typeof jobRecordSchema>;

