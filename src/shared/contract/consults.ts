// The window's calls and events about the consults on this computer: recording one
// (`recording:*`, src/main/core/consults/recorder-calls.ts), and everything done with it after
// (`consults:*`, src/main/core/consults/calls.ts), with the shapes the window is shown.
import { z } from 'zod';
import type { JobInfo } from '../jobs.ts';
import type { DdxResult } from '../service/index.ts';
import type { TrailEntry } from '../trail.ts';
import { MAX_AGENT_INPUT, MAX_CHUNK_BYTES, MAX_LABEL, MAX_TEMPLATE_ID } from '../limits.ts';
import {
  answer,
  chatMessage,
  description,
  documentId,
  id,
  label,
  none,
  patientName,
  payload,
  pets,
  requiredDocumentId,
} from './fields.ts';

/** Who recorded a consult: the signed-in account at the time. */
export interface ConsultOwner {
  userId: string;
  organizationId: string;
  name: string;
  email: string;
  /** The service the account is of ('sandbox', or the scribing address): elsewhere it owns nothing. */
  service: string;
}

export const RECORDING_STATES = ['recording', 'paused', 'finished', 'recovered'] as const;
export type RecordingState = (typeof RECORDING_STATES)[number];

/**
 * What a recording is, as both its saved meta.json (src/main/core/recordings/meta.ts, which
 * adds what only the engine needs) and the window (RecordingInfo) see it: declared once so the
 * two cannot drift apart.
 */
export interface RecordingFacts {
  id: string;
  startedAt: string;
  finishedAt: string | null;
  durationMs: number;
  mimeType: string;
  label: string | null;
  /** The patient the consult is about, as sent to the service (required before sending). */
  patientName: string | null;
  /** The visit's description, optional; sent as the recording session's description. */
  description: string | null;
  templateId: string | null;
  state: RecordingState;
  bytes: number;
  /** When the pet owner's consent to the recording was confirmed at Start (Settings asks); null when not asked. */
  consentAt: string | null;
  /** The name the vet listed the consult under after sending it (this computer only); null when not renamed. */
  listName: string | null;
  /**
   * Several pets seen in one visit share one recording: each pet is a consult of its own, and
   * all of them carry the visit's id (the first pet's recording id). Absent or null: one pet.
   */
  visitId?: string | null;
}

/** A recording as the window is shown it; main maps a meta to it at the IPC edge. */
export interface RecordingInfo extends RecordingFacts {
  /** The account that recorded it (its consult goes with that account only); null for older recordings. */
  recordedBy: ConsultOwner | null;
}

/** The engine that answers and the number of changes it has made to the consults list. */
export interface ConsultsRevision {
  engine: string;
  revision: number;
}

/**
 * Where a consult is on its way from the microphone to a note, worked out by the engine
 * (src/main/core/consults/stage.ts) from the recording, its job and what the vet in front may do
 * with it; the window puts it in words and never works it out again:
 * - `recording`, `paused`: being recorded;
 * - `claim`: no one signed in here owns it; the vet in front may send it as theirs;
 * - `recovered`: cut short by a crash and recovered, not sent yet;
 * - `needs-name`: waits for the patient's name; `needs-template`: for a template to send it;
 * - `waiting`: held up, for what the job's `waitingFor` says;
 * - `preparing`, `upload`, `uploaded`, `scribing`, `late`: on its way (late: the note is
 *   overdue); `ready`: the note is there; `failed`: the job's `error` says why.
 */
export type ConsultStage =
  | 'recording'
  | 'paused'
  | 'claim'
  | 'recovered'
  | 'needs-name'
  | 'needs-template'
  | 'waiting'
  | 'preparing'
  | 'upload'
  | 'uploaded'
  | 'scribing'
  | 'late'
  | 'ready'
  | 'failed';

export interface ConsultInfo {
  recording: RecordingInfo;
  job: JobInfo | null;
  /** Where it is, as the engine works it out for the vet in front. */
  stage: ConsultStage;
  /** Whether it waits for the patient's name before it can go to the service. */
  needsPatientName: boolean;
  /**
   * Present on a consult no one signed in here owns (recorded while signed out, or by this vet
   * under another service): the vet may claim it (consults:claim) and nothing more until then.
   */
  claimable?: true;
  /**
   * Why the vet in front may not delete this consult (it is a colleague's: only the vet who
   * recorded it may), in one sentence; absent when they may. Worked out by the engine, so the
   * window shows the reason instead of a Delete that would be refused.
   */
  deleteRefused?: string;
  /** Why they may not send it (an unsent consult of a colleague's), in one sentence; absent when they may. */
  sendRefused?: string;
  /** Why they may not change its patient or details (an unsent consult of a colleague's); absent when they may. */
  changeRefused?: string;
  /** Why they may not retry it (an unsent consult of a colleague's); absent when they may. */
  retryRefused?: string;
  /** Why they may not ask the service again for its note; absent when they may. */
  askAgainRefused?: string;
}

/** A note in the three flavours a practice-management system can paste, and a file name base. */
export interface NoteFormats {
  text: string;
  html: string;
  rtf: string;
  /** `Bella 2026-11-24`: patient and local date, safe as a file name. */
  fileBase: string;
}

export interface NoteExport {
  fileName: string;
  mimeType: string;
  data: Uint8Array;
}

/** An agent's answer kept with a consult: differentials asked from its note. */
export interface KeptAnswer {
  /** Its own id, unique within the consult. */
  answerId: string;
  kind: 'ddx';
  /** When it was asked (ISO time). */
  askedAt: string;
  /** The text sent: the note as plain text. */
  question: string;
  result: DdxResult;
}

/** One turn of a conversation about a consult: the vet's message and the assistant's answer. */
export interface ChatTurn {
  turnId: string;
  /** When it was asked (ISO time). */
  askedAt: string;
  message: string;
  answer: string;
  /** One sentence about the turn, when there is something to say (the note was cut, the conversation started again). */
  notice?: string;
}

export const consultsInvokes = {
  'recording:start': {
    input: z.object({
      mimeType: z
        .string()
        .max(100)
        .regex(/^audio\/[\w.+-]+(;\s*codecs=[\w.,+-]+)?$/i, 'must be an audio type such as audio/webm;codecs=opus'),
      label: label.optional(),
      patientName: patientName.optional(),
      description: description.optional(),
      templateId: z.string().max(MAX_TEMPLATE_ID).nullable().optional(),
      /** The vet confirmed the pet owner's consent (Settings asks before recording). */
      petOwnerConsented: z.literal(true).optional(),
    }),
    output: answer<RecordingInfo>(),
  },
  'recording:chunk': {
    input: z.object({
      id,
      seq: z.number().int().min(0).max(10_000_000),
      data: z
        .instanceof(Uint8Array, { message: 'must be bytes' })
        .refine((d) => d.byteLength <= MAX_CHUNK_BYTES, `must be at most ${MAX_CHUNK_BYTES} bytes`),
      elapsedMs: z
        .number()
        .min(0)
        .max(48 * 3600 * 1000),
    }),
    output: answer<{ bytes: number; chunks: number }>(),
  },
  'recording:pause': { input: z.object({ id }), output: answer<RecordingInfo>() },
  'recording:resume': { input: z.object({ id }), output: answer<RecordingInfo>() },
  'recording:stop': {
    input: z.object({
      id,
      durationMs: z
        .number()
        .min(0)
        .max(48 * 3600 * 1000)
        .optional(),
      /**
       * The other pets of the visit, each a patient's name or '' (named later): each becomes a
       * consult of its own with the same audio, sent with the first pet's template.
       */
      pets: pets.optional(),
    }),
    output: answer<ConsultInfo>(),
  },
  'consults:update': {
    input: z.object({
      id,
      label: label.nullable().optional(),
      patientName: patientName.optional(),
      description: description.nullable().optional(),
      templateId: z.string().max(MAX_TEMPLATE_ID).nullable().optional(),
      /** The name in this computer's consults list; changes at any time (the service keeps the patient's). */
      listName: label.nullable().optional(),
    }),
    output: answer<ConsultInfo>(),
  },
  'consults:list': { input: none, output: answer<ConsultInfo[]>() },
  'consults:submit': {
    input: z.object({ id, templateId: z.string().min(1, 'is required').max(MAX_TEMPLATE_ID) }),
    output: answer<ConsultInfo>(),
  },
  'consults:retry': { input: z.object({ id }), output: answer<ConsultInfo>() },
  /** "Recorded while signed out: send it as Dr …?": the vet signed in takes the consult as theirs; it is then sent with their sign-in. */
  'consults:claim': { input: z.object({ id }), output: answer<ConsultInfo>() },
  'consults:delete': { input: z.object({ id }), output: answer<{ deleted: true }>() },
  'consults:note': {
    input: z.object({ id, documentId }),
    output: answer<{
      note: string | null;
      editedNote: string | null;
      rtf: string | null;
      patientName: string | null;
      recordingSessionDate: string | null;
      documentName: string | null;
      /** The other vets with unsaved changes to this note (their names; their text is theirs alone). */
      othersEditing: string[];
    }>(),
  },
  /** The note (the vet's edit when there is one) as text, HTML and RTF, for the clipboard. */
  'consults:noteFormats': { input: z.object({ id, documentId }), output: answer<NoteFormats>() },
  'consults:export': {
    input: z.object({ id, documentId, format: z.enum(['txt', 'rtf', 'pdf']) }),
    output: answer<NoteExport>(),
  },
  /** A scribe job unfinished for long: asks the service again for the same recording. */
  'consults:askAgain': { input: z.object({ id }), output: answer<ConsultInfo>() },
  'consults:saveNote': {
    input: z.object({ id, documentId, text: z.string().max(500_000, 'is too long').nullable() }),
    output: answer<{ saved: true }>(),
  },
  /** The asking vet's own unsaved edit of a note, kept as it was typed; null when they have none (another vet's is never answered). */
  'consults:draft': { input: z.object({ id, documentId }), output: answer<{ text: string; savedAt: string } | null>() },
  /** Keeps the edit as it is typed (null throws it away); the note itself changes only on saveNote. */
  'consults:saveDraft': {
    input: z.object({ id, documentId, text: z.string().max(500_000, 'is too long').nullable() }),
    output: answer<{ text: string; savedAt: string } | null>(),
  },
  /**
   * "Another document…": one more scribe request for the consult's recording session with another
   * template (discharge instructions after the SOAP note). It waits its turn, and is made once.
   */
  'consults:addDocument': {
    input: z.object({
      id,
      templateId: z.string().min(1, 'is required').max(MAX_TEMPLATE_ID, 'is too long'),
      templateName: label.optional(),
      /**
       * "Ask again": the document (by id) this one is asked again for, with the same template; the
       * one written before is kept beside it.
       */
      again: requiredDocumentId.optional(),
    }),
    output: answer<ConsultInfo>(),
  },
  /** A document that failed, or whose note is late: asked for again. */
  'consults:retryDocument': { input: z.object({ id, documentId: requiredDocumentId }), output: answer<ConsultInfo>() },
  'consults:audioUrl': { input: z.object({ id }), output: answer<{ url: string }>() },
  /**
   * The consults the vet may see whose list name, patient, visit, label or note (the vet's edit when there
   * is one) holds every word of the query, as plain text (no pattern): their ids.
   */
  'consults:search': {
    input: z.object({ query: z.string().max(MAX_LABEL, `is longer than ${MAX_LABEL} characters`) }),
    output: answer<{ ids: string[] }>(),
  },
  /** Differentials from the consult's note (sent as plain text): asked, then kept with the consult. */
  'consults:askDdx': {
    input: z.object({
      id,
      input: z
        .string()
        .trim()
        .min(1, 'is required')
        .max(MAX_AGENT_INPUT, `is longer than ${MAX_AGENT_INPUT} characters`),
    }),
    output: answer<KeptAnswer>(),
  },
  /** The agents' answers kept with the consult, oldest first. */
  'consults:answers': { input: z.object({ id }), output: answer<KeptAnswer[]>() },
  /** The consult's trail, oldest first: who recorded, sent, edited, copied, exported, printed it, and when. */
  'consults:trail': { input: z.object({ id }), output: answer<{ entries: TrailEntry[] }>() },
  /**
   * The window copied or printed the note (or a document): written to the trail before the
   * window acts, and refused with a sentence when it cannot be (the window then does not act).
   */
  'consults:noteUsed': {
    input: z.object({ id, documentId, action: z.enum(['copied', 'printed']) }),
    output: answer<{ noted: true }>(),
  },
  /**
   * One message to the clinical assistant about the consult: the first sends the note (or, with
   * `documentId`, that document) as the conversation's context. The turn is kept with the consult.
   */
  'consults:chat': {
    input: z.object({
      id,
      documentId,
      message: chatMessage,
    }),
    output: answer<ChatTurn>(),
  },
  /** The conversation kept with the consult, oldest turn first. */
  'consults:chatTurns': { input: z.object({ id }), output: answer<ChatTurn[]>() },
  /**
   * The visit's other pets as named while recording, kept with the recording until Stop (which
   * makes each a consult of its own), so that a recording the app did not stop keeps them.
   */
  'recording:pets': { input: z.object({ id, pets }), output: answer<RecordingInfo>() },
  /**
   * Whether the window's copy of the consults list is still whole, without the list: which
   * engine answers, and how many changes to the list it has made since it started (each
   * `consult:changed` or `consult:removed` it sent counts one; a sign-in changed or a change it
   * did not announce counts one more, so the window reads the whole list again).
   */
  'consults:revision': { input: none, output: answer<ConsultsRevision>() },
} as const;

export const consultsEvents = {
  'consult:changed': payload<ConsultInfo>(),
  'consult:removed': payload<{ id: string }>(),
  /** A note is ready; with `documentId`, one more document of the consult is. */
  'note:ready': payload<ConsultInfo & { documentId?: string }>(),
  /** The vet clicked a desktop notification about this consult: the window opens it. */
  'consult:open': payload<{ id: string }>(),
} as const;
