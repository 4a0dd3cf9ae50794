// The patient's name, which the service requires: it writes the note for that patient and uses
// the name to leave out talk about other pets. Recording starts without it; nothing is sent
// without it.

export const PATIENT_NAME_HINT = 'The service uses the name to leave out talk about other pets heard in the recording.';

export const PATIENT_NAME_REQUIRED_MESSAGE = "Type the patient's name first: the service needs it to write the note.";

/** Asked once a recording has stopped without a name, with the cursor in the name field. */
export const PATIENT_NAME_ASK_MESSAGE = "Type the patient's name, then press Enter to send the consult.";

/** A consult kept until its patient's name is typed: the one state line, on the Record view and in Consults. */
export const PATIENT_NAME_WAITING = "Waiting for the patient's name — type it to send";

/** Why a typed name cannot be sent, or null when it can: empty or only spaces is refused. */
export function patientNameProblem(name: string): string | null {
  return name.trim() === '' ? PATIENT_NAME_REQUIRED_MESSAGE : null;
}
