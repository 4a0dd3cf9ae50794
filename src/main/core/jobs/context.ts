// What the parts of the pipeline share: the options as resolved once, the job store, the
// consults' turns, the waits, the upload slots, the runner, the counters and the events. Each
// part is a set of functions taking this, so none of them holds a copy of another's state.
import type { EventEmitter } from 'node:events';

import type { KeyedQueue } from '../keyed-queue.ts';
import type { BackoffOptions } from '../backoff.ts';
import type { RecordingStore } from '../recordings/index.ts';
import type { ServiceClient } from '../service-client.ts';
import type { Session } from '../session.ts';
import type { DocumentInfo, JobInfo } from './record.ts';
import type { Runner } from './runner.ts';
import type { JobStore } from './store.ts';
import type { UploadSlots } from './upload-slots.ts';
import type { Waits } from './waits.ts';

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

export type ResolvedOptions = Required<Omit<PipelineOptions, 'log'>> & Pick<PipelineOptions, 'log'>;

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
}

export interface Engine {
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
  readonly runner: Runner;
  readonly counters: Counters;
  /** Two submits at once (a double click, two windows) make one job: the first one's, joined. */
  readonly submitting: Map<string, Promise<JobInfo>>;
  readonly emit: EventEmitter<PipelineEvents>['emit'];
}
