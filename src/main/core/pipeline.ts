// The upload -> scribe -> poll pipeline: one durable job per recording, a job manager in the
// style of a task manager. Each step is idempotent on resume: an expired upload URL is asked
// for again; the scribe request is sent once, and sent again (with the same Idempotency-Key)
// only when the outcome of the first send is unknown (its answer was lost, or the app died
// while it was in flight). Passing faults are retried with capped exponential backoff and
// full jitter, honouring Retry-After; a 401 refreshes once (Session.withToken); a signed-out
// session parks the job until the next sign-in; any other refusal stops the job with the
// service's own message and keeps the audio for a retry by hand.
//
// No failure status is published for a scribe job: one unfinished for longer than the app waits
// (Settings, 30 min by default) is marked overdue, announced once, and polled slowly; the vet
// may then ask again, which sends a new scribe request for the same recording session.
//
// A consult may give more documents than its note (discharge instructions after the SOAP note):
// each is one more scribe request for the same recording session, a job of its own that starts
// at `uploaded` (<recording>/documents/<id>.json). It waits its turn (until the note and every
// document asked for before it are done), then is sent exactly as the first, with its own key.
import { OVERDUE_CHECK_MINUTES } from '../../shared/published-service.ts';
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sectionsFromCategories, sectionsToText, rtfToSections } from '../../shared/note/index.ts';
import type { ConsultOwner } from '../../shared/ipc.ts';
import { scribeStatusKind, type User } from '../../shared/service/index.ts';
import { writeJsonAtomic, readJson } from './atomic-file.ts';
import { backoffDelay, DEFAULT_BACKOFF, pollDelay as defaultPollDelay, type BackoffOptions } from './backoff.ts';
import { jobRecordSchema, type DocumentInfo, type JobInfo, type JobRecord, type JobState } from './jobs.ts';
import pLimit from 'p-limit';
import { KeyedQueue } from './keyed-queue.ts';
import { localDate, READ_AT_ONCE, type RecordingMeta, type RecordingStore } from './recordings.ts';
import type { ServiceClient } from './service-client.ts';
import { isNetworkSetupFailure, ServiceError } from './service-errors.ts';
import { SignedOutError, type Session, type SessionState } from './session.ts';

export interface PipelineOptions {
  recordings: RecordingStore;
  session: Session;
  client: ServiceClient;
  backoff?: BackoffOptions;
  pollDelay?: (pollsSoFar: number) => number;
  maxConcurrentUploads?: number;
  /** Progress snapshots of one job are sent at most this often. */
  progressThrottleMs?: number;
  /** An upload URL closer to its expiry than this is asked for again before use. */
  uploadUrlMarginMs?: number;
  /** Minutes a scribe job may stay unfinished before it is overdue; read at each look, fractions allowed. */
  overdueMinutes?: () => number;
  /** How often an overdue job is polled. */
  slowPollMs?: number;
  now?: () => number;
  log?: (line: string) => void;
  /** Which service the accounts signed in now belong to (an owner of another service owns nothing here). */
  serviceKey?: () => string;
  /**
   * The user whose sign-in alone may send a consult (the access gate reads its owner); null for
   * a consult no one has claimed, which waits for a claim. Absent: the job record's owner.
   */
  sender?: (recordingId: string) => string | null;
}

/** The consult belongs to another account than the one signed in, or to none yet: it waits for its owner (or a claim). */
class NotOwnerError extends Error {
  readonly unclaimed: boolean;
  constructor(unclaimed = false) {
    super(unclaimed ? 'No one has claimed this consult yet; it waits for a vet to send it as theirs.' : "This consult belongs to another account; it waits for that account's sign-in.");
    this.name = 'NotOwnerError';
    this.unclaimed = unclaimed;
  }
}

export function ownerOf(user: User, service: string): ConsultOwner {
  return { userId: user.id, organizationId: user.organizationId, name: user.name, email: user.email, service };
}

export const PATIENT_NAME_REQUIRED = "Add the patient's name before sending: the service needs it to write the note.";

/** A consult's retention: days its audio is kept after the note (null = for ever), and from when they count. Null: the consult is none of this rule's. */
export type RetentionPolicy = (recordingId: string) => { keepDays: number | null; countFrom: number | null } | null;

export class JobError extends Error {
  readonly code: 'not_found' | 'no_recording' | 'busy' | 'not_failed' | 'bad_state' | 'conflict' | 'invalid_input' | 'patient_name_required';
  constructor(code: JobError['code'], message: string) {
    super(message);
    this.name = 'JobError';
    this.code = code;
  }
}

interface Live {
  record: JobRecord;
  controller: AbortController | null;
  running: Promise<void> | null;
  bytesSent: number;
  waitingFor: DocumentInfo['waitingFor'];
  waitingReason: string | null;
  nextRetryAt: number | null;
  lastProgressAt: number;
  /** Whether this run has already told that the job is overdue. */
  overdueAnnounced: boolean;
  /** The job file's writes, one after another: the last to finish is the newest record. */
  writes: Promise<void>;
}

const TERMINAL: ReadonlySet<JobState> = new Set(['completed', 'failed']);
/** How many times in a row an upload address may turn out expired before the job gives up. */
const MAX_URL_RENEWALS = 3;
/** More documents one consult may have besides its note. */
export const MAX_DOCUMENTS = 8;

export class Pipeline extends EventEmitter<{ job: [JobInfo]; noteReady: [JobInfo]; documentReady: [JobInfo, DocumentInfo]; overdue: [JobInfo]; removed: [string] }> {
  private readonly jobs = new Map<string, Live>();
  /** Each consult's further documents, oldest first. */
  private readonly documents = new Map<string, Live[]>();
  /** Jobs waiting for their turn or for a sign-in: each looks again whenever a job or the session changes. */
  private readonly waiters = new Set<() => void>();
  /**
   * Each consult's turn: what adds to a consult or takes from it (another document, delete,
   * retention, a change of service) runs one after another, so a delete waits for an add in
   * flight and nothing is put back into a consult that is gone.
   */
  private readonly turns = new KeyedQueue();
  private readonly submitting = new Map<string, Promise<JobInfo>>();
  private readonly options: Required<Omit<PipelineOptions, 'log'>> & Pick<PipelineOptions, 'log'>;
  private uploadSlots: number;
  private readonly uploadQueue: (() => void)[] = [];
  private stopped = false;
  /** Counts for tests and benchmarks: what this process sent. */
  readonly counters = { scribeRequests: 0, scribeResends: 0, uploadUrlRenewals: 0, transientRetries: 0, polls: 0 };

  constructor(options: PipelineOptions) {
    super();
    this.options = {
      backoff: DEFAULT_BACKOFF,
      pollDelay: defaultPollDelay,
      maxConcurrentUploads: 2,
      progressThrottleMs: 250,
      uploadUrlMarginMs: 30_000,
      overdueMinutes: () => 30,
      serviceKey: () => '',
      sender: (id) => this.jobs.get(id)?.record.ownerUserId ?? null,
      slowPollMs: OVERDUE_CHECK_MINUTES * 60_000,
      now: Date.now,
      ...options,
    };
    this.uploadSlots = this.options.maxConcurrentUploads;
    this.options.session.on('changed', (state: SessionState) => {
      // Another account signed in: a consult of the one before that is on its way stops where
      // it is (an upload is given up, to be sent again) and waits for its owner's sign-in.
      const me = state.user?.id ?? null;
      for (const live of this.allLive()) {
        const owner = this.options.sender(live.record.recordingId);
        if (owner === null || me === null || owner === me || !live.controller || live.waitingFor === 'owner') continue;
        const running = live.running;
        live.controller.abort();
        void running?.then(() => this.kickLive(live));
      }
      if (state.signedIn) for (const id of this.jobs.keys()) this.kick(id);
      this.wakeWaiters();
    });
  }

  private jobPath(recordingId: string, documentId: string | null = null): string {
    const folder = dirname(this.options.recordings.audioPath(recordingId));
    return documentId === null ? join(folder, 'job.json') : join(folder, 'documents', `${documentId}.json`);
  }

  /** Every job: the consults' and their documents'. */
  private allLive(): Live[] {
    return [...this.jobs.values(), ...[...this.documents.values()].flat()];
  }

  /** At launch: loads every job and resumes those that were under way. */
  /** At launch: loads every job (of the recordings given, else of every recording) and resumes those that were under way. */
  async init(recordings?: readonly RecordingMeta[]): Promise<void> {
    const metas = recordings ?? (await this.options.recordings.list());
    // A few files at a time, in the order of the recordings: years of consults are read here
    // before the window opens.
    const limit = pLimit(READ_AT_ONCE);
    const loaded = await Promise.all(metas.map((meta) => limit(() => this.loadJob(meta.id))));
    for (const [i, job] of loaded.entries()) {
      if (!job) continue;
      const id = metas[i]!.id;
      this.jobs.set(id, job.live);
      if (job.documents.length) this.documents.set(id, job.documents);
    }
    for (const id of this.jobs.keys()) this.kick(id);
  }

  private async loadJob(recordingId: string): Promise<{ live: Live; documents: Live[] } | null> {
    let raw: unknown;
    try {
      raw = await readJson(this.jobPath(recordingId));
    } catch (e) {
      this.options.log?.(`pipeline: job of ${recordingId} is unreadable (${(e as Error).message}); the recording is kept`);
      return null;
    }
    if (raw === null) return null;
    const parsed = jobRecordSchema.safeParse(raw);
    if (!parsed.success) {
      this.options.log?.(`pipeline: job of ${recordingId} has an unknown shape; the recording is kept`);
      return null;
    }
    return { live: this.live(parsed.data), documents: await this.loadDocuments(recordingId) };
  }

  private async loadDocuments(recordingId: string): Promise<Live[]> {
    const folder = dirname(this.jobPath(recordingId, 'x'));
    const names = await readdir(folder).catch(() => [] as string[]);
    const docs: Live[] = [];
    for (const name of names.filter((n) => n.endsWith('.json'))) {
      const parsed = jobRecordSchema.safeParse(await readJson(join(folder, name)).catch(() => undefined));
      if (parsed.success && parsed.data.documentId !== null && parsed.data.recordingId === recordingId) docs.push(this.live(parsed.data));
      else this.options.log?.(`pipeline: a document of ${recordingId} is unreadable; it is left where it is`);
    }
    return docs.sort((a, b) => a.record.createdAt.localeCompare(b.record.createdAt));
  }

  private live(record: JobRecord): Live {
    return { record, controller: null, running: null, bytesSent: record.state === 'uploaded' || record.state === 'scribe_requested' || record.state === 'completed' ? record.bytesTotal : 0, waitingFor: null, waitingReason: null, nextRetryAt: null, lastProgressAt: 0, overdueAnnounced: false, writes: Promise.resolve() };
  }

  info(id: string): JobInfo | null {
    const live = this.jobs.get(id);
    return live ? this.snapshot(live) : null;
  }

  list(): JobInfo[] {
    return [...this.jobs.values()].map((l) => this.snapshot(l));
  }

  private snapshot(live: Live): JobInfo {
    const r = live.record;
    return {
      recordingId: r.recordingId,
      templateId: r.templateId,
      state: r.state,
      // 'turn' is a document's wait only: a consult's note never waits for another.
      waitingFor: TERMINAL.has(r.state) || live.waitingFor === 'turn' ? null : live.waitingFor,
      waitingReason: TERMINAL.has(r.state) || live.waitingFor !== 'network' ? null : live.waitingReason,
      bytesSent: live.bytesSent,
      bytesTotal: r.bytesTotal,
      serviceStatus: r.serviceStatus,
      error: r.error,
      nextRetryAt: live.nextRetryAt,
      hasNote: r.note !== null,
      edited: r.editedNote !== null,
      overdue: this.msUntilOverdue(r) === 0,
      audioDeleted: r.audioDeletedAt !== null,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      completedAt: r.completedAt,
      documents: (this.documents.get(r.recordingId) ?? []).map((d) => this.documentSnapshot(d)),
    };
  }

  private documentSnapshot(live: Live): DocumentInfo {
    const r = live.record;
    return {
      id: r.documentId ?? '',
      name: r.documentName,
      templateId: r.templateId,
      state: r.state,
      waitingFor: TERMINAL.has(r.state) ? null : live.waitingFor,
      serviceStatus: r.serviceStatus,
      error: r.error,
      hasNote: r.note !== null,
      edited: r.editedNote !== null,
      overdue: this.msUntilOverdue(r) === 0,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      completedAt: r.completedAt,
    };
  }

  /** The text of every further document of a consult (the vet's edit when there is one), for search. */
  documentTexts(recordingId: string): string[] {
    return (this.documents.get(recordingId) ?? []).map((d) => d.record.editedNote ?? d.record.note ?? '');
  }

  /** The consult's job a document belongs to, or the job itself. */
  private consultOf(live: Live): Live | undefined {
    return live.record.documentId === null ? live : this.jobs.get(live.record.recordingId);
  }

  /**
   * Time left before a scribe job counts as overdue: 0 once it is, Infinity for a job not
   * waiting on the service. The clock starts at the scribe request (a resend of the same request
   * keeps it; Ask again starts it anew).
   */
  private msUntilOverdue(r: JobRecord): number {
    if (r.state !== 'scribe_requested' || r.scribeRequestSentAt === null) return Infinity;
    const since = Date.parse(r.scribeRequestSentAt);
    if (!Number.isFinite(since)) return Infinity;
    return Math.max(0, since + this.options.overdueMinutes() * 60_000 - this.options.now());
  }

  private publish(live: Live, { progressOnly = false } = {}): void {
    const now = this.options.now();
    if (progressOnly && now - live.lastProgressAt < this.options.progressThrottleMs) return;
    live.lastProgressAt = now;
    // A document is part of its consult: the consult's snapshot carries it.
    const consult = this.consultOf(live);
    if (consult) this.emit('job', this.snapshot(consult));
    this.wakeWaiters();
  }

  private async save(live: Live, patch: Partial<JobRecord>): Promise<void> {
    live.record = { ...live.record, ...patch, updatedAt: new Date(this.options.now()).toISOString() };
    // Two saves at once (a note edit while the retention sweep runs) must not finish their
    // renames in the wrong order: each write waits for the one before and writes the record as
    // it is by then.
    const write = live.writes.catch(() => undefined).then(() => writeJsonAtomic(this.jobPath(live.record.recordingId, live.record.documentId), live.record));
    live.writes = write;
    await write;
    this.publish(live);
  }

  /**
   * Sends a finished recording to be scribed with a template. Asking again for a job that is
   * already under way joins it; one that finished is answered as it is.
   */
  submit(recordingId: string, templateId: string): Promise<JobInfo> {
    const existing = this.jobs.get(recordingId);
    if (existing) return Promise.resolve(this.snapshot(existing));
    // Two submits at once (a double click, two windows) make one job.
    let pending = this.submitting.get(recordingId);
    if (!pending) {
      pending = this.create(recordingId, templateId).finally(() => this.submitting.delete(recordingId));
      this.submitting.set(recordingId, pending);
    }
    return pending;
  }

  private async create(recordingId: string, templateId: string): Promise<JobInfo> {
    const meta = await this.options.recordings.get(recordingId);
    if (!meta) throw new JobError('no_recording', 'That recording is not on this computer.');
    if (meta.state === 'recording' || meta.state === 'paused') {
      throw new JobError('bad_state', 'This recording is still going; stop it before sending it to be scribed.');
    }
    if (!meta.patientName?.trim()) throw new JobError('invalid_input', PATIENT_NAME_REQUIRED);
    const { size } = await stat(this.options.recordings.audioPath(recordingId));
    const now = new Date(this.options.now()).toISOString();
    // The consult goes with the sign-in of the account that recorded it; one recorded with no one
    // signed in waits until a vet claims it (AppCore.claim): sending it is never a claim.
    const record: JobRecord = {
      version: 1,
      recordingId,
      templateId,
      state: 'recorded',
      ...unsent(now),
      bytesTotal: size,
      // Kept for older versions of the app; whose the consult is, is read from its meta.
      ownerUserId: this.options.sender(recordingId),
      documentId: null,
      documentName: null,
    };
    const live = this.live(record);
    this.jobs.set(recordingId, live);
    await this.save(live, {});
    this.kick(recordingId);
    return this.snapshot(live);
  }

  /**
   * The app now talks to another service (Settings): the session, upload address and scribe
   * record a job holds belong to the old one and mean nothing to the new. Every job without its
   * note starts again from its recording, under a new key (a request to another service is no
   * second request); a failed one waits for Retry as before, from the start. Notes stay, and so
   * do owners: a consult keeps the owner it was recorded by and waits for that vet (or a vet's
   * claim) on the new service, never sent under whoever signs in first.
   *
   * Each consult in its turn; one deleted meanwhile is passed over, and one whose job cannot be
   * written is named in the answer rather than stopping the others.
   */
  async restartForNewService(): Promise<{ restarted: number; failed: { recordingId: string; message: string }[] }> {
    let restarted = 0;
    const failed: { recordingId: string; message: string }[] = [];
    const ids = new Set([...this.jobs.keys(), ...this.documents.keys()]);
    for (const id of ids) {
      try {
        if (await this.turns.run(id, () => this.restartOne(id))) restarted += 1;
      } catch (e) {
        this.options.log?.(`pipeline: ${id}: could not be made ready for the new service: ${(e as Error).message}`);
        failed.push({ recordingId: id, message: (e as Error).message });
      }
    }
    return { restarted, failed };
  }

  private async restartOne(id: string): Promise<boolean> {
    // A document asked of the old service cannot be finished by the new one: it stops, saying so,
    // and the vet asks the new service for it (Try again) once the consult's note is there.
    for (const live of this.documents.get(id) ?? []) {
      if (TERMINAL.has(live.record.state)) continue;
      live.controller?.abort();
      await live.running?.catch(() => {});
      if (this.documents.get(id)?.includes(live)) {
        await this.save(live, { state: 'failed', failedAt: 'scribe_requested', error: { message: DOCUMENT_OF_OLD_SERVICE, code: 'service_changed', status: null } });
      }
    }
    const live = this.jobs.get(id);
    if (!live) return false;
    const r = live.record;
    if (r.state === 'completed') return false;
    live.controller?.abort();
    await live.running?.catch(() => {});
    if (this.jobs.get(id) !== live) return false;
    if (r.state === 'recorded' && r.sessionId === null) {
      this.kick(id);
      return false;
    }
    const fresh = { sessionId: null, upload: null, idempotencyKey: randomUUID(), scribeRequestSentAt: null, scribeId: null, serviceStatus: null } as const;
    if (r.state === 'failed') await this.save(live, { ...fresh, failedAt: 'recorded' });
    else await this.save(live, { ...fresh, state: 'recorded' });
    live.bytesSent = 0;
    live.overdueAnnounced = false;
    this.kick(id);
    return true;
  }

  /** A failed job starts again at the step that failed. */
  async retry(recordingId: string, templateId?: string): Promise<JobInfo> {
    const live = this.jobs.get(recordingId);
    if (!live) throw new JobError('not_found', 'That consult has not been sent to be scribed.');
    if (live.record.state !== 'failed') {
      // Not failed: a retry wakes a job that is waiting out a backoff.
      this.wake(live);
      return this.snapshot(live);
    }
    const from = live.record.failedAt ?? 'recorded';
    // A job the service itself failed is asked for again, which is a new request.
    const fresh = from === 'scribe_requested';
    // An upload address that was refused is not tried again: a new one is asked for.
    const newAddress = from === 'upload_url';
    await this.save(live, {
      state: fresh ? 'uploaded' : newAddress ? 'session_created' : from,
      ...(newAddress ? { upload: null } : {}),
      failedAt: null,
      error: null,
      templateId: templateId ?? live.record.templateId,
      ...(fresh ? { idempotencyKey: randomUUID(), scribeRequestSentAt: null, scribeId: null, serviceStatus: null } : {}),
    });
    live.overdueAnnounced = false;
    this.kick(recordingId);
    return this.snapshot(live);
  }

  /**
   * "Ask again" for a note that is overdue (or that the service failed): a new scribe request
   * for the same recording session, under a new key (it is a new request, not a repeat), with
   * the overdue clock started again. Any other job is refused: it is not late.
   */
  async askAgain(recordingId: string): Promise<JobInfo> {
    const live = this.jobs.get(recordingId);
    if (!live) throw new JobError('not_found', 'That consult has not been sent to be scribed.');
    const r = live.record;
    const failedAtScribe = r.state === 'failed' && r.failedAt === 'scribe_requested';
    if (!failedAtScribe && this.msUntilOverdue(r) !== 0) {
      const why =
        r.state === 'scribe_requested'
          ? `The service has had this consult for less than ${formatMinutes(this.options.overdueMinutes())}; Ask again is for a note that is late.`
          : r.state === 'completed'
            ? 'This consult already has its note.'
            : r.state === 'failed'
              ? 'This consult stopped before it reached the service; use Retry instead.'
              : 'This consult is still on its way to the service; Ask again is for a note that is late.';
      throw new JobError('conflict', why);
    }
    live.controller?.abort();
    await live.running?.catch(() => {});
    live.overdueAnnounced = false;
    await this.save(live, { state: 'uploaded', failedAt: null, error: null, idempotencyKey: randomUUID(), scribeRequestSentAt: null, scribeId: null, serviceStatus: null });
    this.options.log?.(`pipeline: ${recordingId}: asked again for the note of the same recording session`);
    this.kick(recordingId);
    return this.snapshot(live);
  }

  /** Whether the consult has reached the service (its recording session exists there). */
  sent(recordingId: string): boolean {
    const live = this.jobs.get(recordingId);
    return live !== undefined && live.record.sessionId !== null;
  }

  /** Starts again a job that waited for the patient's name, now that it has one. */
  async resumeWithPatientName(recordingId: string): Promise<void> {
    const live = this.jobs.get(recordingId);
    if (live?.record.state === 'failed' && live.record.error?.code === 'patient_name_required') await this.retry(recordingId);
  }

  /**
   * Deletes the consult: its jobs stop, then its folder goes, then `alsoRemove` (its drafts).
   * In the consult's turn: it waits for another document being added, which then finds no consult.
   */
  delete(recordingId: string, alsoRemove?: () => Promise<void>): Promise<void> {
    return this.turns.run(recordingId, async () => {
      for (const live of [this.jobs.get(recordingId), ...(this.documents.get(recordingId) ?? [])]) {
        live?.controller?.abort();
        await live?.running?.catch(() => {});
      }
      this.jobs.delete(recordingId);
      this.documents.delete(recordingId);
      await this.options.recordings.delete(recordingId);
      await alsoRemove?.();
      this.emit('removed', recordingId);
    });
  }

  /** Runs `task` in the consult's turn (after what is already asked of it, before what comes next). */
  inTurn<T>(recordingId: string, task: () => Promise<T>): Promise<T> {
    return this.turns.run(recordingId, task);
  }

  /** The consult's owner changed (a vet claimed it): a job that waited for a claim looks again. */
  ownerChanged(recordingId: string): void {
    this.kick(recordingId);
    this.wakeWaiters();
  }

  /** The user a job record of an older version names as its sender (for a consult whose meta names no owner). */
  legacySender(recordingId: string): string | null {
    return this.jobs.get(recordingId)?.record.ownerUserId ?? null;
  }

  /** The consult's note, or one of its further documents. */
  note(recordingId: string, documentId: string | null = null): { note: string | null; editedNote: string | null; noteRtf: string | null } {
    const live = this.find(recordingId, documentId);
    return { note: live.record.note, editedNote: live.record.editedNote, noteRtf: live.record.noteRtf };
  }

  /** The vet's own edit of the note, kept beside the service's text. null = back to the original. */
  async saveEditedNote(recordingId: string, text: string | null, documentId: string | null = null): Promise<void> {
    const live = this.find(recordingId, documentId);
    if (live.record.note === null) throw new JobError('not_found', 'There is no note to edit for this recording yet.');
    await this.save(live, { editedNote: text });
  }

  private find(recordingId: string, documentId: string | null): Live {
    if (!this.jobs.has(recordingId)) throw new JobError('not_found', 'That consult has not been sent to be scribed.');
    const live = documentId === null ? this.jobs.get(recordingId) : this.documents.get(recordingId)?.find((d) => d.record.documentId === documentId);
    if (!live) throw new JobError('not_found', 'That document is not part of this consult.');
    return live;
  }

  /**
   * "Another document…": one more scribe request for the consult's recording session, with a
   * template of its own (one the consult has not already been, or is being, written with). It
   * waits its turn: it leaves once the note and every document asked before it are done. Asked
   * twice at once (a double click, two windows), it is made once.
   */
  addDocument(recordingId: string, templateId: string, name: string | null = null): Promise<DocumentInfo> {
    return this.turns.run(recordingId, () => this.createDocument(recordingId, templateId, name));
  }

  private async createDocument(recordingId: string, templateId: string, name: string | null): Promise<DocumentInfo> {
    const consult = this.jobs.get(recordingId);
    if (!consult) throw new JobError('not_found', 'That consult has not been sent to be scribed; send it first, then ask for another document.');
    const docs = this.documents.get(recordingId) ?? [];
    const same = [consult, ...docs].find((l) => l.record.templateId === templateId && l.record.state !== 'failed');
    if (same) {
      throw new JobError('conflict', same === consult ? 'The note of this consult is already written with that template; choose another.' : 'This consult already has a document from that template.');
    }
    if (docs.length >= MAX_DOCUMENTS) throw new JobError('conflict', `A consult can have at most ${MAX_DOCUMENTS} more documents.`);
    const now = new Date(this.options.now()).toISOString();
    const record: JobRecord = {
      ...consult.record,
      templateId,
      state: 'uploaded',
      ...unsent(now),
      documentId: randomUUID().slice(0, 8),
      documentName: name,
    };
    await mkdir(dirname(this.jobPath(recordingId, 'x')), { recursive: true });
    const live = this.live(record);
    this.documents.set(recordingId, [...docs, live]);
    await this.save(live, {});
    this.kickLive(live);
    return this.documentSnapshot(live);
  }

  /**
   * A document that failed, or whose note is late, is asked for again: a new request (a new
   * key) for the same recording session, which waits its turn as the first did.
   */
  async retryDocument(recordingId: string, documentId: string): Promise<DocumentInfo> {
    const live = this.find(recordingId, documentId);
    const r = live.record;
    if (r.state === 'completed') throw new JobError('conflict', 'This document is already written.');
    if (r.state !== 'failed' && this.msUntilOverdue(r) !== 0) {
      this.wake(live);
      return this.documentSnapshot(live);
    }
    live.controller?.abort();
    await live.running?.catch(() => {});
    live.overdueAnnounced = false;
    await this.save(live, { state: 'uploaded', failedAt: null, error: null, idempotencyKey: randomUUID(), sessionId: null, scribeRequestSentAt: null, scribeId: null, serviceStatus: null });
    this.kickLive(live);
    return this.documentSnapshot(live);
  }

  /** Whether a document may leave now: the consult's note and every document before it are done. */
  private itsTurn(live: Live): boolean {
    const consult = this.jobs.get(live.record.recordingId);
    if (!consult || consult.record.state !== 'completed') return false;
    const docs = this.documents.get(live.record.recordingId) ?? [];
    return docs.slice(0, docs.indexOf(live)).every((d) => TERMINAL.has(d.record.state));
  }

  /** Resolves once it is the document's turn, or its job is cancelled. */
  private untilTurn(live: Live, signal: AbortSignal): Promise<void> {
    return this.until(() => this.itsTurn(live), signal);
  }

  /**
   * Resolves once `ready()` holds, or the job is cancelled; looked at again whenever a job
   * changes or the session does. One set of callbacks, not a listener on 'job' or on the
   * session per waiting job: a morning of consults queued while signed out, or of documents
   * waiting their turn, would pass EventEmitter's limit and warn of a leak.
   */
  private async until(ready: () => boolean, signal: AbortSignal): Promise<void> {
    if (ready()) return;
    await new Promise<void>((resolve) => {
      const check = () => {
        if (!signal.aborted && !ready()) return;
        this.waiters.delete(check);
        signal.removeEventListener('abort', check);
        resolve();
      };
      this.waiters.add(check);
      signal.addEventListener('abort', check, { once: true });
    });
  }

  private wakeWaiters(): void {
    for (const check of [...this.waiters]) check();
  }

  /**
   * The finished consults whose audio is past their retention: `policy` gives each consult's
   * (its own clinic's: one clinic's choice never reaches another's audio), counted from the note,
   * or from `countFrom` for a note that came before it (a shorter retention chosen "from today").
   */
  private retentionDue(policy: RetentionPolicy): Live[] {
    const now = this.options.now();
    return [...this.jobs.values()].filter(({ record: r }) => {
      if (r.state !== 'completed' || r.audioDeletedAt !== null || r.completedAt === null) return false;
      const rule = policy(r.recordingId);
      if (rule === null || rule.keepDays === null) return false;
      return Math.max(Date.parse(r.completedAt), rule.countFrom ?? 0) + rule.keepDays * 24 * 3600 * 1000 <= now;
    });
  }

  /** How many recordings' audio a policy would delete now, counted from each note. */
  retentionPreview(policy: RetentionPolicy): number {
    return this.retentionDue(policy).length;
  }

  /** Deletes the audio past each consult's retention, each in its consult's turn. */
  async applyRetention(policy: RetentionPolicy): Promise<string[]> {
    const deleted: string[] = [];
    for (const due of this.retentionDue(policy)) {
      const id = due.record.recordingId;
      const done = await this.turns.run(id, async () => {
        // Looked at again in the turn: the consult may have gone, or its owner changed, meanwhile.
        const live = this.jobs.get(id);
        if (live !== due || !this.retentionDue(policy).includes(live)) return false;
        await rm(this.options.recordings.audioPath(id), { force: true });
        await this.save(live, { audioDeletedAt: new Date(this.options.now()).toISOString() });
        return true;
      });
      if (done) deleted.push(id);
    }
    return deleted;
  }

  /** Stops every loop (quitting, or tests); jobs resume from their files at the next init. */
  async stop(): Promise<void> {
    this.stopped = true;
    const running = this.allLive().map((l) => {
      l.controller?.abort();
      return l.running?.catch(() => {});
    });
    await Promise.all(running);
  }

  /** Resolves when every job has finished (completed or failed). For tests and tools. */
  async settled(): Promise<void> {
    for (;;) {
      const running = this.allLive()
        .map((l) => l.running)
        .filter((p): p is Promise<void> => p !== null);
      if (running.length === 0) return;
      await Promise.all(running.map((p) => p.catch(() => {})));
    }
  }

  /** Sets the consult's job going, and its documents. */
  private kick(id: string): void {
    for (const live of [this.jobs.get(id), ...(this.documents.get(id) ?? [])]) if (live) this.kickLive(live);
  }

  private kickLive(live: Live): void {
    if (live.running || this.stopped || TERMINAL.has(live.record.state)) return;
    const controller = new AbortController();
    live.controller = controller;
    live.running = this.run(live, controller.signal).finally(() => {
      live.running = null;
      live.controller = null;
    });
  }

  private wakers = new Map<Live, () => void>();
  private wake(live: Live): void {
    this.wakers.get(live)?.();
  }

  /** Sleeps, but wakes early on a retry by hand or when the job is cancelled. */
  private async pause(live: Live, ms: number, signal: AbortSignal): Promise<void> {
    const early = new AbortController();
    this.wakers.set(live, () => early.abort());
    try {
      await sleep(ms, undefined, { signal: AbortSignal.any([signal, early.signal]) });
    } catch {
      // woken or cancelled; the loop looks at the signal
    } finally {
      this.wakers.delete(live);
    }
  }

  private async run(live: Live, signal: AbortSignal): Promise<void> {
    let attempt = 0;
    let polls = 0;
    let renewals = 0;
    // Failed attempts to reach the upload address: they keep their backoff across the renewals
    // they cause, so a storage host that stays unreachable is not hammered.
    let unreachableUploads = 0;
    while (!signal.aborted && !TERMINAL.has(live.record.state)) {
      if (live.record.documentId !== null && live.record.state === 'uploaded' && !this.itsTurn(live)) {
        live.waitingFor = 'turn';
        this.publish(live);
        await this.untilTurn(live, signal);
        this.clearWaiting(live);
        continue;
      }
      try {
        const before = live.record.state;
        if (before === 'scribe_requested') {
          const finished = await this.poll(live, signal);
          if (!finished) {
            this.clearWaiting(live);
            const untilOverdue = this.msUntilOverdue(live.record);
            if (untilOverdue === 0) this.announceOverdue(live);
            // Quick looks while a note is expected, a look at the moment it becomes overdue (so
            // the vet is told on time), and slow looks after that.
            const delay = untilOverdue === 0 ? this.options.slowPollMs : Math.min(this.options.pollDelay(polls++), untilOverdue + 1);
            await this.pause(live, delay, signal);
          }
        } else {
          await this.step(live, signal);
        }
        if (live.record.state === 'uploaded') unreachableUploads = 0;
        // The backoff counts failures in a row: a good answer (a poll that finds the note not
        // ready yet included) ends the run, so one bad minute early in a long scribing job does
        // not leave every later hiccup waiting the full cap.
        attempt = 0;
        if (live.record.state !== before && live.record.state !== 'session_created') renewals = 0;
        this.clearWaiting(live);
        live.nextRetryAt = null;
      } catch (e) {
        if (signal.aborted) return;
        if (e instanceof NotOwnerError) {
          // Whose it is is read again at every look: a claim, or its owner's sign-in, sets it going.
          live.waitingFor = e.unclaimed ? 'claim' : 'owner';
          this.publish(live);
          const id = live.record.recordingId;
          await this.until(() => {
            const sender = this.options.sender(id);
            return sender !== null && this.options.session.state().user?.id === sender;
          }, signal);
          this.clearWaiting(live);
          continue;
        }
        if (e instanceof SignedOutError) {
          live.waitingFor = 'sign-in';
          this.publish(live);
          await this.untilSession((st) => st.signedIn, signal);
          this.clearWaiting(live);
          continue;
        }
        const isDocument = live.record.documentId !== null;
        if (e instanceof ServiceError && e.kind === 'http' && live.record.state === 'upload_url' && isExpiredUploadUrl(e) && renewals < MAX_URL_RENEWALS) {
          renewals += 1;
          this.counters.uploadUrlRenewals += 1;
          await this.save(live, { state: 'session_created', upload: null });
          continue;
        }
        if (e instanceof ServiceError && e.status === 409 && live.record.state === 'uploaded' && !isDocument && renewals < MAX_URL_RENEWALS) {
          // The service has no file for the key: upload it again rather than give up.
          renewals += 1;
          await this.save(live, { state: 'session_created', upload: null, scribeRequestSentAt: null });
          continue;
        }
        if (e instanceof ServiceError && (e.transient || e.kind === 'aborted')) {
          // An upload address that cannot be reached at all may point at a host that has gone
          // (a restarted service on a new port, a moved bucket): the next try asks a fresh one,
          // which also shows whether the service itself is reachable.
          const renewAddress = e.kind === 'network' && live.record.state === 'upload_url';
          if (renewAddress) attempt = Math.max(attempt, unreachableUploads++);
          const delay = backoffDelay(attempt++, this.options.backoff, e.retryAfterMs);
          this.counters.transientRetries += 1;
          live.waitingFor = e.kind === 'http' ? 'service' : 'network';
          live.waitingReason = isNetworkSetupFailure(e) ? e.message : null;
          live.nextRetryAt = this.options.now() + delay;
          live.bytesSent = live.record.state === 'upload_url' ? 0 : live.bytesSent;
          this.options.log?.(`pipeline: ${live.record.recordingId} ${live.record.state}: ${e.message} (retry in ${delay} ms)`);
          this.publish(live);
          await this.pause(live, delay, signal);
          if (renewAddress && !signal.aborted && live.record.state === 'upload_url') {
            this.counters.uploadUrlRenewals += 1;
            await this.save(live, { state: 'session_created', upload: null });
          }
          continue;
        }
        await this.fail(live, e);
      }
    }
  }

  private announceOverdue(live: Live): void {
    if (live.overdueAnnounced) return;
    live.overdueAnnounced = true;
    this.options.log?.(`pipeline: ${live.record.recordingId}: no note after ${formatMinutes(this.options.overdueMinutes())}; polling slowly`);
    this.publish(live);
    // A late document is announced as its consult's, by the consult's snapshot (the window finds the document in it).
    const consult = this.consultOf(live);
    if (consult) this.emit('overdue', this.snapshot(consult));
  }

  /** Waits until the session is as `wanted` says (signed in; signed in as the owner), or the job is cancelled. */
  /**
   * The job no longer waits: said at once (a job event), so a window does not go on showing
   * "Waiting for … to sign in" while the job is moving again and no state has changed yet.
   */
  private clearWaiting(live: Live): void {
    if (live.waitingFor === null) return;
    live.waitingFor = null;
    live.waitingReason = null;
    this.publish(live);
  }

  private untilSession(wanted: (s: SessionState) => boolean, signal: AbortSignal): Promise<void> {
    return this.until(() => wanted(this.options.session.state()), signal);
  }

  private async fail(live: Live, e: unknown): Promise<void> {
    const error =
      e instanceof ServiceError && e.code === 'SignatureDoesNotMatch'
        ? { message: BAD_SIGNATURE, code: e.code, status: e.status ?? null }
        : e instanceof ServiceError
          ? { message: e.message, code: e.code ?? null, status: e.status ?? null }
          : e instanceof JobError
            ? { message: e.message, code: e.code, status: null }
            : { message: (e as Error).message || String(e), code: null, status: null };
    this.options.log?.(`pipeline: ${live.record.recordingId} failed at ${live.record.state}: ${error.message}`);
    await this.save(live, { state: 'failed', failedAt: live.record.state, error });
  }

  /**
   * The user whose sign-in may send the consult now; throws (to wait) when it has no owner yet,
   * or another account is signed in. Signed out, the call itself says so (SignedOutError).
   */
  private senderNow(recordingId: string): string {
    const sender = this.options.sender(recordingId);
    const user = this.options.session.state().user;
    // Signed out, it waits for a sign-in first, whoever's it is: a claim needs one.
    if (sender === null) throw user === null ? new SignedOutError(null) : new NotOwnerError(true);
    if (user !== null && user.id !== sender) throw new NotOwnerError();
    return sender;
  }

  /**
   * A call with the owner's sign-in only, from start to finish: the token comes from that
   * sign-in, and a 401 refreshes that sign-in or stops (Session.withToken's `as`), never taking
   * whoever signed in meanwhile. The job's signal cancels the call itself.
   */
  private withToken<T>(live: Live, signal: AbortSignal, fn: (token: string, signal: AbortSignal) => Promise<T>): Promise<T> {
    let as: string;
    try {
      as = this.senderNow(live.record.recordingId);
    } catch (e) {
      return Promise.reject(e);
    }
    return this.options.session.withToken((t) => fn(t, signal), { as, signal });
  }

  private async step(live: Live, signal: AbortSignal): Promise<void> {
    const { client, recordings } = this.options;
    const r = live.record;
    // Not even the upload (which needs no token) goes on for a consult no one has claimed, or
    // while another account is signed in.
    this.senderNow(r.recordingId);
    switch (r.state) {
      case 'recorded': {
        const meta = await recordings.get(r.recordingId);
        if (!meta) throw new JobError('no_recording', `The recording ${r.recordingId} is no longer on this computer.`);
        // A job queued before the patient's name was asked for waits for it, saying so.
        const patientName = meta.patientName?.trim();
        if (!patientName) throw new JobError('patient_name_required', PATIENT_NAME_REQUIRED);
        const session = await this.withToken(live, signal, (t, s) =>
          client.createSession(t, { patientName, description: meta.description ?? '', sessionDate: localDate(meta.startedAt) }, s),
        );
        await this.save(live, { state: 'session_created', sessionId: session.id });
        return;
      }
      case 'session_created': {
        const answer = await this.withToken(live, signal, (t, s) => client.uploadUrl(t, { sessionId: r.sessionId ?? '' }, s));
        await this.save(live, {
          state: 'upload_url',
          upload: {
            url: answer.uploadUrl,
            fileKey: answer.fileKey ?? null,
            expiresAt: answer.expiresAt ?? null,
            issuedAt: this.options.now(),
            ...(answer.headers ? { headers: answer.headers } : {}),
          },
        });
        return;
      }
      case 'upload_url': {
        const upload = r.upload;
        // Ask again for an address about to expire: 30 s ahead, or half its life if shorter.
        const life = upload?.expiresAt != null && upload.issuedAt != null ? upload.expiresAt * 1000 - upload.issuedAt : Infinity;
        const margin = Math.min(this.options.uploadUrlMarginMs, life / 2);
        if (!upload || (upload.expiresAt !== null && upload.expiresAt * 1000 - this.options.now() < margin)) {
          this.counters.uploadUrlRenewals += upload ? 1 : 0;
          await this.save(live, { state: 'session_created', upload: null });
          return;
        }
        // No Content-Type, as `curl -T` sends it: a presigned address may have been signed
        // without one, and a header it did not sign is refused.
        await this.withUploadSlot(signal, () =>
          client.upload(upload.url, recordings.audioPath(r.recordingId), null, {
            signal,
            headers: upload.headers ?? {},
            onProgress: ({ sent, total }) => {
              live.bytesSent = sent;
              live.record.bytesTotal = total;
              this.publish(live, { progressOnly: true });
            },
          }),
        );
        live.bytesSent = live.record.bytesTotal;
        await this.save(live, { state: 'uploaded' });
        return;
      }
      case 'uploaded': {
        // A further document goes to the recording session the consult's note was written from.
        const sessionId = r.documentId === null ? r.sessionId : (this.jobs.get(r.recordingId)?.record.sessionId ?? null);
        if (sessionId === null) throw new JobError('bad_state', 'This consult has no recording session at the service yet.');
        const answer = await this.withToken(live, signal, async (t, s) => {
          // Noted on disk with a token in hand, just before the request leaves: a send that
          // never happened (signed out) is not taken for one whose answer was lost.
          // A resend keeps the first send's time: the overdue clock runs from the request.
          const resend = live.record.scribeRequestSentAt !== null;
          await this.save(live, {
            sessionId,
            scribeRequestSentAt: live.record.scribeRequestSentAt ?? new Date(this.options.now()).toISOString(),
            scribeRequests: live.record.scribeRequests + 1,
          });
          this.counters.scribeRequests += 1;
          if (resend) this.counters.scribeResends += 1;
          return client.requestScribe(t, { sessionId, templateId: r.templateId, idempotencyKey: r.idempotencyKey }, s);
        });
        await this.save(live, { state: 'scribe_requested', scribeId: answer.id, serviceStatus: 'requested' });
        return;
      }
      default:
        return;
    }
  }

  /** One look at the scribe job; true when it has finished one way or the other. */
  private async poll(live: Live, signal: AbortSignal): Promise<boolean> {
    const r = live.record;
    this.counters.polls += 1;
    const answer = await this.withToken(live, signal, (t, s) => this.options.client.getScribe(t, r.scribeId ?? '', s));
    const kind = scribeStatusKind(answer.status);
    if (kind === 'completed') {
      await this.save(live, {
        state: 'completed',
        serviceStatus: answer.status,
        note: noteText(answer),
        noteRtf: answer.rtf?.trim() ? answer.rtf : null,
        completedAt: new Date(this.options.now()).toISOString(),
      });
      const consult = this.consultOf(live);
      if (live.record.documentId === null) this.emit('noteReady', this.snapshot(live));
      else if (consult) this.emit('documentReady', this.snapshot(consult), this.documentSnapshot(live));
      return true;
    }
    if (kind === 'failed') {
      await this.save(live, {
        state: 'failed',
        failedAt: 'scribe_requested',
        serviceStatus: answer.status,
        error: { message: answer.error ?? 'The service could not turn this recording into a note.', code: null, status: null },
      });
      return true;
    }
    if (answer.status !== r.serviceStatus) await this.save(live, { serviceStatus: answer.status });
    return false;
  }

  private async withUploadSlot<T>(signal: AbortSignal, fn: () => Promise<T>): Promise<T> {
    while (this.uploadSlots === 0) {
      await new Promise<void>((resolve) => {
        this.uploadQueue.push(resolve);
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
      if (signal.aborted) throw new ServiceError('aborted', 'upload', 'The upload was cancelled.');
    }
    this.uploadSlots -= 1;
    try {
      return await fn();
    } finally {
      this.uploadSlots += 1;
      this.uploadQueue.shift()?.();
    }
  }
}

/** A scribe request not yet sent, with its own key: what a new consult's job and a new document start from. */
function unsent(now: string) {
  return {
    failedAt: null,
    sessionId: null,
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

const DOCUMENT_OF_OLD_SERVICE = 'The app now uses another service, which does not have this request; Try again asks it for this document.';

const BAD_SIGNATURE =
  'The storage service refused the upload address as wrongly signed (SignatureDoesNotMatch); the audio is kept on this computer, and Retry asks the service for a new address.';

/** A refused or expired address (AccessDenied, or a 403 without a code) is asked for again; a bad signature is not. */
function isExpiredUploadUrl(e: ServiceError): boolean {
  if (e.code === 'SignatureDoesNotMatch') return false;
  return e.status === 403 || e.code === 'AccessDenied' || e.code === 'upload_url_expired';
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

function formatMinutes(minutes: number): string {
  if (minutes >= 1 && Number.isInteger(minutes)) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `${Math.round(minutes * 60)} seconds`;
}
