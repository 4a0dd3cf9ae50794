// The practice-management system (PIMS) as the rest of the app asks it: today's appointments of a
// vet, a patient, the visit's consultation, and the clinical note written into it. No PIMS's own
// words or paths appear here, so a second PIMS is one more adapter behind the same port.

/** One pet of an appointment, as the PIMS keeps it. */
export interface PimsPatient {
  id: string;
  name: string;
  /** The species as the PIMS words it ("Dog (Canine - Domestic)"); null when it does not say. */
  species: string | null;
}

/** A booked visit of the day: one or several pets, one vet, perhaps already opened as a consultation. */
export interface PimsAppointment {
  id: string;
  /** ISO 8601 instants. */
  start: string;
  end: string;
  vet: { id: string; name: string | null } | null;
  patients: PimsPatient[];
  /** Why the pet comes, as the clinic wrote it ('' when it wrote nothing). */
  complaint: string;
  /** The visit's consultation once the pet is checked in; null until then. */
  consultationId: string | null;
}

/** A visit as opened in the PIMS (the pet checked in), where clinical notes go. */
export interface PimsConsultation {
  id: string;
  patientIds: string[];
  /** Notes can no longer be changed without a further permission. */
  finalized: boolean;
}

/** A clinical note in a consultation, as read back. */
export interface PimsNote {
  id: string;
  consultationId: string;
  patientId: string;
  text: string;
}

export interface WriteNote {
  consultationId: string;
  patientId: string;
  text: string;
  /**
   * A line the app puts in the note it writes so that, when the answer to a write was lost, the
   * note can be found among the consultation's notes before anything is sent again.
   */
  marker: string;
}

/**
 * The whole text a note is written with: the vet's text, a blank line, the marker last. Every
 * adapter writes it so, and the app compares a note read back with it.
 */
export function noteWithMarker(text: string, marker: string): string {
  return `${text.trimEnd()}\n\n${marker}`;
}

export interface Pims {
  /** The appointments of one day (`day` as YYYY-MM-DD, the clinic's local day), every page read. */
  todaysAppointments(vet: { id: string } | null, day: string): Promise<PimsAppointment[]>;
  patient(id: string): Promise<PimsPatient>;
  /**
   * The consultation an appointment was opened as; null while the pet is not checked in;
   * `not_found` when the appointment is gone, or was cancelled before check-in.
   */
  findConsultation(appointmentId: string): Promise<PimsConsultation | null>;
  /** Writes `text` with `marker` as its last line (see `noteWithMarker`); the note as answered. */
  writeNote(note: WriteNote): Promise<PimsNote>;
  readNotes(consultationId: string): Promise<PimsNote[]>;
  /** One note read back, to confirm a write; null when it is not there (any more). */
  readNote(consultationId: string, noteId: string): Promise<PimsNote | null>;
  updateNote(note: WriteNote & { noteId: string }): Promise<PimsNote>;
}

/**
 * What a caller must tell apart when the PIMS does not do what was asked. Each says what to do:
 * wait for check-in, ask for a permission, fix the text, sign in again, wait, try later.
 */
export type PimsErrorCode =
  // The pet is not checked in yet: the visit has no consultation to write into.
  | 'not_checked_in'
  // The consultation is finalized: its notes need a further permission to change.
  | 'finalized'
  // The signed-in user's own PIMS permissions do not allow it (HTTP 403).
  | 'permission'
  // The PIMS refused what was sent (HTTP 400), with its reasons per field.
  | 'refused'
  // What was named is not there (HTTP 404).
  | 'not_found'
  // No valid sign-in: the tokens are gone, refused or could not be refreshed.
  | 'signed_out'
  // Too many calls: wait `retryAfterMs` before the next.
  | 'rate_limited'
  // The PIMS could not be reached, timed out or failed on its side (5xx).
  | 'unreachable'
  // The PIMS answered something the app cannot read.
  | 'invalid_answer'
  // A setting or input was wrong before anything was sent (an address, a client ID).
  | 'bad_input'
  // The sign-in in the browser did not come back (cancelled, closed, timed out, tampered with).
  | 'sign_in_failed';

export class PimsError extends Error {
  readonly code: PimsErrorCode;
  readonly status: number | undefined;
  /** For `rate_limited`: how long the PIMS asked to wait, in ms. */
  readonly retryAfterMs: number | undefined;
  /** For `refused`: the PIMS's reasons, per field of what was sent. */
  readonly fieldErrors: Readonly<Record<string, string[]>>;
  constructor(
    code: PimsErrorCode,
    message: string,
    extra: { status?: number; retryAfterMs?: number; fieldErrors?: Record<string, string[]>; cause?: unknown } = {},
  ) {
    super(message, extra.cause === undefined ? undefined : { cause: extra.cause });
    this.name = 'PimsError';
    this.code = code;
    this.status = extra.status;
    this.retryAfterMs = extra.retryAfterMs;
    this.fieldErrors = extra.fieldErrors ?? {};
  }

  /** Worth trying again later without the vet doing anything. */
  get transient(): boolean {
    return this.code === 'rate_limited' || this.code === 'unreachable';
  }
}
