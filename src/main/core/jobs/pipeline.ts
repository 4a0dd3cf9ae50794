// The upload -> scribe -> poll pipeline: one durable job per recording, each going through the
// steps of the published workflow (steps.ts), run by the runner (runner.ts) and saved at every
// step (store.ts), so a restart resumes exactly where the last run stopped. This class is the
// engine's face to the rest of the app: it wires the parts together and hands each call to the
// part that does it; README.md in this folder says which.
//
// The scribe request is sent once, and sent again (with the same Idempotency-Key) only when the
// outcome of the first send is unknown (its answer was lost, or the app died while it was in
// flight). No failure status is published for a scribe job: one unfinished for longer than the
// app waits (Settings, 30 min by default) is marked overdue, announced once, and polled slowly;
// the vet may then ask again, which sends a new scribe request for the same recording session.
import { EventEmitter } from 'node:events';

import { OVERDUE_CHECK_MINUTES } from '../../../shared/published-service.ts';
import { Actors } from '../sign-in/index.ts';
import { DEFAULT_BACKOFF, KeyedQueue } from '../platform/index.ts';
import type { IndexedJobs, RecordingMeta } from '../recordings/index.ts';
import { askAgain, deleteConsult, restartForNewService, retry, saveEditedNote, submit } from './commands.ts';
import type { JobsContext, PipelineEvents, PipelineOptions, ResolvedOptions } from './context.ts';
import { EarlyRecordingSessions } from './early-recording-session.ts';
import { memoryLedger } from './recording-session-asks.ts';
import { addDocument, documentTexts, retryDocument, type Asked } from './documents.ts';
import { applyRetention, retentionPreview, type RetentionPolicy } from './retention.ts';
import { TERMINAL, type DocumentInfo, type JobInfo } from './record.ts';
import { Polling } from './polling.ts';
import { Runner } from './runner.ts';
import { senderOf } from './sender.ts';
import { JobStore } from './store.ts';
import { UploadSlots } from './upload-slots.ts';
import { Waits } from './waits.ts';

export type { PipelineOptions } from './context.ts';
export { MAX_DOCUMENTS, type Asked } from './documents.ts';
export { PATIENT_NAME_REQUIRED } from './errors.ts';
export type { RetentionPolicy } from './retention.ts';
export { ownerOf } from './sender.ts';

export class Pipeline extends EventEmitter<PipelineEvents> {
  /** Counts for tests and benchmarks: what this process sent. */
  readonly counters = {
    scribeRequests: 0,
    scribeResends: 0,
    uploadUrlRenewals: 0,
    transientRetries: 0,
    polls: 0,
    statusPages: 0,
    earlyRecordingSessions: 0,
    earlyRecordingSessionsUsed: 0,
    earlyRecordingSessionsUnused: 0,
  };
  private readonly context: JobsContext;

  constructor(options: PipelineOptions) {
    super();
    const resolved: ResolvedOptions = {
      backoff: DEFAULT_BACKOFF,
      pollDelay: null,
      maxConcurrentUploads: 2,
      progressThrottleMs: 250,
      uploadUrlMarginMs: 30_000,
      overdueMinutes: () => 30,
      serviceKey: () => '',
      sender: (id) => store.jobs.get(id)?.record.ownerUserId ?? null,
      slowPollMs: OVERDUE_CHECK_MINUTES * 60_000,
      now: Date.now,
      pollPlanFile: null,
      relaySafetyNetMs: 60_000,
      statusBoard: true,
      earlyRecordingSession: true,
      earlyRecordingSessionDelayMs: 10_000,
      earlyRecordingSessionAfterMs: 60_000,
      recordingSessions: memoryLedger(),
      ...options,
      actors:
        options.actors ??
        new Actors({
          session: options.session,
          ...(options.background ? { background: options.background } : {}),
          serviceKey: options.serviceKey ?? (() => ''),
        }),
    };
    const waits = new Waits();
    const store = new JobStore(resolved, (consult) => {
      if (consult) this.emit('job', consult);
      waits.lookAgain();
    });
    const context: Omit<JobsContext, 'runner' | 'polling' | 'early'> = {
      options: resolved,
      store,
      turns: new KeyedQueue(),
      waits,
      uploads: new UploadSlots(resolved.maxConcurrentUploads),
      counters: this.counters,
      submitting: new Map(),
      emit: this.emit.bind(this),
    };
    // The runner is the one part that uses all the others: it is given the context it completes.
    this.context = Object.assign(context, {
      runner: new Runner(context as JobsContext),
      polling: new Polling(context as JobsContext, resolved.pollPlanFile ?? null, resolved.statusBoard !== false),
      early: new EarlyRecordingSessions(context as JobsContext),
    });
    resolved.session.on('changed', (state) => this.context.runner.sessionChanged(state));
    // A background sign-in kept or ended: waiting jobs look again at whose sign-in they go with.
    resolved.background?.on('changed', () => {
      for (const id of store.jobs.keys()) this.context.runner.kick(id);
      waits.lookAgain();
    });
  }

  /**
   * Whether this user has work on its way (not yet written, not failed): their consults, and what
   * they asked for on a colleague's (a document, Ask again). A background sign-in lasts for its
   * own vet's work only: a colleague's document on this vet's consult does not keep it.
   */
  inFlightFor(userId: string): boolean {
    const { store } = this.context;
    return store
      .allLive()
      .some((live) => !TERMINAL.has(live.record.state) && senderOf(this.context, live.record) === userId);
  }

  /** At launch: loads every job (of the recordings given, else of every recording) and resumes those that were under way. */
  async init(
    recordings?: readonly RecordingMeta[],
    listing?: ReadonlyMap<string, readonly string[]>,
    indexed?: ReadonlyMap<string, IndexedJobs>,
  ): Promise<void> {
    await this.context.store.load(recordings ?? (await this.context.options.recordings.list()), listing, indexed);
    for (const id of this.context.store.jobs.keys()) this.context.runner.kick(id);
  }

  /** A consult's job and documents as the consults' index keeps them. */
  indexed(recordingId: string): IndexedJobs {
    return this.context.store.indexed(recordingId);
  }

  info(id: string): JobInfo | null {
    const live = this.context.store.jobs.get(id);
    return live ? this.context.store.snapshot(live) : null;
  }

  list(): JobInfo[] {
    return [...this.context.store.jobs.values()].map((l) => this.context.store.snapshot(l));
  }

  /** The text of every further document of a consult (the vet's edit when there is one), for search. */
  documentTexts(recordingId: string): string[] {
    return documentTexts(this.context.store, recordingId);
  }

  /**
   * Sends a finished recording to be scribed; a second submit joins the first. `noted` (the
   * consult's trail saying "sent") is told once the job is on disk, before it starts; when it
   * fails, nothing is sent.
   */
  submit(recordingId: string, templateId: string, noted?: () => Promise<unknown>): Promise<JobInfo> {
    return submit(this.context, recordingId, templateId, noted);
  }

  /** Every job without its note starts again for the service the app now talks to. */
  restartForNewService(): Promise<{ restarted: number; failed: { recordingId: string; message: string }[] }> {
    this.context.early.dropAll();
    return restartForNewService(this.context);
  }

  /** A failed job starts again at the step that failed; one waiting out a backoff goes now. */
  retry(recordingId: string, templateId?: string, asked?: Asked): Promise<JobInfo> {
    return retry(this.context, recordingId, templateId, asked);
  }

  /** A new scribe request for a late (or failed) note of the same recording session, with the asking vet's sign-in. */
  askAgain(recordingId: string, asked: Asked = {}): Promise<JobInfo> {
    return askAgain(this.context, recordingId, asked);
  }

  /** Whether the consult has reached the service (its recording session exists there). */
  sent(recordingId: string): boolean {
    const live = this.context.store.jobs.get(recordingId);
    return live !== undefined && live.record.recordingSessionId !== null;
  }

  /** Starts again a job that waited for the patient's name, now that it has one. */
  async resumeWithPatientName(recordingId: string): Promise<void> {
    const live = this.context.store.jobs.get(recordingId);
    if (live?.record.state === 'failed' && live.record.error?.code === 'patient_name_required')
      await this.retry(recordingId);
  }

  /** Deletes the consult in its turn: its jobs stop, then its folder goes, then `alsoRemove` (its drafts). */
  delete(recordingId: string, alsoRemove?: () => Promise<void>): Promise<void> {
    // A recording session made while recording is left unused: nothing of this recording is uploaded.
    this.context.early.drop(recordingId);
    return deleteConsult(this.context, recordingId, alsoRemove);
  }

  /** Runs `task` in the consult's turn (after what is already asked of it, before what comes next). */
  inTurn<T>(recordingId: string, task: () => Promise<T>): Promise<T> {
    return this.context.turns.run(recordingId, task);
  }

  /** The consult's owner changed (a vet claimed it): a job that waited for a claim looks again. */
  ownerChanged(recordingId: string): void {
    this.context.runner.kick(recordingId);
    this.context.waits.lookAgain();
  }

  /** The user a job record of an older version names as its sender (for a consult whose meta names no owner). */
  legacySender(recordingId: string): string | null {
    return this.context.store.jobs.get(recordingId)?.record.ownerUserId ?? null;
  }

  /** Whether the consult has a job (it was sent, or is waiting to be). */
  hasJob(recordingId: string): boolean {
    return this.context.store.jobs.has(recordingId);
  }

  /** The consult's note, or one of its further documents. */
  note(
    recordingId: string,
    documentId: string | null = null,
  ): { note: string | null; editedNote: string | null; noteRtf: string | null } {
    const { record } = this.context.store.find(recordingId, documentId);
    return { note: record.note, editedNote: record.editedNote, noteRtf: record.noteRtf };
  }

  /** The vet's own edit of the note, kept beside the service's text. null = back to the original. */
  saveEditedNote(recordingId: string, text: string | null, documentId: string | null = null): Promise<void> {
    return saveEditedNote(this.context, recordingId, text, documentId);
  }

  /** The service's scribe of a consult's note (or of one of its documents); null before it was asked for. */
  scribeOf(recordingId: string, documentId: string | null = null): string | null {
    try {
      return this.context.store.find(recordingId, documentId).record.scribeId;
    } catch {
      return null;
    }
  }

  /** "Another document…": one more scribe request for the consult's recording session, in its turn. */
  addDocument(
    recordingId: string,
    templateId: string,
    name: string | null = null,
    again: string | null = null,
    asked: Asked = {},
  ): Promise<DocumentInfo> {
    return addDocument(this.context, recordingId, templateId, name, again, asked);
  }

  /** A failed or late document is asked for again, under a new key, with the asking vet's sign-in. */
  retryDocument(recordingId: string, documentId: string, asked: Asked = {}): Promise<DocumentInfo> {
    return retryDocument(this.context, recordingId, documentId, asked);
  }

  /** How many recordings' audio a policy would delete now, counted from each note. */
  retentionPreview(policy: RetentionPolicy): number {
    return retentionPreview(this.context, policy);
  }

  /** Deletes the audio past each consult's retention, each in its consult's turn. */
  applyRetention(policy: RetentionPolicy): Promise<string[]> {
    return applyRetention(this.context, policy);
  }

  /**
   * The clinic relay became live or was lost. Live: jobs waiting for their notes look only as a
   * safety net, their next look pushed back. Lost: every job waiting for its note looks now and
   * goes on with the learned plan, so an event missed while the relay went quiet costs nothing.
   */
  relayLive(live: boolean): void {
    const { polling } = this.context;
    const was = polling.setRelayLive(live);
    // Only the moment it is lost: a relay tried again and again does not make every job look each time.
    if (live || !was) return;
    for (const job of this.context.store.allLive())
      if (job.record.state === 'scribe_requested') this.context.waits.wake(job);
  }

  /**
   * The clinic relay says a scribe's note is written (or failed): the job waiting for it, if
   * this computer has one, fetches it now with one GET /scribe/get. `at`: when the relay got it.
   */
  noteWritten(scribeId: string, at: number): void {
    const { polling } = this.context;
    const jobs = this.context.store
      .allLive()
      .filter((job) => job.record.scribeId === scribeId && job.record.state === 'scribe_requested');
    const waiting = jobs.length > 0 || this.context.store.allLive().some((job) => job.record.state === 'uploaded');
    // Kept only while a job of this computer could be waiting for it (its scribe request on its way).
    if (waiting) polling.announce(scribeId, at);
    for (const job of jobs) this.context.waits.wake(job);
  }

  /** Stops every loop (quitting, or tests); jobs resume from their files at the next init. */
  stop(): Promise<void> {
    this.context.early.dropAll();
    return this.context.runner.stop();
  }

  /** Resolves when every job has finished (completed or failed). For tests and tools. */
  settled(): Promise<void> {
    return this.context.runner.settled();
  }
  /**
   * The service's ids of every consult on this computer (or of one): recording sessions and
   * scribes, documents included.
   */
  serviceIds(recordingId?: string): { recordingSessionIds: Set<string>; scribeIds: Set<string> } {
    const recordingSessionIds = new Set<string>();
    const scribeIds = new Set<string>();
    const { store } = this.context;
    for (const { record } of recordingId === undefined ? store.allLive() : store.consultAndDocuments(recordingId)) {
      if (record.recordingSessionId !== null) recordingSessionIds.add(record.recordingSessionId);
      if (record.scribeId !== null) scribeIds.add(record.scribeId);
    }
    return { recordingSessionIds, scribeIds };
  }

  /**
   * The patient's name (or description) of a recording still going was set or changed: its
   * recording session and upload address are asked for once it settles, so Stop goes straight to the upload.
   */
  recordingNamed(recordingId: string): void {
    this.context.early.named(recordingId);
  }
}
