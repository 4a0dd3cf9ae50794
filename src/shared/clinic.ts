// The clinic's consults from the service (recorded on another computer, or elsewhere), as main
// keeps them and the window lists them beside this computer's.

/** One consult of the organization that this computer did not record. */
export interface ClinicConsult {
  /** Unique in the list: `scribe:<id>` for a note, `recording-session:<id>` for a recording session with no note linked. */
  key: string;
  /** The scribe (the note) on the service; null for a recording session with no note linked to it. */
  scribeId: string | null;
  /** The recording session, when the service says which it is; never guessed. */
  recordingSessionId: string | null;
  /** From the linked recording session; null when the note is not linked to one. */
  patientName: string | null;
  description: string | null;
  templateId: string | null;
  templateName: string | null;
  /** The service's status word, verbatim; null for a recording session. */
  status: string | null;
  /** ISO time of the service's last change. */
  updatedAt: string;
  /** Its note was read and is kept on this computer (opens offline). */
  noteKept: boolean;
  /** The kept note's words, lowercase, for the search; absent until the note is read. */
  noteWords?: string;
  /**
   * For a visit with no note linked: the notes linked to no visit that were written around its
   * time, any of which could be its own (each a note of its own, its patient not named, newest
   * last). Absent on a note.
   */
  candidates?: ClinicConsult[];
}

/** What a note says in place of its patient when the service does not name the patient. */
export const NOT_NAMED = 'Patient not named by the service';

/** What a note shown from the service says: only its original is there to read. */
export const SERVICE_ORIGINAL = "The service's original: it may have been edited on the PC where it was recorded.";

/**
 * What a note shown from the service says when its edit was announced: where, by whom and when,
 * and that what is shown is still the service's original. The time is the vet's clock's; a day
 * other than today is named.
 */
export function editedElsewhereLine(edit: EditedElsewhere, now: Date = new Date()): string {
  const at = new Date(edit.at);
  const time = at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  const sameDay = at.toDateString() === now.toDateString();
  const when = sameDay ? `at ${time}` : `on ${at.toLocaleDateString([], { dateStyle: 'medium' })} at ${time}`;
  return `Edited on ${edit.room} by ${edit.by} ${when}. This is the service's original: the edited note is on that PC.`;
}

/** The note of `key` in the list: a row of its own, or one of a visit's candidates. */
export function findClinicConsult(consults: readonly ClinicConsult[], key: string): ClinicConsult | undefined {
  return consults.find((c) => c.key === key) ?? consults.flatMap((c) => c.candidates ?? []).find((c) => c.key === key);
}

/** The note of scribe `scribeId` in the list, as `findClinicConsult` finds it. */
export function findClinicNote(consults: readonly ClinicConsult[], scribeId: string): ClinicConsult | undefined {
  return (
    consults.find((c) => c.scribeId === scribeId) ??
    consults.flatMap((c) => c.candidates ?? []).find((c) => c.scribeId === scribeId)
  );
}

export interface ClinicView {
  consults: ClinicConsult[];
  /** When the list was last read from the service; null if never (for this account). */
  refreshedAt: string | null;
  /** The last refresh's failure as one sentence; null when it worked. */
  error: string | null;
  /** The service listed more than the app reads; the newest are shown. */
  truncated: boolean;
}

/** An edit of a note announced through the clinic relay by the PC where it was made: who, where and when, never its text. */
export interface EditedElsewhere {
  /** The computer it was edited on ("Exam room 1"). */
  room: string;
  /** The vet who edited it. */
  by: string;
  /** When the edit was saved (ISO 8601). */
  at: string;
}

/** A note from the service, as the window shows it. */
export interface ClinicNote {
  key: string;
  note: string;
  rtf: string | null;
  patientName: string | null;
  recordingSessionDate: string | null;
  templateName: string | null;
  /** The last edit the clinic relay announced of it; absent when none was heard. */
  editedElsewhere?: EditedElsewhere | null;
}

/** A note's text as the search reads it: lowercase, each run of spaces and lines one space. */
export function searchableWords(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/**
 * Whether a consult from elsewhere has every word typed: in its patient, visit or template's
 * name, or in its note once the note was read (the service is not searched for notes unread);
 * a visit, in those of its candidate notes too.
 */
export function clinicMatches(consult: ClinicConsult, typed: string): boolean {
  const words = typed.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  // A visit is found by its candidate notes' words too: the note that is its own may be one of them.
  const candidates = (consult.candidates ?? []).flatMap((c) => [c.templateName, c.noteWords]);
  const haystack = [consult.patientName, consult.description, consult.templateName, consult.noteWords, ...candidates]
    .filter(Boolean)
    .join(' ')
    .toLowerCase();
  return words.every((w) => haystack.includes(w));
}
