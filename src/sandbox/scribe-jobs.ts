// The asynchronous scribe job (rows 8 and 9). Status is derived from the clock and the job's
// timestamps, so it moves queued -> processing -> completed | failed on its own and carries
// on across a restart. The outcome is decided when the job is created, from the uploaded file:
// an empty file or one that is not audio fails, as a real speech pipeline's would.
import { randomUUID } from 'node:crypto';
import { ApiError } from './http.ts';
import { buildNote } from './note.ts';
import { findTemplate } from './templates.ts';
import type { ScribeRecord, StateStore } from './state.ts';
import { sniffAudio, wavDurationSeconds, webmDurationSeconds, type Uploads } from './uploads.ts';

export type ScribeStatus = 'queued' | 'processing' | 'completed' | 'failed';

export function scribeStatus(record: ScribeRecord, now = Date.now()): ScribeStatus {
  if (now < record.processing_at) return 'queued';
  if (now < record.finish_at) return 'processing';
  return record.outcome;
}

export class ScribeJobs {
  private readonly store: StateStore;
  private readonly uploads: Uploads;
  private readonly scribeSeconds: number;
  constructor(store: StateStore, uploads: Uploads, scribeSeconds: number) {
    this.store = store;
    this.uploads = uploads;
    this.scribeSeconds = scribeSeconds;
  }

  create(input: { sessionId: string; templateId: string; fileKey: string; organizationId: string; idempotencyKey: string | null }): { record: ScribeRecord; created: boolean } {
    const state = this.store.state;
    if (input.idempotencyKey) {
      const earlier = Object.values(state.scribes).find(
        (s) => s.idempotency_key === input.idempotencyKey && s.organization_id === input.organizationId,
      );
      if (earlier) {
        if (earlier.file_key !== input.fileKey || earlier.template_public_id !== input.templateId) {
          throw new ApiError(422, 'idempotency_key_reused', 'This Idempotency-Key was used for another scribe request.');
        }
        return { record: earlier, created: false };
      }
    }
    const session = state.sessions[input.sessionId];
    if (!session || session.organization_id !== input.organizationId) {
      throw new ApiError(404, 'not_found', `No recording session ${input.sessionId}.`);
    }
    const template = findTemplate(input.templateId);
    if (!template) throw new ApiError(404, 'not_found', `No template ${input.templateId}.`);
    const upload = state.uploads[input.fileKey];
    if (!upload || upload.recording_session_public_id !== input.sessionId) {
      throw new ApiError(404, 'not_found', `No file ${input.fileKey} in recording session ${input.sessionId}.`);
    }
    if (!upload.uploaded) {
      throw new ApiError(409, 'file_not_uploaded', `The file ${input.fileKey} has not been uploaded yet; PUT it to its upload URL first.`);
    }
    const now = Date.now();
    const totalMs = this.scribeSeconds * 1000;
    const record: ScribeRecord = {
      public_id: randomUUID(),
      recording_session_public_id: input.sessionId,
      template_public_id: input.templateId,
      file_key: input.fileKey,
      organization_id: input.organizationId,
      idempotency_key: input.idempotencyKey,
      created_at: new Date(now).toISOString(),
      processing_at: now + Math.min(1000, totalMs * 0.2),
      finish_at: now + totalMs,
      outcome: 'completed',
      note: null,
      error: null,
      announced: false,
    };
    const { size } = upload.uploaded;
    // 4 KiB holds a WebM's Segment Info (with its Duration) ahead of the cues and clusters.
    const head = size > 0 ? this.uploads.head(input.fileKey, 4096) : Buffer.alloc(0);
    const format = sniffAudio(head);
    if (size === 0) {
      record.outcome = 'failed';
      record.error = 'The recording is empty (0 bytes); there is nothing to transcribe.';
    } else if (!format) {
      record.outcome = 'failed';
      record.error = `The uploaded file is not audio the service can read (${upload.content_type}); expected WebM, Ogg, WAV, MP3, M4A or FLAC.`;
    } else {
      record.note = buildNote(template, {
        recordedAt: upload.uploaded.at,
        durationSeconds: format === 'wav' ? wavDurationSeconds(head, size) : format === 'webm' ? webmDurationSeconds(head) : undefined,
        sizeBytes: size,
        contentType: upload.content_type,
        fileName: upload.file_name,
        sessionName: session.name ?? undefined,
      });
    }
    state.scribes[record.public_id] = record;
    this.store.save();
    return { record, created: true };
  }

  /** Jobs that have finished since they were last looked at, for the webhook sender. */
  finishedUnannounced(now = Date.now()): ScribeRecord[] {
    return Object.values(this.store.state.scribes).filter((s) => !s.announced && s.finish_at <= now);
  }
}
