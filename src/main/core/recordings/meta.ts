// A recording's meta.json: its shape, the reading of a saved one (one zod schema, lenient with
// members added later), the checks and clean-up of the texts the vet types, and a new one.
import { z } from 'zod';
import { RECORDING_STATES, type ConsultOwner, type RecordingFacts, type RecordingState } from '../../../shared/ipc.ts';
import { MAX_DESCRIPTION, MAX_LABEL, MAX_PATIENT_NAME, MAX_TEMPLATE_ID } from '../../../shared/limits.ts';
import { Refusal } from '../platform/index.ts';

export type { RecordingState };

/** meta.json: what the window is shown of a recording, and what only the engine needs. */
export interface RecordingMeta extends RecordingFacts {
  updatedAt: string;
  chunks: number;
  /** Whether the WebM got its Duration written; null until the recording ends. */
  durationFixed: boolean | null;
  /** The account signed in when it was recorded; null for older recordings, or none signed in. */
  owner: ConsultOwner | null;
  /**
   * The visit's other pets as named while recording ('' for one not named yet), until Stop
   * makes each a consult of its own; absent when there are none.
   */
  pets?: string[];
  /**
   * The visit split into one consult per pet, journaled in the first pet's meta before any
   * other pet is made, so a kill or a full disk half-way leaves what the next try finishes.
   * Absent for a recording of one pet.
   */
  split?: VisitSplit;
}

/** One other pet of a visit as the split journals it: its consult's id, chosen up front, and its name. */
export interface SplitPet {
  id: string;
  /** '' for a pet not named yet. */
  name: string;
  /** Its consult is made and noted in its trail. */
  made: boolean;
}

export interface VisitSplit {
  /** In the order the vet gave them. */
  pets: SplitPet[];
  /** Every pet made and the visit sent as Stop sends it; nothing is left for a restart. */
  done: boolean;
}

/** What `start` is given for a new recording. */
export interface StartInput {
  mimeType: string;
  label?: string | null;
  patientName?: string | null;
  description?: string | null;
  templateId?: string | null;
  owner?: ConsultOwner | null;
  /** The owner consented, as the vet confirmed at Start: stamped with the start's time. */
  petOwnerConsented?: boolean;
}

const MIME_PATTERN = /^[a-z]+\/[a-z0-9.+-]+(;[\x20-\x7e]*)?$/i;

export function isWebm(mimeType: string): boolean {
  return /^(audio|video)\/webm\b/i.test(mimeType);
}

/** A member added after some meta files were written: absent, or not what it should be, reads as null. */
const later = <T extends z.ZodType>(schema: T) => schema.nullable().catch(null);
const count = z.number().nonnegative();

const ownerSchema = z.object({
  userId: z.string(),
  organizationId: z.string(),
  name: z.string(),
  email: z.string(),
  service: z.string(),
});

// Loose: members a later version adds are kept when this one rewrites the file, and a
// recording is never lost over a member it could not have had.
const metaSchema = z.looseObject({
  id: z.string(),
  startedAt: z.string(),
  updatedAt: z.string(),
  finishedAt: z.string().nullable(),
  durationMs: count,
  mimeType: z.string(),
  label: z.string().nullable(),
  templateId: z.string().nullable(),
  state: z.enum(RECORDING_STATES),
  bytes: count,
  chunks: count,
  patientName: later(z.string()),
  description: later(z.string()),
  consentAt: later(z.string()),
  listName: later(z.string()),
  durationFixed: later(z.boolean()),
  owner: later(ownerSchema),
  // Absent for a recording of one pet (and in every meta written before visits had pets).
  visitId: z.string().nullable().optional().catch(undefined),
  pets: z.array(z.string()).optional().catch(undefined),
  split: z
    .object({
      pets: z.array(z.object({ id: z.string(), name: z.string(), made: z.boolean() })),
      done: z.boolean(),
    })
    .optional()
    .catch(undefined),
});

/** meta.json as read from disk, or null when it is not a recording's meta (or not `id`'s). */
export function parseMeta(value: unknown, id: string): RecordingMeta | null {
  const parsed = metaSchema.safeParse(value);
  return parsed.success && parsed.data.id === id ? parsed.data : null;
}

export function checkMimeType(mimeType: unknown): asserts mimeType is string {
  if (typeof mimeType !== 'string' || mimeType.length > 200 || !MIME_PATTERN.test(mimeType)) {
    throw new Refusal('bad_input', `"${String(mimeType).slice(0, 80)}" is not a media type.`);
  }
}

export function checkTexts(input: {
  label?: unknown;
  patientName?: unknown;
  description?: unknown;
  templateId?: unknown;
  listName?: unknown;
}): void {
  for (const [key, max] of [
    ['label', MAX_LABEL],
    ['listName', MAX_LABEL],
    ['patientName', MAX_PATIENT_NAME],
    ['templateId', MAX_TEMPLATE_ID],
    ['description', MAX_DESCRIPTION],
  ] as const) {
    const v = input[key];
    if (v !== undefined && v !== null && (typeof v !== 'string' || v.length > max)) {
      throw new Refusal('bad_input', `${key} must be text of at most ${max} characters, or null.`);
    }
  }
}

/**
 * A name (or a description) of spaces only is none: the service would be sent nothing it can
 * use. Used for the patient's name, the description and the name the consult is listed under.
 */
export function cleanText(text: string | null | undefined): string | null {
  const trimmed = text?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/** The meta of a recording started at `iso`, before its first chunk. */
export function newMeta(id: string, iso: string, input: StartInput): RecordingMeta {
  return {
    id,
    startedAt: iso,
    updatedAt: iso,
    finishedAt: null,
    durationMs: 0,
    mimeType: input.mimeType,
    label: input.label ?? null,
    patientName: cleanText(input.patientName),
    description: cleanText(input.description),
    templateId: input.templateId ?? null,
    state: 'recording',
    bytes: 0,
    chunks: 0,
    durationFixed: null,
    owner: input.owner ?? null,
    consentAt: input.petOwnerConsented ? iso : null,
    listName: null,
    visitId: null,
  };
}

/** What `update` may change; a member left out stays as it is. */
export interface MetaPatch {
  label?: string | null;
  patientName?: string | null;
  description?: string | null;
  templateId?: string | null;
  listName?: string | null;
  /** The visit it is one pet of (the first pet's id); set once, at Stop. */
  visitId?: string | null;
  /** The visit's other pets named while recording. */
  pets?: string[];
  /** The visit's split, journaled (see RecordingMeta.split). */
  split?: VisitSplit;
}

/** `meta` with `patch` applied (the texts cleaned), changed at `updatedAt`. */
export function patched(meta: RecordingMeta, patch: MetaPatch, updatedAt: string): RecordingMeta {
  return {
    ...meta,
    ...(patch.label !== undefined ? { label: patch.label } : {}),
    ...(patch.patientName !== undefined ? { patientName: cleanText(patch.patientName) } : {}),
    ...(patch.description !== undefined ? { description: cleanText(patch.description) } : {}),
    ...(patch.templateId !== undefined ? { templateId: patch.templateId } : {}),
    ...(patch.listName !== undefined ? { listName: cleanText(patch.listName) } : {}),
    ...(patch.visitId !== undefined ? { visitId: patch.visitId } : {}),
    ...(patch.pets !== undefined ? { pets: patch.pets.map((name) => name.trim()) } : {}),
    ...(patch.split !== undefined ? { split: patch.split } : {}),
    updatedAt,
  };
}

/**
 * The recording's calendar day where it was made (`YYYY-MM-DD`, this computer's time zone): a
 * consult at 00:30 belongs to that day, not to the UTC day before.
 */
export function localDate(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}
