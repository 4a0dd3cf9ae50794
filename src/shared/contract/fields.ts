// What the parts of the IPC contract share: the phantom carriers of an answer's and an event's
// type, and the schemas of the fields several domains take (a consult's id, a patient's name, a
// document). Each schema says what was wrong in words, which main sends back to the window.
import { z } from 'zod';
import { MAX_CHAT_MESSAGE, MAX_DESCRIPTION, MAX_LABEL, MAX_PATIENT_NAME, MAX_PETS } from '../limits.ts';

/** A phantom carrier of an answer's type; the table holds no value for it at run time. */
export const answer = <T>() => undefined as unknown as T;
/** A phantom carrier of an event's payload type, as `answer` is of an answer's. */
export const payload = <T>() => undefined as unknown as T;
/** A call that takes nothing. */
export const none = z.undefined();

export const id = z
  .string()
  .min(1, 'is required')
  .max(100, 'is too long')
  .regex(/^[A-Za-z0-9._:-]+$/, 'has characters an id cannot have');
export const label = z.string().trim().max(MAX_LABEL, `is longer than ${MAX_LABEL} characters`);
/** The service requires the patient's name and uses it to leave out talk about other pets. */
export const patientName = z
  .string()
  .trim()
  .min(1, 'is required: the name of the patient in this consult')
  .max(MAX_PATIENT_NAME, `is longer than ${MAX_PATIENT_NAME} characters`);
/** The other pets seen in one visit, each a patient's name or '' (named later). */
export const pets = z
  .array(z.string().trim().max(MAX_PATIENT_NAME, `is longer than ${MAX_PATIENT_NAME} characters`))
  .max(MAX_PETS, `can name at most ${MAX_PETS} other pets`);
export const description = z.string().trim().max(MAX_DESCRIPTION, `is longer than ${MAX_DESCRIPTION} characters`);
/** What a note is copied or exported as; each flavour is at most this long. */
export const MAX_NOTE_FORMAT_CHARS = 4_000_000;
/** A message to the clinical assistant about a consult. */
export const chatMessage = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(MAX_CHAT_MESSAGE, `is longer than ${MAX_CHAT_MESSAGE} characters`);
/** One more document of a consult (discharge instructions after the note). */
export const requiredDocumentId = z.string().regex(/^[A-Za-z0-9-]{1,40}$/, 'is not a document of a consult');
/** A document of a consult; absent: the consult's note. */
export const documentId = requiredDocumentId.optional();
