// What the commands refuse, and why: the window shows the message as it is.
export class JobError extends Error {
  readonly code:
    | 'not_found'
    | 'no_recording'
    | 'busy'
    | 'not_failed'
    | 'bad_state'
    | 'conflict'
    | 'invalid_input'
    | 'patient_name_required';
  constructor(code: JobError['code'], message: string) {
    super(message);
    this.name = 'JobError';
    this.code = code;
  }
}

export const PATIENT_NAME_REQUIRED = "Add the patient's name before sending: the service needs it to write the note.";
