// The one IPC contract between the window and main. Every channel is named here once, with
// the schema of its input (main parses every argument with it) and the type of its answer;
// the preload, the renderer's typed client and the browser test host's bridge are all
// generated from this table (the preload is given the channel names by main at run time:
// bridge-channels.ts). Answers cross as data: { ok: true, data } or
// { ok: false, error: { code, message } }. No channel carries a token. Longer than a module
// here should be because the contract is one table on purpose: a channel split off into
// another file is a channel a reader of this one does not see.
import { z } from 'zod';
import type { RecorderAction, RecorderActivity } from './desktop.ts';
import type { UpdateInfo } from './updates.ts';
import type { JobInfo } from './jobs.ts';
import type {
  DdxResult,
  MedicationResult,
  Organization,
  Template,
  TreatmentPlanResult,
  User,
  Webhook,
} from './service/index.ts';
import { settingsPatchSchema, type Settings } from './settings.ts';
import type { TrailEntry } from './trail.ts';
import type { ClinicNote, ClinicView } from './clinic.ts';
import type { PimsDay, PimsNoteState, PimsStatus } from './pims.ts';
import type { RelayStatus } from './relay.ts';

import {
  MAX_AGENT_INPUT,
  MAX_CHAT_MESSAGE,
  MAX_CHUNK_BYTES,
  MAX_DESCRIPTION,
  MAX_EMAIL,
  MAX_LABEL,
  MAX_PATIENT_NAME,
  MAX_PETS,
  MAX_SECRET,
  MAX_TEMPLATE_ID,
  MAX_URL,
  MIN_WEBHOOK_SECRET,
} from './limits.ts';

// The client (createApi, ApiCallError) lives in ipc-client.ts, which imports this module's
// types: importing it back here would make a cycle, so only the limits are re-exported.
export { MAX_AGENT_INPUT, MAX_CHUNK_BYTES } from './limits.ts';

/** A phantom carrier of an answer's type; the table holds no value for it at run time. */
const answer = <T>() => undefined as unknown as T;

const id = z
  .string()
  .min(1, 'is required')
  .max(100, 'is too long')
  .regex(/^[A-Za-z0-9._:-]+$/, 'has characters an id cannot have');
const label = z.string().trim().max(MAX_LABEL, `is longer than ${MAX_LABEL} characters`);
/** The service requires the patient's name and uses it to leave out talk about other pets. */
const patientName = z
  .string()
  .trim()
  .min(1, 'is required: the name of the patient in this consult')
  .max(MAX_PATIENT_NAME, `is longer than ${MAX_PATIENT_NAME} characters`);
/** The other pets seen in one visit, each a patient's name or '' (named later). */
const pets = z
  .array(z.string().trim().max(MAX_PATIENT_NAME, `is longer than ${MAX_PATIENT_NAME} characters`))
  .max(MAX_PETS, `can name at most ${MAX_PETS} other pets`);
const description = z.string().trim().max(MAX_DESCRIPTION, `is longer than ${MAX_DESCRIPTION} characters`);
/** What a note is copied or exported as; each flavour is at most this long. */
export const MAX_NOTE_FORMAT_CHARS = 4_000_000;
const none = z.undefined();
/** A message to the clinical assistant about a consult. */
const chatMessage = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(MAX_CHAT_MESSAGE, `is longer than ${MAX_CHAT_MESSAGE} characters`);

/** A consult of the clinic's list: `scribe:<id>` or `recording-session:<id>`, the service's id. */
const clinicKey = z
  .string()
  .max(120, 'is too long')
  .regex(/^(scribe|recording-session):[A-Za-z0-9._:-]{1,100}$/, 'is not a consult of the clinic’s list');
/** One more document of a consult (discharge instructions after the note); absent: the consult's note. */
/** An id the practice-management system gave (an appointment's, a patient's). */
const pimsId = z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'is not an id the practice-management system gives');
const requiredDocumentId = z.string().regex(/^[A-Za-z0-9-]{1,40}$/, 'is not a document of a consult');
const documentId = requiredDocumentId.optional();

export interface SessionInfo {
  signedIn: boolean;
  user: User | null;
  /** Why the last session ended, when not by the user: shown on the sign-in screen. */
  endedBecause: 'expired' | 'revoked' | null;
  /** The last vet switched user (rather than signing out): a recording they left going goes on. */
  switched?: boolean;
  /**
   * Vets who switched user with consults in flight: those consults go on with their own
   * sign-in, kept in main (only who, never a token).
   */
  background?: { userId: string; name: string }[];
}

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
}

export interface AppInfo {
  name: string;
  version: string;
  /** The built-in sandbox, when it is the service in use; its demo account for the sign-in screen. */
  sandbox: { demo: { email: string; password: string } } | null;
  secretStore: { kind: 'keychain' | 'safe-storage' | 'memory'; persistent: boolean; description: string };
  notices: Notice[];
  /** A desktop app with a global shortcut and a tray (Electron); false in the browser host. */
  desktop: boolean;
  /**
   * Where the desktop may not pass the global shortcut on (a Linux Wayland session), what
   * Settings says about it (shared/desktop.ts shortcutCaveat); null where the shortcut works.
   */
  shortcutCaveat: string | null;
}

export interface Notice {
  level: 'info' | 'warning' | 'error';
  message: string;
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

export type TreatmentPlanAnswer =
  { kind: 'result'; result: TreatmentPlanResult } | { kind: 'needs_species'; message: string };

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

export const invokeContract = {
  'app:info': { input: none, output: answer<AppInfo>() },
  'session:get': { input: none, output: answer<SessionInfo>() },
  'session:signIn': {
    input: z.object({
      email: z.string().trim().min(1, 'is required').max(MAX_EMAIL, 'is too long'),
      password: z.string().min(1, 'is required').max(MAX_SECRET, 'is too long'),
    }),
    output: answer<SessionInfo>(),
  },
  'session:signOut': { input: none, output: answer<SessionInfo>() },
  'settings:get': { input: none, output: answer<Settings>() },
  'settings:update': { input: settingsPatchSchema, output: answer<Settings>() },
  /** How many recordings' audio a retention would delete now, asked before the vet confirms it. */
  'settings:retentionPreview': {
    input: z.object({ retentionDays: z.number().int().min(0).max(3650).nullable() }),
    output: answer<{ wouldDelete: number }>(),
  },
  'templates:list': {
    input: z.object({ page: z.number().int().min(1).max(10_000), limit: z.number().int().min(1).max(100).optional() }),
    output: answer<{ items: Template[]; page: number; total: number | null; hasMore: boolean }>(),
  },
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
  'agents:ddx': {
    input: z.object({ input: z.string().max(MAX_AGENT_INPUT, `is longer than ${MAX_AGENT_INPUT} characters`) }),
    output: answer<DdxResult>(),
  },
  'agents:medication': {
    input: z.object({ input: z.string().max(MAX_AGENT_INPUT, `is longer than ${MAX_AGENT_INPUT} characters`) }),
    output: answer<MedicationResult>(),
  },
  'agents:treatmentPlan': {
    input: z.object({
      input: z.string().max(MAX_AGENT_INPUT, `is longer than ${MAX_AGENT_INPUT} characters`),
      allowWithoutSpecies: z.boolean().optional(),
    }),
    output: answer<TreatmentPlanAnswer>(),
  },
  'org:setNotificationEmail': {
    input: z.object({ email: z.string().trim().max(MAX_EMAIL, 'is too long').email('must be an e-mail address') }),
    output: answer<Organization>(),
  },
  'org:setScribeWebhook': { input: z.object({ active: z.boolean() }), output: answer<Webhook>() },
  /** The organization as the service has it (the notification address in force). */
  'org:get': { input: none, output: answer<Organization>() },
  /** Registers the clinic's webhook endpoint; the secret goes to the service and the keychain only. */
  'org:registerWebhook': {
    input: z.object({
      url: z
        .string()
        .trim()
        .max(MAX_URL, 'is too long')
        .regex(/^https:\/\/[^\s/]+/i, 'must be an https:// address the service can reach'),
      secret: z
        .string()
        .min(MIN_WEBHOOK_SECRET, `must be at least ${MIN_WEBHOOK_SECRET} characters`)
        .max(MAX_SECRET, 'is too long'),
    }),
    output: answer<Webhook>(),
  },
  /**
   * Writes the three flavours to the system clipboard where main has one (Electron's
   * clipboard.write); `written: false` where it has none (the browser host), and the window
   * writes them with ClipboardItem.
   */
  'clipboard:write': {
    input: z.object({
      text: z.string().max(MAX_NOTE_FORMAT_CHARS, 'is too long'),
      html: z.string().max(MAX_NOTE_FORMAT_CHARS, 'is too long'),
      rtf: z.string().max(MAX_NOTE_FORMAT_CHARS, 'is too long'),
    }),
    output: answer<{ written: boolean }>(),
  },
  /** Where the app is with its updates (the clinic's feed, Settings). */
  'update:get': { input: none, output: answer<UpdateInfo>() },
  /** Restarts into the downloaded update; refused with a sentence while recording or uploading. */
  'update:restart': { input: none, output: answer<{ restarting: true }>() },
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
  /** Hands the computer to the next vet: the leaving vet's consults in flight go on with their sign-in. */
  'session:switchUser': { input: none, output: answer<SessionInfo>() },
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
  /** The clinic's consults from the service (recorded elsewhere), as last read; empty when signed out. */
  'clinic:list': { input: none, output: answer<ClinicView>() },
  /** Reads the clinic's lists from the service again; a failure leaves the last copy and says why in `error`. */
  'clinic:refresh': { input: none, output: answer<ClinicView>() },
  /** A note from the service, read once and then kept on this computer. */
  'clinic:note': { input: z.object({ key: clinicKey }), output: answer<ClinicNote>() },
  'clinic:noteFormats': { input: z.object({ key: clinicKey }), output: answer<NoteFormats>() },
  'clinic:export': {
    input: z.object({ key: clinicKey, format: z.enum(['txt', 'rtf', 'pdf']) }),
    output: answer<NoteExport>(),
  },
  /**
   * The visit's other pets as named while recording, kept with the recording until Stop (which
   * makes each a consult of its own), so that a recording the app did not stop keeps them.
   */
  'recording:pets': { input: z.object({ id, pets }), output: answer<RecordingInfo>() },
  /**
   * One message to the clinical assistant about a note of the clinic's from elsewhere: the first
   * sends the note as kept on this computer. The turn is kept with the account's copy.
   */
  'clinic:chat': { input: z.object({ key: clinicKey, message: chatMessage }), output: answer<ChatTurn>() },
  /** The signed-in account's conversation about that note, oldest turn first. */
  'clinic:chatTurns': { input: z.object({ key: clinicKey }), output: answer<ChatTurn[]>() },
  /**
   * Whether the window's copy of the consults list is still whole, without the list: which
   * engine answers, and how many changes to the list it has made since it started (each
   * `consult:changed` or `consult:removed` it sent counts one; a sign-in changed or a change it
   * did not announce counts one more, so the window reads the whole list again).
   */
  'consults:revision': { input: none, output: answer<ConsultsRevision>() },
  /**
   * The window's recorder listens to `recorder:command` now (asked once it has subscribed): the
   * command from the tray or the shortcut held for it while it did not, once, or null.
   */
  'recorder:listening': { input: none, output: answer<RecorderAction | null>() },
  /** The practice-management system for the vet in front: this computer's setup and their sign-in. */
  'pims:status': { input: none, output: answer<PimsStatus>() },
  /**
   * Sets this computer's PIMS up (when `address` and `clientId` are new) and signs the vet in to it
   * through its own page in the system browser; resolves once they did, or with why not. The
   * setup is kept only once a sign-in succeeded.
   */
  'pims:signIn': {
    input: z.object({
      address: z.string().trim().min(1, 'is required').max(MAX_URL, 'is too long'),
      clientId: z.string().trim().min(1, 'is required').max(255, 'is too long'),
    }),
    output: answer<PimsStatus>(),
  },
  /** The vet gave up the sign-in in the browser. */
  'pims:cancelSignIn': { input: none, output: answer<PimsStatus>() },
  'pims:signOut': { input: none, output: answer<PimsStatus>() },
  /** The day's appointments: the copy kept here at once, refreshed in the background (the `pims:day` event follows). */
  'pims:today': { input: none, output: answer<PimsDay>() },
  /** The day's appointments read from the PIMS now. */
  'pims:refreshToday': { input: none, output: answer<PimsDay>() },
  /**
   * Links a consult (each pet of its visit) to a day's appointment: each pet is matched to the
   * appointment's patient of its name.
   */
  'pims:link': { input: z.object({ id, appointmentId: pimsId }), output: answer<PimsNoteState>() },
  'pims:noteState': { input: z.object({ id }), output: answer<PimsNoteState>() },
  /** "Send to …" / "Update in …": the note as the vet last saved it, into the patient's record. */
  'pims:send': { input: z.object({ id }), output: answer<PimsNoteState>() },
  /** The clinic relay: its address and whether this computer hears it (`relay:changed` follows each change). */
  'relay:status': { input: none, output: answer<RelayStatus>() },
} as const;

export type InvokeChannel = keyof typeof invokeContract;
export type InvokeInput<C extends InvokeChannel> = z.input<(typeof invokeContract)[C]['input']>;
export type InvokeOutput<C extends InvokeChannel> = (typeof invokeContract)[C]['output'];

/** A phantom carrier of an event's payload type, as `answer` is of an answer's. */
const payload = <T>() => undefined as unknown as T;

/** Events main sends to the window; each payload is plain data. */
export const eventContract = {
  'session:changed': payload<SessionInfo>(),
  'consult:changed': payload<ConsultInfo>(),
  'consult:removed': payload<{ id: string }>(),
  /** A note is ready; with `documentId`, one more document of the consult is. */
  'note:ready': payload<ConsultInfo & { documentId?: string }>(),
  notice: payload<Notice>(),
  /** Whether a consult is being recorded, for the tray (main draws it from the recordings it keeps). */
  'recorder:activity': payload<{ activity: RecorderActivity }>(),
  /** The tray or the global shortcut asks the window's recorder to act. */
  'recorder:command': payload<{ action: RecorderAction }>(),
  'update:changed': payload<UpdateInfo>(),
  /** The vet clicked a desktop notification about this consult: the window opens it. */
  'consult:open': payload<{ id: string }>(),
  /** The signed-in account's clinic consults changed (a refresh ended, a note was kept). */
  'clinic:changed': payload<ClinicView>(),
  /** The day's appointments of the vet in front were read again (or could not be). */
  'pims:day': payload<PimsDay>(),
  /** Where a consult's note stands in the PIMS changed (sent, waiting, failed). */
  'pims:note': payload<{ id: string; state: PimsNoteState }>(),
  /**
   * The browser host only (Electron opens the system browser itself): a page to open in a new
   * tab, the practice-management system's own sign-in page.
   */
  'browser:open': payload<{ url: string }>(),
  /** The clinic relay was reached, lost, refused, or its address changed. */
  'relay:changed': payload<RelayStatus>(),
} as const;
export type EventPayloads = { -readonly [E in keyof typeof eventContract]: (typeof eventContract)[E] };
export type EventChannel = keyof EventPayloads;
/** Every channel of the contract, read off the tables above: there is no other list. */
export const EVENT_CHANNELS = Object.keys(eventContract) as readonly EventChannel[];
export const INVOKE_CHANNELS = Object.keys(invokeContract) as readonly InvokeChannel[];

export type IpcErrorCode =
  | 'invalid_input'
  | 'forbidden_sender'
  | 'unknown_channel'
  | 'signed_out'
  | 'service'
  | 'not_found'
  | 'conflict'
  | 'internal';
export interface IpcError {
  code: IpcErrorCode | string;
  message: string;
  /** Whether trying again later may work (the network, the service being busy). */
  retryable?: boolean;
}
export type IpcResult<T> = { ok: true; data: T } | { ok: false; error: IpcError };

type Namespace<C extends string> = C extends `${infer N}:${string}` ? N : never;

/** What the preload hands the window: the raw envelopes, one function per channel. */
export type BridgeApi = {
  invoke<C extends InvokeChannel>(channel: C, input: InvokeInput<C>): Promise<IpcResult<InvokeOutput<C>>>;
  on<E extends EventChannel>(event: E, listener: (payload: EventPayloads[E]) => void): () => void;
  /**
   * Where the engine can go away while the window stays (the browser host): `false` when its
   * event stream is lost, `true` when it is back (the window then loads its state again).
   * Absent in Electron, where the window lives and dies with main.
   */
  onLink?(listener: (up: boolean) => void): () => void;
};

/** The typed client the window uses: `api.session.signIn({...})`, throwing ApiCallError. */
export type Api = {
  [N in Namespace<InvokeChannel>]: {
    [C in InvokeChannel as C extends `${N}:${infer M}` ? M : never]: InvokeInput<C> extends undefined
      ? () => Promise<InvokeOutput<C>>
      : (input: InvokeInput<C>) => Promise<InvokeOutput<C>>;
  };
} & { on: BridgeApi['on'] };

/** Turns a message of zod issues into one sentence that names each wrong field. */
export function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues.map((i) => `${i.path.length ? i.path.map(String).join('.') : 'input'} ${i.message}`).join('; ');
}
