// Clinical notes under a consultation: POST and GET (list) on `consultation/{id}/consultationnote/`,
// GET, PUT, PATCH and DELETE on `consultation/{id}/consultationnote/{note_id}/`. The clinic's
// default applies: one note per patient per consultation, each patient of a visit its own. A
// finalized consultation refuses note writes to a vet without the extra permission (403), and
// the sandbox's note faults stand in for a clinic's settings and a failing network.
import type { ProvetConsultation, ProvetData, ProvetNote } from './data.ts';
import { CONSULTATION_STATUS } from './data.ts';
import type { Caller } from './oauth.ts';
import type { Context } from './resources.ts';
import { noteJson } from './resources.ts';
import { detail, fieldErrors, ProvetError } from './wire.ts';

/** A fault of note writes, for the app's tests (the sandbox option `provetNoteFault`). */
export const NOTE_FAULTS = ['none', 'refuse-body', 'drop-after-write', 'forbidden'] as const;
export type NoteFault = (typeof NOTE_FAULTS)[number];

/** What a write answers: the status and body, and whether the connection is cut after writing. */
export interface WriteAnswer {
  status: number;
  body: unknown;
  drop: boolean;
}

/** The patient a note's `patient` field names, as DRF's hyperlinked field reads it. */
function patientOf(value: unknown, ctx: Context, consultation: ProvetConsultation): number {
  if (typeof value !== 'string')
    throw fieldErrors({ patient: [`Incorrect type. Expected URL string, received ${kindOf(value)}.`] });
  let path: string;
  try {
    path = new URL(value).pathname;
  } catch {
    throw fieldErrors({ patient: ['Invalid hyperlink - No URL match.'] });
  }
  const m = /\/api\/0\.1\/patient\/(\d+)\/$/.exec(path);
  if (!m || !path.startsWith(new URL(ctx.api).pathname))
    throw fieldErrors({ patient: ['Invalid hyperlink - No URL match.'] });
  const id = Number(m[1]);
  if (!ctx.data.patients.some((p) => p.id === id))
    throw fieldErrors({ patient: ['Invalid hyperlink - Object does not exist.'] });
  if (!consultation.patients.includes(id))
    throw fieldErrors({ patient: ['This patient is not a patient of this consultation.'] });
  return id;
}

/**
 * The writable fields of a note body, every fault at once as DRF reports them; `current` fills
 * in the fields a PATCH leaves out.
 */
function readNote(
  body: Record<string, unknown>,
  ctx: Context,
  consultation: ProvetConsultation,
  current: ProvetNote | null,
): { patient: number; text: string } {
  const errors: Record<string, string[]> = {};
  const read = <T>(field: string, fallback: T | undefined, parse: (value: unknown) => T): T | undefined => {
    if (body[field] === undefined) {
      if (fallback === undefined) errors[field] = ['This field is required.'];
      return fallback;
    }
    try {
      return parse(body[field]);
    } catch (e) {
      if (!(e instanceof ProvetError)) throw e;
      Object.assign(errors, e.body);
      return undefined;
    }
  };
  const patient = read('patient', current?.patient, (v) => patientOf(v, ctx, consultation));
  const text = read('text', current?.text, textOf);
  if (patient === undefined || text === undefined) throw fieldErrors(errors);
  return { patient, text };
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'list';
  return typeof value === 'number' ? 'int' : typeof value;
}

function textOf(value: unknown): string {
  if (typeof value !== 'string') throw fieldErrors({ text: ['Not a valid string.'] });
  if (value.trim() === '') throw fieldErrors({ text: ['This field may not be blank.'] });
  return value;
}

export class Notes {
  private readonly data: ProvetData;
  private readonly fault: () => NoteFault;

  constructor(data: ProvetData, fault: () => NoteFault) {
    this.data = data;
    this.fault = fault;
  }

  consultation(id: number): ProvetConsultation {
    const found = this.data.consultations.find((c) => c.id === id);
    if (!found) throw detail(404, 'Not found.');
    return found;
  }

  note(consultation: ProvetConsultation, id: number): ProvetNote {
    const found = this.data.notes.find((n) => n.id === id && n.consultation === consultation.id);
    if (!found) throw detail(404, 'Not found.');
    return found;
  }

  list(consultation: ProvetConsultation): ProvetNote[] {
    return this.data.notes.filter((n) => n.consultation === consultation.id);
  }

  /** What every write checks first: the permission faults and the finalized consultation. */
  private mayWrite(caller: Caller, consultation: ProvetConsultation): void {
    if (this.fault() === 'forbidden') throw detail(403, 'You do not have permission to perform this action.');
    if (consultation.status === CONSULTATION_STATUS.finalized && !caller.user.canEditFinalizedNotes)
      throw detail(
        403,
        'This consultation is finalized: editing its clinical notes needs the permission to edit clinical notes on finalized consultations.',
      );
  }

  private refuseBodyFault(): void {
    if (this.fault() === 'refuse-body')
      throw fieldErrors({ text: ['Clinical notes of this clinic must be approved: this user may not add them.'] });
  }

  private answer(status: number, note: ProvetNote, ctx: Context): WriteAnswer {
    return { status, body: noteJson(note, ctx), drop: this.fault() === 'drop-after-write' };
  }

  create(caller: Caller, consultation: ProvetConsultation, body: Record<string, unknown>, ctx: Context): WriteAnswer {
    this.mayWrite(caller, consultation);
    this.refuseBodyFault();
    const { patient, text } = readNote(body, ctx, consultation, null);
    if (this.list(consultation).some((n) => n.patient === patient))
      throw fieldErrors({
        patient: ['This patient already has a clinical note in this consultation: change that note instead.'],
      });
    const now = Date.now();
    const note = this.data.addNote({
      consultation: consultation.id,
      patient,
      text,
      created: now,
      modified: now,
      created_user: caller.user.id,
      modified_user: null,
    });
    return this.answer(201, note, ctx);
  }

  /** PUT (every writable field) or PATCH (those given). */
  change(
    caller: Caller,
    consultation: ProvetConsultation,
    note: ProvetNote,
    body: Record<string, unknown>,
    partial: boolean,
    ctx: Context,
  ): WriteAnswer {
    this.mayWrite(caller, consultation);
    this.refuseBodyFault();
    const { patient, text } = readNote(body, ctx, consultation, partial ? note : null);
    if (patient !== note.patient && this.list(consultation).some((n) => n.patient === patient))
      throw fieldErrors({ patient: ['This patient already has a clinical note in this consultation.'] });
    note.patient = patient;
    note.text = text;
    note.modified = Date.now();
    note.modified_user = caller.user.id;
    return this.answer(200, note, ctx);
  }

  remove(caller: Caller, consultation: ProvetConsultation, note: ProvetNote): void {
    this.mayWrite(caller, consultation);
    const i = this.data.notes.indexOf(note);
    if (i >= 0) this.data.notes.splice(i, 1);
  }
}
