// Provet's appointment, patient and consultation as its REST API publishes them, read into the
// port's words. Tolerant of every member the app does not use (Provet adds fields over time);
// strict on what it needs: an id, the times, the pets and their names. A relation comes as the
// full address of the other object (`…/api/0.1/patient/789/`), as its bare id, or inlined whole
// when asked with `expose_<field>`; all three are read to the same id.
import { z } from 'zod';
import { PimsError, type PimsAppointment, type PimsConsultation, type PimsNote, type PimsPatient } from '../port.ts';

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The id at the end of a relation's address (`…/patient/789/` is "789"); null when there is none.
 * Provet's ids are whole numbers in every published example, so only digits count here: the
 * end of `…/patient/` is a resource's name, not an id.
 */
export function idFromUrl(url: string): string | null {
  try {
    const last = new URL(url).pathname
      .split('/')
      .filter((s) => s !== '')
      .pop();
    return last !== undefined && /^\d{1,20}$/.test(last) ? last : null;
  } catch {
    return null;
  }
}

const idValue = z.union([z.number().int().nonnegative(), z.string().regex(ID)]).transform(String);

/** A relation as an id: an address, a bare id, or an inlined object with `id` or `url`. */
const relation = z.union([
  idValue,
  z
    .string()
    .transform(
      (url, ctx) => idFromUrl(url) ?? (ctx.addIssue({ code: 'custom', message: 'not an address with an id' }), z.NEVER),
    ),
  z
    .looseObject({ id: idValue.optional(), url: z.string().optional() })
    .transform(
      (o, ctx) =>
        o.id ??
        (o.url ? idFromUrl(o.url) : null) ??
        (ctx.addIssue({ code: 'custom', message: 'an inlined object without id or url' }), z.NEVER),
    ),
]);

// A user inlined by `expose_user`: Provet's pages do not list its fields, so any usual name is read.
const exposedUser = z.looseObject({
  name: z.string().optional(),
  full_name: z.string().optional(),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
});

function userName(raw: unknown): string | null {
  const u = exposedUser.safeParse(raw);
  if (!u.success) return null;
  const joined = [u.data.first_name, u.data.last_name].filter((s) => s && s.trim()).join(' ');
  const name = u.data.full_name ?? u.data.name ?? joined;
  return name.trim() === '' ? null : name.trim();
}

/** A time as Provet writes it (with or without its offset), as an ISO 8601 instant. */
const instant = z.string().transform((text, ctx) => {
  const at = Date.parse(text);
  if (Number.isNaN(at)) {
    ctx.addIssue({ code: 'custom', message: `"${text.slice(0, 40)}" is not a time` });
    return z.NEVER;
  }
  return new Date(at).toISOString();
});

const text = z
  .string()
  .nullish()
  .transform((s) => s ?? '');

/** The object's own id: `id` when given, else the end of its `url` (Provet's examples show both). */
function ownId<T extends { id?: string | undefined; url?: string | undefined }>(o: T, ctx: z.RefinementCtx): string {
  const id = o.id ?? (o.url ? idFromUrl(o.url) : null);
  if (id === null) {
    ctx.addIssue({ code: 'custom', message: 'neither an id nor an address with one', path: ['id'] });
    return z.NEVER;
  }
  return id;
}

export const provetPatient = z
  .looseObject({
    id: idValue.optional(),
    url: z.string().optional(),
    name: z.string().trim().min(1),
    // Text such as "Dog (Canine - Domestic)" in answers; a code when written, read as unknown here.
    species: z.unknown().optional(),
    breed: z.unknown().optional(),
    client: relation.nullish(),
  })
  .transform((p, ctx): PimsPatient => ({
    id: ownId(p, ctx),
    name: p.name,
    species: typeof p.species === 'string' && p.species.trim() !== '' ? p.species.trim() : null,
  }));

/** An appointment as read, its pets still as ids (or inlined, with `expose_patients`). */
export interface ProvetAppointment extends Omit<PimsAppointment, 'patients'> {
  patientIds: string[];
  /** Pets Provet inlined, by id: their names need no further request. */
  inlinedPatients: Map<string, PimsPatient>;
  /** False when the appointment was cancelled or removed from the calendar. */
  active: boolean;
}

export const provetAppointment = z
  .looseObject({
    id: idValue.optional(),
    url: z.string().optional(),
    start: instant,
    end: instant,
    title: text,
    complaint: text,
    user: z.unknown().optional(),
    patients: z.array(z.unknown()).nullish(),
    consultation: relation.nullish(),
    // A flag in Provet's pages; read as given, 0 and false both meaning not active.
    active: z.union([z.boolean(), z.number()]).optional(),
  })
  .transform((a, ctx): ProvetAppointment => {
    const id = ownId(a, ctx);
    const vetId = a.user === null || a.user === undefined ? null : relation.safeParse(a.user);
    if (vetId && !vetId.success) ctx.addIssue({ code: 'custom', message: 'not a user', path: ['user'] });
    const patientIds: string[] = [];
    const inlinedPatients = new Map<string, PimsPatient>();
    (a.patients ?? []).forEach((raw, i) => {
      const inlined = typeof raw === 'object' && raw !== null ? provetPatient.safeParse(raw) : null;
      if (inlined?.success) {
        patientIds.push(inlined.data.id);
        inlinedPatients.set(inlined.data.id, inlined.data);
        return;
      }
      const ref = relation.safeParse(raw);
      if (ref.success) patientIds.push(ref.data);
      else ctx.addIssue({ code: 'custom', message: 'not a patient', path: ['patients', i] });
    });
    return {
      id,
      start: a.start,
      end: a.end,
      vet: vetId?.success ? { id: vetId.data, name: userName(a.user) } : null,
      // The complaint says why the pet comes; the title is what the calendar shows, used when
      // no complaint was written.
      complaint: a.complaint.trim() || a.title.trim(),
      consultationId: a.consultation ?? null,
      patientIds,
      inlinedPatients,
      active: a.active === undefined ? true : Boolean(a.active),
    };
  });

/** Provet's consultation statuses (its published table); 10 is finalized. */
export const CONSULTATION_FINALIZED = 10;

export const provetConsultation = z
  .looseObject({
    id: idValue.optional(),
    url: z.string().optional(),
    patients: z.array(relation),
    status: z.number().int(),
  })
  .transform((c, ctx): PimsConsultation => ({
    id: ownId(c, ctx),
    patientIds: c.patients,
    finalized: c.status === CONSULTATION_FINALIZED,
  }));

/**
 * A clinical note of a consultation. Provet's pages do not show its fields; `patient` and `text`
 * are what the published guides call them (docs/pims.md says what else is assumed).
 */
export const provetNote = z
  .looseObject({
    id: idValue.optional(),
    url: z.string().optional(),
    consultation: relation,
    patient: relation,
    text: z.string(),
  })
  .transform((n, ctx): PimsNote => ({
    id: ownId(n, ctx),
    consultationId: n.consultation,
    patientId: n.patient,
    text: n.text,
  }));

/** Reads one object with a schema, or says which member of what is wrong. */
export function readProvet<T>(schema: z.ZodType<T>, what: string, json: unknown): T {
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? issue.path.join('.') : 'the body';
  throw new PimsError(
    'invalid_answer',
    `Provet answered with ${what} the app cannot read (${where}: ${issue?.message ?? 'malformed'}).`,
    {
      cause: parsed.error,
    },
  );
}

/** The port's appointment from Provet's, its pets named from those read separately. */
export function toPimsAppointment(a: ProvetAppointment, patients: ReadonlyMap<string, PimsPatient>): PimsAppointment {
  return {
    id: a.id,
    start: a.start,
    end: a.end,
    vet: a.vet,
    complaint: a.complaint,
    consultationId: a.consultationId,
    patients: a.patientIds.map(
      (id) => a.inlinedPatients.get(id) ?? patients.get(id) ?? { id, name: '', species: null },
    ),
  };
}
