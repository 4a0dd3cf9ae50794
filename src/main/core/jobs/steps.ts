// The published workflow, one function per step. A step makes one call to the service (or the
// PUT to storage), saves what it got, and returns: the runner (runner.ts) owns the waiting, the
// retries and the turns, so a step never sleeps or catches. Each step starts from the saved
// record alone, so a job resumed after a restart takes up the step it was at: an address about
// to expire is asked for again, and the scribe request is sent again (with the same
// Idempotency-Key) only when the outcome of its first send is unknown.
import { sectionsFromCategories, sectionsToText, rtfToSections } from '../../../shared/note/index.ts';
import { scribeStatusKind, type Operation, type ScribeRecord } from '../../../shared/service/index.ts';
import { localDate } from '../recordings/index.ts';
import type { JobsContext } from './context.ts';
import { PATIENT_NAME_REQUIRED } from './errors.ts';
import type { Live } from './live.ts';
import type { JobState } from './record.ts';
import { senderNow, withToken } from './sender.ts';
import { sameFields, type RecordingSessionFields } from './recording-session-asks.ts';
import { askedBefore, createNoted } from './recording-session-create.ts';
import { Refusal } from '../platform/index.ts';

/** Resolves true when the job may go on at once, false when it looks again later (a note not ready yet). */
type Step = (context: JobsContext, live: Live, signal: AbortSignal) => Promise<boolean>;
type ActiveState = Exclude<JobState, 'completed' | 'failed'>;

/**
 * The published workflow: for each state a job can be on its way in, the step that runs, the
 * call it makes (the operation, by its name in the table of src/shared/service/operations.ts),
 * and the state it leaves the job in. A poll that finds the note done saves it
 * (keepNote) and the job is `completed`. Every step but the poll first checks whose sign-in it
 * may use (senderNow): not even the upload, which needs no token, goes on for a consult no one
 * has claimed, or while another account is signed in. The poll checks at its call.
 */
export const STEPS: Readonly<Record<ActiveState, { run: Step; call: Operation; then: JobState }>> = {
  recorded: { run: createRecordingSession, call: 'recording-session-create', then: 'recording_session_created' },
  recording_session_created: { run: askUploadAddress, call: 'upload-url', then: 'upload_url' },
  upload_url: { run: upload, call: 'upload', then: 'uploaded' },
  uploaded: { run: requestScribe, call: 'scribe-request', then: 'scribe_requested' },
  scribe_requested: { run: poll, call: 'scribe-get', then: 'completed' },
};

/**
 * The consult's recording session. A create sent before for the consult whose answer the job has
 * not had (the one asked while recording, still on its way at Stop; or this step's, its answer
 * lost, or the app stopped while it was out) is settled first: its recording session is used when the
 * service made it with the consult's details, and only otherwise is another asked for. So a lost
 * answer never leaves a second recording session.
 */
async function createRecordingSession(context: JobsContext, live: Live, signal: AbortSignal): Promise<boolean> {
  const { options, store } = context;
  const r = live.record;
  senderNow(context, r);
  const { fields, organizationId } = await recordingSessionFields(context, r.recordingId);
  // Still on its way in this process (asked while recording): its answer is waited for. Else
  // one asked before (its answer lost, or the app stopped while it was out) is looked for.
  const early = context.early.outcome(r.recordingId, fields);
  const got =
    (early ? await untilAborted(early, signal) : null) ??
    (await askedBefore(context, r.recordingId, fields, signal).then((id) =>
      id === null ? null : { recordingSessionId: id, upload: null },
    ));
  // The name or description may change until the job has its recording session: one made under the
  // details before is left unused (it is noted as this computer's), and the step runs again.
  const still = async () => sameFields(fields, (await recordingSessionFields(context, r.recordingId)).fields);
  if (got) {
    if (!(await still())) return true;
    await store.save(live, {
      state: got.upload ? 'upload_url' : 'recording_session_created',
      recordingSessionId: got.recordingSessionId,
      upload: got.upload,
    });
    return true;
  }
  const owner = { userId: options.sender(r.recordingId), organizationId };
  const recordingSessionId = await createNoted(context, r.recordingId, fields, owner, signal);
  if (!(await still())) return true;
  await store.save(live, { state: 'recording_session_created', recordingSessionId });
  return true;
}

/** What the consult's recording session is made with, read from its recording now. */
async function recordingSessionFields(
  context: JobsContext,
  recordingId: string,
): Promise<{ fields: RecordingSessionFields; organizationId: string | null }> {
  const meta = await context.options.recordings.get(recordingId);
  if (!meta) throw new Refusal('no_recording', `The recording ${recordingId} is no longer on this computer.`);
  // A job queued before the patient's name was asked for waits for it, saying so.
  const patientName = meta.patientName?.trim();
  if (!patientName) throw new Refusal('patient_name_required', PATIENT_NAME_REQUIRED);
  return {
    fields: { patientName, description: meta.description ?? '', recordingSessionDate: localDate(meta.startedAt) },
    organizationId: meta.owner?.organizationId ?? null,
  };
}

/** A wait the job's cancel cuts short. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason as Error);
    signal.addEventListener('abort', stop, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

async function askUploadAddress(context: JobsContext, live: Live, signal: AbortSignal): Promise<boolean> {
  const r = live.record;
  senderNow(context, r);
  const answer = await withToken(context, r, signal, (t, s) =>
    context.options.client.uploadUrl(t, { recordingSessionId: r.recordingSessionId ?? '' }, s),
  );
  await context.store.save(live, {
    state: 'upload_url',
    upload: {
      url: answer.uploadUrl,
      fileKey: answer.fileKey ?? null,
      expiresAt: answer.expiresAt ?? null,
      issuedAt: context.options.now(),
      ...(answer.headers ? { headers: answer.headers } : {}),
    },
  });
  return true;
}

async function upload(context: JobsContext, live: Live, signal: AbortSignal): Promise<boolean> {
  const { options, store } = context;
  const r = live.record;
  senderNow(context, r);
  const address = r.upload;
  // Ask again for an address about to expire: 30 s ahead, or half its life if shorter.
  const life =
    address?.expiresAt != null && address.issuedAt != null ? address.expiresAt * 1000 - address.issuedAt : Infinity;
  const margin = Math.min(options.uploadUrlMarginMs, life / 2);
  if (!address || (address.expiresAt !== null && address.expiresAt * 1000 - options.now() < margin)) {
    context.counters.uploadUrlRenewals += address ? 1 : 0;
    await store.save(live, { state: 'recording_session_created', upload: null });
    return true;
  }
  // No Content-Type, as `curl -T` sends it: a presigned address may have been signed
  // without one, and a header it did not sign is refused.
  await context.uploads.run(signal, () =>
    options.client.upload(address.url, options.recordings.audioPath(r.recordingId), null, {
      signal,
      headers: address.headers ?? {},
      onProgress: ({ sent, total }) => {
        live.bytesSent = sent;
        live.record.bytesTotal = total;
        store.publish(live, { progressOnly: true });
      },
    }),
  );
  live.bytesSent = live.record.bytesTotal;
  await store.save(live, { state: 'uploaded' });
  return true;
}

async function requestScribe(context: JobsContext, live: Live, signal: AbortSignal): Promise<boolean> {
  const { store, counters } = context;
  const r = live.record;
  senderNow(context, r);
  // A further document goes to the recording session the consult's note was written from.
  const recordingSessionId =
    r.documentId === null ? r.recordingSessionId : (store.jobs.get(r.recordingId)?.record.recordingSessionId ?? null);
  if (recordingSessionId === null)
    throw new Refusal('bad_state', 'This consult has no recording session at the service yet.');
  const answer = await withToken(context, r, signal, async (t, s) => {
    // Noted on disk with a token in hand, just before the request leaves: a send that
    // never happened (signed out) is not taken for one whose answer was lost.
    // A resend keeps the first send's time: the overdue clock runs from the request.
    const resend = live.record.scribeRequestSentAt !== null;
    await store.save(live, {
      recordingSessionId,
      scribeRequestSentAt: live.record.scribeRequestSentAt ?? new Date(context.options.now()).toISOString(),
      scribeRequests: live.record.scribeRequests + 1,
    });
    counters.scribeRequests += 1;
    if (resend) counters.scribeResends += 1;
    return context.options.client.requestScribe(
      t,
      { recordingSessionId, templateId: r.templateId, idempotencyKey: r.idempotencyKey },
      s,
    );
  });
  await store.save(live, { state: 'scribe_requested', scribeId: answer.id, serviceStatus: 'requested' });
  return true;
}

/**
 * One look at the scribe job; true when it has finished one way or the other. With several jobs
 * in flight the status board's list answers first (from the second look on: a first look may
 * find the note, which the job's own answer brings), and the job itself is asked for only when
 * the list shows it finished (or does not show it).
 */
async function poll(context: JobsContext, live: Live, signal: AbortSignal): Promise<boolean> {
  const r = live.record;
  const { polling } = context;
  await polling.prepare(live);
  // The clinic relay said the note is written: one GET /scribe/get, not the list first.
  const announced = polling.announced(live);
  if (!announced && polling.skipLook(live)) return false;
  const listed = !announced && polling.seenWaiting(live) ? ((await polling.board?.look(live, signal)) ?? null) : null;
  const listedKind = listed ? scribeStatusKind(listed.status) : null;
  if (listed && listedKind !== 'completed' && listedKind !== 'failed') {
    polling.notReady(live);
    if (listed.status !== r.serviceStatus) await context.store.save(live, { serviceStatus: listed.status });
    return false;
  }
  context.counters.polls += 1;
  const answer = await withToken(context, r, signal, (t, s) =>
    context.options.client.getScribe(t, r.scribeId ?? '', s),
  );
  const kind = scribeStatusKind(answer.status);
  const relaySaysAt = announced ? polling.looked(live, kind === 'completed' || kind === 'failed') : null;
  if (kind === 'completed') {
    await keepNote(context, live, answer);
    await polling.ready(live, relaySaysAt ?? (listedKind === 'completed' ? (listed?.updatedAt ?? null) : null));
    return true;
  }
  if (kind === 'failed') {
    await context.store.save(live, {
      state: 'failed',
      failedAt: 'scribe_requested',
      serviceStatus: answer.status,
      error: {
        message: answer.error ?? 'The service could not turn this recording into a note.',
        code: null,
        status: null,
      },
    });
    return true;
  }
  polling.notReady(live);
  if (answer.status !== r.serviceStatus) await context.store.save(live, { serviceStatus: answer.status });
  return false;
}

/** The note has come: it is saved with the job, and the consult's note (or document) is announced ready. */
async function keepNote(context: JobsContext, live: Live, answer: ScribeRecord): Promise<void> {
  const { store } = context;
  await store.save(live, {
    state: 'completed',
    serviceStatus: answer.status,
    note: noteText(answer),
    noteRtf: answer.rtf?.trim() ? answer.rtf : null,
    completedAt: new Date(context.options.now()).toISOString(),
  });
  const consult = store.consultOf(live);
  if (live.record.documentId === null) context.emit('noteReady', store.snapshot(live));
  else if (consult) context.emit('documentReady', store.snapshot(consult), store.documentSnapshot(live));
}

/**
 * The note as text: from the service's categories when it gave any, else from its RTF, else
 * its plain note. Sections are written as text the window and the note formats read back.
 */
function noteText(answer: { note?: string; categories?: Record<string, unknown>[]; rtf?: string }): string {
  const fromCategories = answer.categories?.length ? sectionsFromCategories(answer.categories) : [];
  if (fromCategories.length > 0) return sectionsToText(fromCategories);
  const fromRtf = answer.rtf?.trim() ? rtfToSections(answer.rtf) : [];
  if (fromRtf.length > 0) return sectionsToText(fromRtf);
  return answer.note ?? '';
}
