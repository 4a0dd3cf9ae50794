// What the vet (or the app) asks of a consult's job: send it, retry it, ask again for a late
// note, edit its note, delete the consult, and start every job again for a new service.
import { rm, stat } from 'node:fs/promises';

import type { JobsContext } from './context.ts';
import type { Asked } from './documents.ts';
import { PATIENT_NAME_REQUIRED } from './errors.ts';
import { cancel, newLive } from './live.ts';
import { newScribeRequest, TERMINAL, unsent, type JobInfo, type JobRecord } from './record.ts';
import { formatMinutes } from './runner.ts';
import { Refusal } from '../platform/index.ts';

const DOCUMENT_OF_OLD_SERVICE =
  'The app now uses another service, which does not have this request; Try again asks it for this document.';

/**
 * Sends a finished recording to be scribed with a template. Asking again for a job that is
 * already under way joins it; one that finished is answered as it is. The job is on disk before
 * `noted` is told (the consult's trail says "sent" there) and before anything of it starts: a
 * kill at any point leaves either no job and no "sent", or a job the next start sends. When
 * `noted` fails, the job is taken back and nothing is sent.
 */
export function submit(
  context: JobsContext,
  recordingId: string,
  templateId: string,
  noted?: () => Promise<unknown>,
): Promise<JobInfo> {
  const existing = context.store.jobs.get(recordingId);
  if (existing) return Promise.resolve(context.store.snapshot(existing));
  // Two submits at once (a double click, two windows) make one job.
  let pending = context.submitting.get(recordingId);
  if (!pending) {
    pending = createJob(context, recordingId, templateId, noted).finally(() => context.submitting.delete(recordingId));
    context.submitting.set(recordingId, pending);
  }
  return pending;
}

async function createJob(
  context: JobsContext,
  recordingId: string,
  templateId: string,
  noted?: () => Promise<unknown>,
): Promise<JobInfo> {
  const { options, store } = context;
  const meta = await options.recordings.get(recordingId);
  if (!meta) throw new Refusal('no_recording', 'That recording is not on this computer.');
  if (meta.state === 'recording' || meta.state === 'paused') {
    throw new Refusal('bad_state', 'This recording is still going; stop it before sending it to be scribed.');
  }
  if (!meta.patientName?.trim()) throw new Refusal('invalid_input', PATIENT_NAME_REQUIRED);
  const { size } = await stat(options.recordings.audioPath(recordingId));
  // A recording session (and address) made while recording, when it still fits: the job starts further on.
  // One still being made is the job's to wait for, in the background: Stop never waits on the network.
  const made = context.early.take(meta);
  const now = new Date(options.now()).toISOString();
  // The consult goes with the sign-in of the account that recorded it; one recorded with no one
  // signed in waits until a vet claims it (AppCore.claim): sending it is never a claim.
  const record: JobRecord = {
    version: 1,
    recordingId,
    templateId,
    state: made ? (made.upload ? 'upload_url' : 'recording_session_created') : 'recorded',
    ...unsent(now),
    ...(made ? { recordingSessionId: made.recordingSessionId, upload: made.upload } : {}),
    bytesTotal: size,
    // Kept for older versions of the app; whose the consult is, is read from its meta.
    ownerUserId: options.sender(recordingId),
    documentId: null,
    documentName: null,
    actor: null,
  };
  const live = newLive(record);
  await store.write(live);
  if (noted) {
    try {
      await noted();
    } catch (e) {
      await rm(store.path(recordingId), { force: true }).catch(() => undefined);
      throw e;
    }
  }
  store.jobs.set(recordingId, live);
  store.publish(live);
  context.runner.kick(recordingId);
  return store.snapshot(live);
}

/**
 * A failed job starts again at the step that failed. It goes with its owner's sign-in, as the
 * consult was sent, even after a colleague's Ask again.
 */
export async function retry(
  context: JobsContext,
  recordingId: string,
  templateId?: string,
  asked: Asked = {},
): Promise<JobInfo> {
  const { store } = context;
  const live = store.jobs.get(recordingId);
  if (!live) throw new Refusal('not_found', 'That consult has not been sent to be scribed.');
  if (live.record.state !== 'failed') {
    // Not failed: a retry wakes a job that is waiting out a backoff.
    context.waits.wake(live);
    return store.snapshot(live);
  }
  const from = live.record.failedAt ?? 'recorded';
  await asked.noted?.(null);
  // A job the service itself failed is asked for again, which is a new request.
  const fresh = from === 'scribe_requested';
  // An upload address that was refused is not tried again: a new one is asked for.
  const newAddress = from === 'upload_url';
  await store.save(live, {
    state: fresh ? 'uploaded' : newAddress ? 'recording_session_created' : from,
    ...(newAddress ? { upload: null } : {}),
    failedAt: null,
    error: null,
    templateId: templateId ?? live.record.templateId,
    ...(fresh ? newScribeRequest() : {}),
    // The vet who pressed Retry (a colleague, on a sent consult of their clinic) sends it with
    // their own sign-in; none given (the name arrived, a change of service): its owner's.
    actor: asked.actor ?? null,
  });
  live.overdueAnnounced = false;
  context.runner.kick(recordingId);
  return store.snapshot(live);
}

/**
 * "Ask again" for a note that is overdue (or that the service failed): a new scribe request
 * for the same recording session, under a new key (it is a new request, not a repeat), with
 * the overdue clock started again. Any other job is refused: it is not late. The new request is
 * the work of the vet who asks (a colleague, on a consult of their clinic): it goes with their
 * sign-in, kept in the job file so a restart keeps it.
 */
export async function askAgain(context: JobsContext, recordingId: string, asked: Asked = {}): Promise<JobInfo> {
  const { store, options } = context;
  const live = store.jobs.get(recordingId);
  if (!live) throw new Refusal('not_found', 'That consult has not been sent to be scribed.');
  const r = live.record;
  const failedAtScribe = r.state === 'failed' && r.failedAt === 'scribe_requested';
  if (!failedAtScribe && store.msUntilOverdue(r) !== 0) {
    const why =
      r.state === 'scribe_requested'
        ? `The service has had this consult for less than ${formatMinutes(options.overdueMinutes())}; Ask again is for a note that is late.`
        : r.state === 'completed'
          ? 'This consult already has its note.'
          : r.state === 'failed'
            ? 'This consult stopped before it reached the service; use Retry instead.'
            : 'This consult is still on its way to the service; Ask again is for a note that is late.';
    throw new Refusal('conflict', why);
  }
  await asked.noted?.(null);
  await cancel(live);
  live.overdueAnnounced = false;
  await store.save(live, {
    state: 'uploaded',
    failedAt: null,
    error: null,
    ...newScribeRequest(),
    actor: asked.actor ?? null,
  });
  options.log?.(`pipeline: ${recordingId}: asked again for the note of the same recording session`);
  context.runner.kick(recordingId);
  return store.snapshot(live);
}

/** The vet's own edit of the note, kept beside the service's text. null = back to the original. */
export async function saveEditedNote(
  context: JobsContext,
  recordingId: string,
  text: string | null,
  documentId: string | null,
): Promise<void> {
  const live = context.store.find(recordingId, documentId);
  if (live.record.note === null) throw new Refusal('not_found', 'There is no note to edit for this recording yet.');
  await context.store.save(live, { editedNote: text });
}

/**
 * Deletes the consult: its jobs stop, then its folder goes, then `alsoRemove` (its drafts).
 * In the consult's turn: it waits for another document being added, which then finds no consult.
 */
export function deleteConsult(
  context: JobsContext,
  recordingId: string,
  alsoRemove?: () => Promise<void>,
): Promise<void> {
  const { store } = context;
  return context.turns.run(recordingId, async () => {
    for (const live of store.consultAndDocuments(recordingId)) await cancel(live);
    store.jobs.delete(recordingId);
    store.documents.delete(recordingId);
    await context.options.recordings.delete(recordingId);
    await alsoRemove?.();
    context.emit('removed', recordingId);
  });
}

/**
 * The app now talks to another service (Settings): the recording session, upload address and scribe
 * record a job holds belong to the old one and mean nothing to the new. Every job without its
 * note starts again from its recording, under a new key (a request to another service is no
 * second request); a failed one waits for Retry as before, from the start. Notes stay, and so
 * do owners: a consult keeps the owner it was recorded by and waits for that vet (or a vet's
 * claim) on the new service, never sent under whoever signs in first.
 *
 * Each consult in its turn; one deleted meanwhile is passed over, and one whose job cannot be
 * written is named in the answer rather than stopping the others.
 */
export async function restartForNewService(
  context: JobsContext,
): Promise<{ restarted: number; failed: { recordingId: string; message: string }[] }> {
  let restarted = 0;
  const failed: { recordingId: string; message: string }[] = [];
  const ids = new Set([...context.store.jobs.keys(), ...context.store.documents.keys()]);
  for (const id of ids) {
    try {
      if (await context.turns.run(id, () => restartOne(context, id))) restarted += 1;
    } catch (e) {
      context.options.log?.(`pipeline: ${id}: could not be made ready for the new service: ${(e as Error).message}`);
      failed.push({ recordingId: id, message: (e as Error).message });
    }
  }
  return { restarted, failed };
}

async function restartOne(context: JobsContext, id: string): Promise<boolean> {
  const { store } = context;
  // A document asked of the old service cannot be finished by the new one: it stops, saying so,
  // and the vet asks the new service for it (Try again) once the consult's note is there.
  for (const live of store.documents.get(id) ?? []) {
    if (TERMINAL.has(live.record.state)) continue;
    await cancel(live);
    if (store.documents.get(id)?.includes(live)) {
      const error = { message: DOCUMENT_OF_OLD_SERVICE, code: 'service_changed', status: null };
      await store.save(live, { state: 'failed', failedAt: 'scribe_requested', error });
    }
  }
  const live = store.jobs.get(id);
  if (!live) return false;
  const r = live.record;
  if (r.state === 'completed') return false;
  await cancel(live);
  if (store.jobs.get(id) !== live) return false;
  if (r.state === 'recorded' && r.recordingSessionId === null) {
    context.runner.kick(id);
    return false;
  }
  // Started again from its recording, the consult is its owner's again, whoever asked again before.
  const fresh = { recordingSessionId: null, upload: null, ...newScribeRequest(), actor: null } as const;
  if (r.state === 'failed') await store.save(live, { ...fresh, failedAt: 'recorded' });
  else await store.save(live, { ...fresh, state: 'recorded' });
  live.bytesSent = 0;
  live.overdueAnnounced = false;
  context.runner.kick(id);
  return true;
}
