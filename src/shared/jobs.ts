// A recording's way through the service, as main tells the window about it.
export const JOB_STATES = [
  'recorded',
  'recording_session_created',
  'upload_url',
  'uploaded',
  'scribe_requested',
  'completed',
  'failed',
] as const;
export type JobState = (typeof JOB_STATES)[number];

/** The states in which a consult's audio has not yet reached the service: an update's restart waits for them. */
export const SENDING_STATES: ReadonlySet<JobState> = new Set(['recorded', 'recording_session_created', 'upload_url']);

/** The vet who asked for a scribe request on a consult: who it goes with, and who to sign in as. */
export interface AskedBy {
  userId: string;
  name: string;
  email: string;
}

/** What the window is told about a job: plain data, never a live object. */
export interface JobInfo {
  recordingId: string;
  templateId: string;
  state: JobState;
  /** Why a job that is not finished is not moving right now. */
  waitingFor: 'network' | 'sign-in' | 'owner' | 'claim' | 'service' | null;
  /**
   * While waiting for the network because of the clinic's network setup (a proxy that refuses,
   * a certificate this computer does not trust, proxy settings that cannot be read): the
   * sentence saying what failed and what to ask IT. Null otherwise.
   */
  waitingReason: string | null;
  /**
   * The vet who asked for the request under way when they asked for it on the consult (Ask
   * again, possibly a colleague of its owner): it goes with their sign-in only, and waits for
   * them (`waitingFor: 'owner'`) while they are not signed in here. Null: the owner's own request.
   */
  askedBy: AskedBy | null;
  bytesSent: number;
  bytesTotal: number;
  /** The service's own word for the scribe status, verbatim (it may be one we do not know). */
  serviceStatus: string | null;
  error: { message: string; code: string | null; status: number | null } | null;
  nextRetryAt: number | null;
  hasNote: boolean;
  /** The vet has edited the note (the service's original is kept beside it). */
  edited: boolean;
  /**
   * The service has not finished this note for longer than the app waits (Settings, 30 min by
   * default; no failure status is published): the vet is told in words and may ask again.
   */
  overdue: boolean;
  audioDeleted: boolean;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
  /**
   * More documents from the same recording (discharge instructions after the SOAP note): each a
   * scribe request of its own for the consult's recording session, oldest first.
   */
  documents: DocumentInfo[];
}

/**
 * One more document of a consult. It waits (`waitingFor: 'turn'`) until the consult's note and
 * every document asked for before it are done, then goes `uploaded` (its request about to
 * leave) -> `scribe_requested` -> `completed`, or `failed` with the service's words.
 */
export interface DocumentInfo {
  id: string;
  /** The template's name when the vet asked for it (the tab's title); null if it was not known. */
  name: string | null;
  templateId: string;
  state: JobState;
  waitingFor: 'turn' | 'network' | 'sign-in' | 'owner' | 'claim' | 'service' | null;
  /**
   * The vet who asked for the document (or asked for it again), by name: it goes with their
   * sign-in only, and waits for them (`waitingFor: 'owner'`) while they are not signed in here.
   * Null in documents asked for before this was kept: they go with the consult's owner.
   */
  askedBy: AskedBy | null;
  serviceStatus: string | null;
  error: { message: string; code: string | null; status: number | null } | null;
  hasNote: boolean;
  edited: boolean;
  overdue: boolean;
  createdAt: string;
  /** Changes whenever the document's record does (its note read again, an edit saved). */
  updatedAt: string;
  completedAt: string | null;
}
