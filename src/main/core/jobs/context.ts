// What the parts of the pipeline share: the options as resolved once, the job store, the
// consults' turns, the waits, the upload slots, the runner, the counters and the events. Each
// part is a set of functions taking this, so none of them holds a copy of another's state.
import type { EventEmitter } from 'node:events';

import type { KeyedQueue } from '../platform/index.ts';
import type { RecordingMeta } from '../recordings/index.ts';
import type { SessionState } from '../sign-in/index.ts';
import type { Live } from './live.ts';
import type { ResolvedOptions } from './options.ts';
import type { DocumentInfo, JobInfo, JobRecord } from './record.ts';
import type { RecordingSessionFields } from './recording-session-asks.ts';
import type { JobStore } from './store.ts';
import type { UploadSlots } from './upload-slots.ts';
import type { Waits } from './waits.ts';

export type { PipelineOptions, ResolvedOptions } from './options.ts';

/**
 * What the parts ask of the runner (runner.ts). Declared here, not imported, because the runner
 * is given this context: the two would import each other.
 */
export interface JobRunner {
  /** Sets the consult's job going, and its documents. */
  kick(id: string): void;
  kickLive(live: Live): void;
  sessionChanged(state: SessionState): void;
  stop(): Promise<void>;
  settled(): Promise<void>;
}

/**
 * What the poll step and the runner ask of the polling (polling.ts): declared here for the same
 * reason as JobRunner.
 */
export interface JobPolling {
  /** The status board (status-board.ts), or null when every job is looked at by itself. */
  readonly board: { look(live: Live, signal: AbortSignal): Promise<ScribeStatusItem | null> } | null;
  prepare(live: Live): Promise<void>;
  skipLook(live: Live): boolean;
  seenWaiting(live: Live): boolean;
  notReady(live: Live): void;
  delay(live: Live, pollsSoFar: number): number;
  ready(live: Live, serviceSaysAt: number | null): Promise<void>;
  /** The clinic relay is live (true) or lost (false); whether it was live before. */
  setRelayLive(live: boolean): boolean;
  /** The clinic relay says this scribe's note is written (or failed), at `at`. */
  announce(scribeId: string, at: number): void;
  /** Whether the clinic relay announced this job's note: the look goes straight to it. */
  announced(live: Live): boolean;
  /** The announced look was made (`found`: the note or a failure was there); when the relay says it was written. */
  looked(live: Live, found: boolean): number | null;
}

export interface PipelineEvents {
  job: [JobInfo];
  noteReady: [JobInfo];
  documentReady: [JobInfo, DocumentInfo];
  overdue: [JobInfo];
  removed: [string];
}

/** Counts for tests and benchmarks: what this process sent. */
export interface Counters {
  scribeRequests: number;
  scribeResends: number;
  uploadUrlRenewals: number;
  transientRetries: number;
  polls: number;
  /** `GET /scribe/all` pages read for the status of the jobs in flight. */
  statusPages: number;
  /** Recording sessions made while recording; of them, those a job started from, and those left unused. */
  earlyRecordingSessions: number;
  earlyRecordingSessionsUsed: number;
  earlyRecordingSessionsUnused: number;
}

export interface JobsContext {
  readonly options: ResolvedOptions;
  readonly store: JobStore;
  /**
   * Each consult's turn: what adds to a consult or takes from it (another document, delete,
   * retention, a change of service) runs one after another, so a delete waits for an add in
   * flight and nothing is put back into a consult that is gone.
   */
  readonly turns: KeyedQueue;
  readonly waits: Waits;
  readonly uploads: UploadSlots;
  readonly runner: JobRunner;
  readonly counters: Counters;
  /** Two submits at once (a double click, two windows) make one job: the first one's, joined. */
  readonly submitting: Map<string, Promise<JobInfo>>;
  readonly emit: EventEmitter<PipelineEvents>['emit'];
  /** When a job waiting for its note looks again, and what it learns when the note comes. */
  readonly polling: JobPolling;
  /** The recording session and upload address asked for while recording (early-recording-session.ts). */
  readonly early: EarlyRecordingSessionsPart;
}

/**
 * What the commands and the pipeline ask of the recording sessions made while recording (early-recording-session.ts):
 * declared here for the same reason as JobRunner.
 */
export interface EarlyRecordingSessionsPart {
  named(recordingId: string): void;
  /**
   * For a job about to start, at once (never waiting on the network): the recording session made while
   * recording when it still fits. A fitting create still on its way is handed to the job's first
   * step, which takes over its outcome (`outcome`).
   */
  take(meta: RecordingMeta): { recordingSessionId: string; upload: JobRecord['upload'] } | null;
  /**
   * The outcome of the create handed over by `take`, while this process still waits for it:
   * its recording session when made with these details.
   */
  outcome(
    recordingId: string,
    fields: RecordingSessionFields,
  ): Promise<{ recordingSessionId: string; upload: JobRecord['upload'] } | null> | null;
  drop(recordingId: string): void;
  dropAll(): void;
}

/** What one read of `GET /scribe/all` says of a scribe job. */
export interface ScribeStatusItem {
  id: string;
  status: string;
  /** When the job last changed (ms since the epoch), when the service says. */
  updatedAt: number | null;
}
