// Each consult's trail: who recorded, sent, edited, copied, exported, printed or deleted it, or
// started a conversation about it, and when. One JSON line per entry in trail.jsonl beside the
// recording; a deletion is written to deleted-consults.jsonl in the data folder, since the
// consult's folder goes with it.
//
// An entry is written before its action: when it cannot be written (a full disk), the action is
// refused as a whole with one sentence, and nothing is lost (the consult, the vet's edit kept
// as a draft, the audio). A trail that quietly misses the one entry that mattered would not be
// a trail; refusing an action that only failed to be noted costs the vet one more try.
import { appendFile, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { MAX_TRAIL_ENTRIES, TRAIL_ACTIONS, type TrailAction, type TrailEntry } from '../../../shared/trail.ts';
import type { User } from '../../../shared/service/index.ts';
import { diskErrorCode, type DiskErrorCode, writeTextAtomic } from '../platform/index.ts';

const TRAIL = 'trail.jsonl';
/** A file past this size is cut back to its first entry and the newest (an entry is ~150 bytes). */
const MAX_BYTES = 64 * 1024;
const MAX_DELETIONS_BYTES = 512 * 1024;

const trailEntrySchema: z.ZodType<TrailEntry> = z.object({
  action: z.enum(TRAIL_ACTIONS),
  at: z.string().max(40),
  userId: z.string().max(200),
  name: z.string().max(200),
  documentId: z.string().max(40).optional(),
});

export class TrailError extends Error {
  readonly code: DiskErrorCode;
  constructor(code: DiskErrorCode, cause: unknown, message?: string) {
    super(
      message ??
        (code === 'disk_full'
          ? 'Nothing was done: the consult’s history could not be written because the disk is full; free some space and try again.'
          : 'Nothing was done: the consult’s history could not be written to this computer’s disk; try again.'),
      { cause },
    );
    this.name = 'TrailError';
    this.code = code;
  }
}

export interface TrailOptions {
  /** The consult's folder (beside its audio and meta). */
  folder: (id: string) => string;
  /** Where deletions are kept. */
  deletionsFile: string;
  now?: () => Date;
}

export class ConsultTrail {
  private readonly options: TrailOptions;

  constructor(options: TrailOptions) {
    this.options = options;
  }

  /**
   * Adds an entry, as the vet signed in now (or `who`). Throws TrailError when it cannot be
   * written: the caller has not acted yet and does not. Other core code calls this too (a
   * conversation linked to a consult).
   */
  async add(
    id: string,
    action: TrailAction,
    { documentId = null, who }: { documentId?: string | null; who: User | null },
  ): Promise<TrailEntry> {
    const entry = { ...this.entry(action, who), ...(documentId === null ? {} : { documentId }) };
    const file = join(this.options.folder(id), TRAIL);
    await written(async () => {
      await appendFile(file, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
      await this.bound(file, MAX_BYTES);
    });
    return entry;
  }

  /** The consult's trail, oldest first; lines that cannot be read (a write cut short) are left out. */
  async read(id: string): Promise<TrailEntry[]> {
    const all = await readLines(join(this.options.folder(id), TRAIL));
    // Its first entry (who recorded it) and the newest.
    return all.length <= MAX_TRAIL_ENTRIES ? all : [all[0]!, ...all.slice(1 - MAX_TRAIL_ENTRIES)];
  }

  /** Notes a deletion where it outlives the consult's folder; throws TrailError when it cannot. */
  async deleted(id: string, patientName: string | null, who: User | null): Promise<void> {
    const line = { id, patientName, ...this.entry('deleted', who) };
    await written(async () => {
      await appendFile(this.options.deletionsFile, `${JSON.stringify(line)}\n`, { mode: 0o600 });
      await this.bound(this.options.deletionsFile, MAX_DELETIONS_BYTES);
    });
  }

  /** The consults whose deletion was noted (as many as the deletions file still holds). */
  async deletedIds(): Promise<Set<string>> {
    const text = await readFile(this.options.deletionsFile, 'utf8').catch(() => '');
    const ids = new Set<string>();
    for (const line of text.split('\n')) {
      try {
        const id = (JSON.parse(line) as { id?: unknown }).id;
        if (typeof id === 'string') ids.add(id);
      } catch {
        // A line cut short by a kill names no consult.
      }
    }
    return ids;
  }

  private entry(action: TrailAction, who: User | null): TrailEntry {
    const at = (this.options.now?.() ?? new Date()).toISOString();
    return { action, at, userId: who?.id ?? '', name: (who?.name || who?.email || '').slice(0, 200) };
  }

  /** Keeps a file bounded: past `maxBytes`, its first line (recorded) and the newest half. */
  private async bound(file: string, maxBytes: number): Promise<void> {
    if ((await stat(file)).size <= maxBytes) return;
    const lines = (await readFile(file, 'utf8')).split('\n').filter((l) => l !== '');
    const kept = [lines[0], ...lines.slice(1).slice(-Math.floor(lines.length / 2))];
    // Rewritten atomically: a crash here leaves the whole trail or the bounded one, never half.
    await writeTextAtomic(file, `${kept.join('\n')}\n`);
  }
}

async function written(write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (e) {
    throw new TrailError(diskErrorCode(e) ?? 'io', e);
  }
}

async function readLines(file: string): Promise<TrailEntry[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const entries: TrailEntry[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const parsed = trailEntrySchema.safeParse(JSON.parse(line));
      if (parsed.success) entries.push(parsed.data);
    } catch {
      // A line cut short by a crash: the rest of the trail still reads.
    }
  }
  return entries;
}
