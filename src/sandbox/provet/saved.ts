// The double's state on disk, when the sandbox has a data folder: the day's appointments,
// consultations and notes, and the sign-ins as token digests (never a token). One JSON file,
// provet-state.json, written whole (temp file, fsync, rename). A file of another day gives
// back its sign-ins only: the appointments are seeded afresh for today.
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { DaySnapshot } from './data.ts';
import type { OAuthSnapshot } from './tokens.ts';

export interface SavedProvet {
  version: 1;
  data: DaySnapshot;
  oauth: OAuthSnapshot;
}

// The frame is checked; the records inside are the double's own writing, kept as they are. A
// file cut short or of another program is set aside and the double starts afresh.
const record = z.looseObject({});
const entries = z.array(z.tuple([z.string(), record]));
const savedSchema = z.object({
  version: z.literal(1),
  data: z.looseObject({
    day: z.string(),
    appointments: z.array(record),
    consultations: z.array(record),
    notes: z.array(record),
    nextId: z.object({ consultation: z.number(), note: z.number() }),
  }),
  oauth: z.object({ access: entries, refresh: entries }),
});

export class SavedState {
  private readonly file: string | null;
  /** Why the last save or load failed, if it did; the double goes on in memory. */
  problem: string | null = null;

  constructor(dataDir: string | null) {
    this.file = dataDir ? join(dataDir, 'provet-state.json') : null;
  }

  load(): SavedProvet | null {
    if (!this.file) return null;
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') this.problem = `could not read ${this.file}`;
      return null;
    }
    try {
      const checked = savedSchema.safeParse(JSON.parse(text));
      if (checked.success) return checked.data as unknown as SavedProvet;
      this.problem = `${this.file} is not the Provet double's state: ${checked.error.issues[0]?.message ?? ''}`;
    } catch {
      this.problem = `${this.file} is not JSON`;
    }
    return null;
  }

  save(state: SavedProvet): void {
    if (!this.file) return;
    const tmp = `${this.file}.${process.pid}.tmp`;
    try {
      const fd = openSync(tmp, 'w', 0o600);
      try {
        writeSync(fd, JSON.stringify(state));
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, this.file);
      this.problem = null;
    } catch (e) {
      // Never thrown: a stand-in must not take down the app it runs in. The next save tries again.
      try {
        rmSync(tmp, { force: true });
      } catch {
        // The folder itself is gone or unreadable: nothing was left in it.
      }
      this.problem = `could not save ${this.file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
    }
  }
}
