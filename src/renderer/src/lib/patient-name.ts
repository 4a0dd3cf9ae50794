// The patient's name, which the service requires: it writes the note for that patient and uses
// the name to leave out talk about other pets. Checked here before anything is sent.

export const PATIENT_NAME_HINT = 'The service uses the name to leave out talk about other pets heard in the recording.';

export const PATIENT_NAME_REQUIRED_MESSAGE = "Type the patient's name first: the service needs it to write the note.";

/** Why a typed name cannot be sent, or null when it can: empty or only spaces is refused. */
export function patientNameProblem(name: string): string | null {
  return name.trim() === '' ? PATIENT_NAME_REQUIRED_MESSAGE : null;
}
