// The asynchronous scribe job (`POST /scribe/request`, `GET /scribe/get/{id}`). Status is derived from the clock and the job's
// timestamps, so it moves requested -> scribing -> scribed on its own (the published words,
// docs/service.md) and carries on across a restart. The outcome is decided when the job is created,
// from the recording session's uploaded file: an empty file or one that is not audio fails, as a real
// speech pipeline's would (the service publishes no failure status; the sandbox says `failed`).
import { randomUUID } from 'node:crypto';
import { ApiError, invalid } from './http.ts';
import { buildNote } from './note.ts';
import { findTemplate } from './templates.ts';
import type { ScribeRecord, StateStore } from './state.ts';
import { sniffAudio, type Uploads } from './uploads.ts';

export type ScribeStatus = 'requested' | 'scribing' | 'scribed' | 'failed';

/** A stalled job's end: never, in a form JSON keeps (Infinity would not survive a restart). */
const NEVER = Number.MAX_SAFE_INTEGER;

export function scribeStatus(record: ScribeRecord, now = Date.now()): ScribeStatus {
  if (now < record.processing_at) return 'requested';
  if (now < record.finish_at) return 'scribing';
  return record.outcome;
}

export class ScribeJobs {
  private readonly store: StateStore;
  private readonly uploads: Uploads;
  private readonly scribeSeconds: number;
  private readonly stall: boolean;
  constructor(store: StateStore, uploads: Uploads, scribeSeconds: number, stall = false) {
    this.store = store;
    this.uploads = uploads;
    this.scribeSeconds = scribeSeconds;
    this.stall = stall;
  }

  create(input: {
    recordingSessionId: string;
    templateId: string;
    organizationId: string;
    idempotencyKey: string | null;
  }): {
    record: ScribeRecord;
    created: boolean;
  } {
    const state = this.store.state;
    if (input.idempotencyKey) {
      const earlier = Object.values(state.scribes).find(
        (s) => s.idempotency_key === input.idempotencyKey && s.organization_id === input.organizationId,
      );
      if (earlier) {
        if (
          earlier.recording_session_public_id !== input.recordingSessionId ||
          earlier.template_public_id !== input.templateId
        ) {
          throw invalid(
            [
              {
                loc: ['header', 'idempotency-key'],
                msg: 'This key was used for another scribe request',
                type: 'idempotency_key_reused',
              },
            ],
            'idempotency_key_reused',
          );
        }
        return { record: earlier, created: false };
      }
    }
    const recordingSession = state.recording_sessions[input.recordingSessionId];
    if (!recordingSession || recordingSession.organization_id !== input.organizationId) {
      throw new ApiError(404, 'not_found', 'Recording session not found.');
    }
    const template = findTemplate(input.templateId);
    if (!template) throw new ApiError(404, 'not_found', 'Template not found.');
    const fileKey = recordingSession.last_upload_key;
    const upload = fileKey ? state.uploads[fileKey] : undefined;
    if (!fileKey || !upload?.uploaded) {
      throw new ApiError(
        409,
        'file_not_uploaded',
        'No audio has been uploaded to this recording session yet; PUT it to its upload URL first.',
      );
    }
    const now = Date.now();
    const totalMs = this.scribeSeconds * 1000;
    const record: ScribeRecord = {
      public_id: randomUUID(),
      recording_session_public_id: input.recordingSessionId,
      template_public_id: input.templateId,
      file_key: fileKey,
      organization_id: input.organizationId,
      idempotency_key: input.idempotencyKey,
      created_at: new Date(now).toISOString(),
      processing_at: now + Math.min(1000, totalMs * 0.2),
      finish_at: this.stall ? NEVER : now + totalMs,
      outcome: 'scribed',
      categories: null,
      error: null,
      announced: [],
    };
    const { size } = upload.uploaded;
    const head = size > 0 ? this.uploads.head(fileKey, 64) : Buffer.alloc(0);
    if (size === 0) {
      record.outcome = 'failed';
      record.error = 'The recording is empty (0 bytes); there is nothing to transcribe.';
    } else if (!sniffAudio(head)) {
      record.outcome = 'failed';
      record.error =
        'The uploaded file is not audio the service can read; expected .flac .mp3 .mp4 .mpeg .mpga .m4a .ogg .wav or .webm.';
    } else {
      record.categories = buildNote(template, {
        patientName: recordingSession.patient_name,
        description: recordingSession.description,
      });
    }
    state.scribes[record.public_id] = record;
    this.store.save();
    return { record, created: true };
  }

  /** Each job's status not yet announced to the webhook sender, in order (three per scribe). */
  unannounced(now = Date.now()): { job: ScribeRecord; status: ScribeStatus }[] {
    const out: { job: ScribeRecord; status: ScribeStatus }[] = [];
    for (const job of Object.values(this.store.state.scribes)) {
      // A record saved by an earlier version has a boolean here: all of it was announced.
      if (!Array.isArray(job.announced)) job.announced = ['requested', 'scribing', 'scribed', 'failed'];
      const current = scribeStatus(job, now);
      const steps: ScribeStatus[] = [
        'requested',
        ...(current === 'requested' ? [] : ['scribing' as const]),
        ...(current === 'scribed' || current === 'failed' ? [current] : []),
      ];
      for (const status of steps) if (!job.announced.includes(status)) out.push({ job, status });
    }
    return out;
  }
}
