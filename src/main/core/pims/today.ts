// The day's appointments as the Record view lists them: a copy per vet's PIMS sign-in, kept on
// disk so the list is on screen at once, and read again from the PIMS in the background (one
// read at a time per vet). When the PIMS cannot be read, the copy stays and says why.
import { createHash } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { PimsAppointmentView, PimsDay } from '../../../shared/pims.ts';
import { readJson, writeJsonAtomic } from '../platform/index.ts';
import { PimsError, type PimsAppointment } from './port.ts';

const patientView = z.object({ id: z.string(), name: z.string(), species: z.string().nullable() });
const appointmentView = z.object({
  id: z.string(),
  start: z.string(),
  end: z.string(),
  vetName: z.string().nullable(),
  mine: z.boolean(),
  patients: z.array(patientView),
  complaint: z.string(),
  checkedIn: z.boolean(),
});
const copySchema = z.object({
  day: z.string(),
  fetchedAt: z.string(),
  appointments: z.array(appointmentView),
});
type Copy = z.infer<typeof copySchema>;

/** This computer's calendar day, YYYY-MM-DD. */
export function today(now = Date.now()): string {
  const d = new Date(now);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The list as the window shows it: the vet's own first, then the others, each group by start. */
export function dayView(appointments: readonly PimsAppointment[], vetId: string | null): PimsAppointmentView[] {
  return appointments
    .map((a) => ({
      id: a.id,
      start: a.start,
      end: a.end,
      vetName: a.vet?.name ?? null,
      mine: vetId !== null && a.vet?.id === vetId,
      patients: a.patients.map((p) => ({ id: p.id, name: p.name, species: p.species })),
      complaint: a.complaint,
      checkedIn: a.consultationId !== null,
    }))
    .sort((a, b) => Number(b.mine) - Number(a.mine) || Date.parse(a.start) - Date.parse(b.start));
}

/** The sentence a list kept from earlier carries when it could not be read again. */
export function staleBecause(e: unknown, name: string, fetchedAt: string | null): string {
  // HH:MM on this computer's clock, as the list shows each appointment's time.
  const at = fetchedAt ? new Date(fetchedAt) : null;
  const hhmm = at ? `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}` : '';
  const since = at ? `shown as read at ${hhmm}` : 'nothing read yet today';
  if (e instanceof PimsError && e.code === 'signed_out') return `Sign in to ${name} again in Settings: ${since}.`;
  if (e instanceof PimsError && (e.code === 'unreachable' || e.code === 'rate_limited'))
    return `${name} cannot be reached: ${since}.`;
  return `${name} could not be read (${(e as Error).message}): ${since}.`;
}

export interface TodayOptions {
  dir: string;
  now?: () => number;
}

/** The copies of the day, one per vet's PIMS sign-in (`key`), and the reads under way. */
export class TodayCopies {
  private readonly options: TodayOptions;
  private readonly reading = new Map<string, Promise<PimsDay>>();
  private readonly problems = new Map<string, string>();
  constructor(options: TodayOptions) {
    this.options = options;
  }

  private file(key: string): string {
    const name = createHash('sha256').update(key).digest('hex').slice(0, 32);
    return join(this.options.dir, `${name}.json`);
  }

  private day(): string {
    return today((this.options.now ?? Date.now)());
  }

  /** The copy kept for today, or null (none, another day's, or unreadable). */
  async copy(key: string): Promise<Copy | null> {
    let raw: unknown;
    try {
      raw = await readJson(this.file(key));
    } catch {
      return null;
    }
    const parsed = copySchema.safeParse(raw);
    return parsed.success && parsed.data.day === this.day() ? parsed.data : null;
  }

  /** What the window is shown now: the copy, whether a read is under way, and the last read's problem. */
  async view(key: string): Promise<PimsDay> {
    const copy = await this.copy(key);
    return {
      day: this.day(),
      appointments: copy?.appointments ?? [],
      fetchedAt: copy?.fetchedAt ?? null,
      refreshing: this.reading.has(key),
      problem: this.problems.get(key) ?? null,
    };
  }

  isReading(key: string): boolean {
    return this.reading.has(key);
  }

  /**
   * Reads the day again with `read` (one read at a time per key) and keeps it; when it fails, the
   * copy stays and `problem` says why (`describe` puts the failure in words).
   */
  refresh(
    key: string,
    read: (day: string) => Promise<PimsAppointmentView[]>,
    describe: (e: unknown, fetchedAt: string | null) => string,
  ): Promise<PimsDay> {
    const under = this.reading.get(key);
    if (under) return under;
    const day = this.day();
    const run = (async () => {
      try {
        const appointments = await read(day);
        await mkdir(this.options.dir, { recursive: true, mode: 0o700 });
        const fetchedAt = new Date((this.options.now ?? Date.now)()).toISOString();
        await writeJsonAtomic(this.file(key), { day, fetchedAt, appointments } satisfies Copy);
        this.problems.delete(key);
      } catch (e) {
        const copy = await this.copy(key);
        this.problems.set(key, describe(e, copy?.fetchedAt ?? null));
      }
    })();
    const done = run.then(async () => {
      this.reading.delete(key);
      return this.view(key);
    });
    this.reading.set(key, done);
    return done;
  }

  /** A vet signed out of the PIMS: their copy goes too. */
  async forget(key: string): Promise<void> {
    this.problems.delete(key);
    await rm(this.file(key), { force: true });
  }
}
