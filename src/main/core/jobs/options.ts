// The pipeline's options, as given and as resolved once with their defaults. Apart from
// context.ts so that the job store, which takes them, and the context, which holds the store,
// do not import each other.
import type { Actors, BackgroundSessions, Session } from '../sign-in/index.ts';
import type { BackoffOptions } from '../platform/index.ts';
import type { RecordingStore } from '../recordings/index.ts';
import type { ServiceClient } from '../service/index.ts';
import type { RecordingSessionLedger } from './recording-session-asks.ts';

export interface PipelineOptions {
  recordings: RecordingStore;
  session: Session;
  /** The sign-ins of vets who switched user with consults in flight: theirs go on with them. */
  background?: BackgroundSessions;
  /**
   * The sign-ins a request a vet asked for goes with (one more document, Ask again): theirs only.
   * Absent: made from `session`, `background` and `serviceKey`.
   */
  actors?: Actors;
  client: ServiceClient;
  backoff?: BackoffOptions;
  /** A fixed poll schedule (tests); absent or null: the learned plan (polling.ts). */
  pollDelay?: ((pollsSoFar: number) => number) | null;
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
  /**
   * How often a job waiting for its note looks while the clinic relay is live (it announces the
   * note): a safety net for a delivery that never comes. Default 60 s.
   */
  relaySafetyNetMs?: number;
  /** Where what the app learned of the service's time per note is kept; null = this run only. */
  pollPlanFile?: string | null;
  /** Whether several jobs in flight are looked at through one `GET /scribe/all` read (default true). */
  statusBoard?: boolean;
  /** Whether the recording session and its upload address are asked for while recording (default true). */
  earlyRecordingSession?: boolean;
  /** How long the patient's name must stay unchanged while recording before its recording session is asked for. */
  earlyRecordingSessionDelayMs?: number;
  /** How much audio (pauses not counted) must be recorded before the recording session is asked for while recording. */
  earlyRecordingSessionAfterMs?: number;
  /**
   * Where every recording session asked for and made here is noted (the clinic's
   * `recorded-here.json`); absent, it is kept in memory.
   */
  recordingSessions?: RecordingSessionLedger;
}

export type ResolvedOptions = Required<Omit<PipelineOptions, 'log' | 'background'>> &
  Pick<PipelineOptions, 'log' | 'background'>;
