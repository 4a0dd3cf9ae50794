// What the pipeline's progress tells the window and the desktop: a consult's changes, a note or
// document ready, a note overdue. Each goes only to the account the consult belongs to. A note
// ready while no one who may see it is signed in (in the seconds between one vet's sign-out and
// the next one's sign-in, at a Switch user) is told to the next account that may see it, when it
// signs in: it is not lost for being ready at the wrong moment.
import type { RecordingInfo } from '../../../shared/ipc.ts';
import type { DocumentInfo, JobInfo } from '../../../shared/jobs.ts';
import type { ConsultGate } from './gate.ts';
import type { Pipeline } from '../jobs/index.ts';
import type { Session } from '../sign-in/index.ts';
import type { Emit } from '../platform/index.ts';
import type { ConsultCache } from './cache.ts';
import type { ConsultOutbox } from './outbox.ts';
import { consultInfo } from './stage.ts';

/** How a consult is called in notifications: its patient, else its label, else its time. */
function consultName(recording: RecordingInfo): string {
  if (recording.patientName) return recording.patientName;
  if (recording.label) return recording.label;
  return `The consult at ${new Date(recording.startedAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}`;
}

export interface AnnouncementOptions {
  pipeline: Pipeline;
  cache: ConsultCache;
  gate: ConsultGate;
  emit: Emit;
  /** A consult's progress goes to the window through the outbox, as every consult's change does. */
  outbox: Pick<ConsultOutbox, 'changed'>;
  session: Pick<Session, 'on'>;
  /** A desktop notification, where the platform has them. */
  notify: ((title: string, body: string, consultId?: string) => void) | undefined;
}

/** Notes ready kept to be told at the next sign-in that may see them. */
const UNTOLD_KEPT = 20;

/** Subscribes to the pipeline's events for as long as it lives. */
export function announceConsults({ pipeline, cache, gate, emit, outbox, session, notify }: AnnouncementOptions): void {
  /** Notes ready that no one was told of yet, by consult, the oldest first. */
  const untold = new Map<string, { job: JobInfo; document?: DocumentInfo }>();
  const announceNote = (recording: RecordingInfo, job: JobInfo, document?: DocumentInfo) => {
    if (!gate.allows(recording.id)) {
      untold.delete(recording.id);
      untold.set(recording.id, document ? { job, document } : { job });
      // Kept for a few, not for ever: the list says the rest.
      for (const id of untold.keys()) if (untold.size > UNTOLD_KEPT) untold.delete(id);
      return;
    }
    untold.delete(recording.id);
    if (document) {
      emit('note:ready', { ...consultInfo(recording, job), documentId: document.id });
      notify?.(
        `${document.name ?? 'Document'} ready`,
        `${consultName(recording)} — ${document.name ?? 'another document'} is ready to read.`,
        recording.id,
      );
      return;
    }
    emit('note:ready', consultInfo(recording, job));
    notify?.('Note ready', `${consultName(recording)} — the note is ready to read.`, recording.id);
  };

  pipeline.on('job', (job) => outbox.changed(job.recordingId, job));
  session.on('changed', (state) => {
    if (!state.signedIn) return;
    for (const [id, { job, document }] of [...untold])
      if (gate.allows(id))
        cache.withRecording(id, (recording) => announceNote(recording, pipeline.info(id) ?? job, document));
  });
  pipeline.on('removed', (id) => untold.delete(id));
  pipeline.on('noteReady', (job) => cache.withRecording(job.recordingId, (recording) => announceNote(recording, job)));
  pipeline.on('documentReady', (job, document) =>
    cache.withRecording(job.recordingId, (recording) => announceNote(recording, job, document)),
  );
  pipeline.on('overdue', (job) =>
    cache.withRecording(job.recordingId, (recording) => {
      // A desktop notification names the patient: only for the account signed in, if theirs.
      if (gate.allows(recording.id))
        notify?.(
          'Note taking longer than usual',
          `${consultName(recording)}: the service has not finished the note yet. Open it to ask again.`,
          recording.id,
        );
    }),
  );
}
