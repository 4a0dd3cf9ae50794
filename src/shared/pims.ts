// What the window is shown of the clinic's practice-management system (PIMS): this computer's
// connection to it, the vet's own sign-in, the day's appointments, and where a consult's note
// stands in the patient's record. Plain data: no token, no PIMS address of an API call.

/** This computer's PIMS, as the clinic's IT set it up in Settings. */
export interface PimsSetup {
  /** Only Provet Cloud so far. */
  kind: 'provet';
  /** The instance's address as typed, `https://<domain>/<provet_id>`. */
  address: string;
  clientId: string;
}

/** The PIMS for the vet in front: this computer's setup, and whether they are signed in to it. */
export interface PimsStatus {
  /** The PIMS's name as a vet knows it ("Provet"); null when none is set up. */
  name: string | null;
  setup: PimsSetup | null;
  /** The vet's own sign-in to it; null when they have none. */
  signedIn: { name: string | null } | null;
  /** A sign-in through the browser is under way for this vet. */
  signingIn: boolean;
  /** The built-in sandbox's own Provet, offered in Settings while the sandbox is the service; else null. */
  sandbox: PimsSetup | null;
}

export interface PimsPatientView {
  id: string;
  name: string;
  /** As the PIMS words it ("Dog (Canine - Domestic)"); null when it does not say. */
  species: string | null;
}

/** One appointment of the day as the Record view lists it. */
export interface PimsAppointmentView {
  id: string;
  /** ISO 8601 instants. */
  start: string;
  end: string;
  /** The vet booked for it, as the PIMS names them. */
  vetName: string | null;
  /** Booked for the vet in front. */
  mine: boolean;
  patients: PimsPatientView[];
  complaint: string;
  checkedIn: boolean;
}

/** The day's appointments: the copy kept on this computer, refreshed in the background. */
export interface PimsDay {
  /** YYYY-MM-DD on this computer's calendar. */
  day: string;
  appointments: PimsAppointmentView[];
  /** When the list was last read from the PIMS; null when it never was today. */
  fetchedAt: string | null;
  /** A fresh read is under way. */
  refreshing: boolean;
  /** Why the list may be out of date (offline, signed out): one sentence; null when it is fresh. */
  problem: string | null;
}

export type PimsNoteStateName = 'not-sent' | 'sending' | 'waiting-check-in' | 'sent' | 'failed';

/** Where a consult's note stands in the patient's record in the PIMS. */
export interface PimsNoteState {
  /** The appointment and patient the consult is linked to; null when it is not linked. */
  linked: { appointmentId: string; start: string; patient: PimsPatientView | null } | null;
  state: PimsNoteStateName;
  /** When the note was confirmed in the record, and by whose sign-in. */
  sentAt: string | null;
  sentBy: string | null;
  /** The note was edited since it was sent: "Update in …" is offered. */
  changedSinceSent: boolean;
  /** What stops it, or what went wrong, in one sentence; null when nothing. */
  problem: string | null;
  /** Whether the vet in front may send it now (their consult, their sign-in, a ready note). */
  canSend: boolean;
}
