// Which appointment of the PIMS a visit recorded here is for: one small file per visit (the first
// pet's recording id), with the appointment's patients as they were when the vet picked it. Each
// pet's consult finds its patient by name at send time, so a pet renamed after the pick, or one
// added by hand, is never sent to another pet's record: a name that matches no patient, or two,
// is said instead.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { PimsPatientView } from '../../../shared/pims.ts';
import { readJson, writeJsonAtomic } from '../platform/index.ts';

const linkSchema = z.object({
  version: z.literal(1),
  visitId: z.string(),
  appointmentId: z.string(),
  start: z.string(),
  patients: z.array(z.object({ id: z.string(), name: z.string(), species: z.string().nullable() })),
  /** The PIMS instance the appointment is of (its address). */
  instance: z.string(),
  linkedAt: z.string(),
});
export type VisitLink = z.infer<typeof linkSchema>;

const SAFE_ID = /^[A-Za-z0-9_-]{1,100}$/;

/** A name as two people typing it would agree it is the same. */
const normal = (name: string) => name.normalize('NFKC').trim().replace(/\s+/g, ' ').toLocaleLowerCase();

/** The appointment's patient a pet is, by its name; a reason when there is not exactly one. */
export function patientFor(
  link: VisitLink,
  patientName: string | null,
): { patient: PimsPatientView } | { problem: string } {
  const names = link.patients.map((p) => p.name).join(', ');
  if (!patientName || patientName.trim() === '')
    return { problem: `The pet is not named: name it as the appointment does (${names}) to send its note.` };
  const found = link.patients.filter((p) => normal(p.name) === normal(patientName));
  if (found.length === 1) return { patient: found[0]! };
  if (found.length > 1)
    return {
      problem: `Two pets of the appointment are called ${patientName}: the note is not sent, so it cannot land on the other.`,
    };
  return {
    problem: `${patientName.trim()} is not a patient of the appointment (${names}): rename the pet as the appointment names it to send its note.`,
  };
}

export class VisitLinks {
  private readonly dir: string;
  constructor(dir: string) {
    this.dir = dir;
  }

  private file(visitId: string): string {
    if (!SAFE_ID.test(visitId)) throw new Error('not a visit id');
    return join(this.dir, `${visitId}.json`);
  }

  async get(visitId: string): Promise<VisitLink | null> {
    let raw: unknown;
    try {
      raw = await readJson(this.file(visitId));
    } catch {
      return null;
    }
    const parsed = linkSchema.safeParse(raw);
    return parsed.success && parsed.data.visitId === visitId ? parsed.data : null;
  }

  async set(link: Omit<VisitLink, 'version'>): Promise<VisitLink> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const saved: VisitLink = { version: 1, ...link };
    await writeJsonAtomic(this.file(link.visitId), saved);
    return saved;
  }
}
