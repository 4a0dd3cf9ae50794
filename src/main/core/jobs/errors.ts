// What a job's commands say when they refuse: the sentence the window shows as it is.
export const PATIENT_NAME_REQUIRED = "Add the patient's name before sending: the service needs it to write the note.";
