// The consults' index: one file in the data folder (`<data>/consults-index.json`), holding what
// a launch needs of every consult (its meta, its job and further documents as last written), so
// a clinic's years of consults are read as one file rather than two or three files and a listing
// per consult. It is a cache and nothing more: the folders stay the truth, and what the index says of a consult is
// used only while that consult's folder is as the index saw it.
//
// How an entry is known to still hold, cheaply: every file the app writes into a consult's folder
// (meta.json, job.json, a new documents folder) is written beside it and renamed into place, and
// a rename changes the folder's modification time; a document does the same to the documents
// folder. Each entry carries those times as they were when it was taken, so at launch one stat
// per folder tells an entry that holds from one that does not, whoever changed the folder since
// (this engine after the index was written, a kill before it was written again, an older version
// of the app that knows nothing of the index). A folder the index does not name is read from
// disk; an entry whose folder is gone is dropped, so a deleted consult never comes back. A file
// system keeps times to a tick (a few milliseconds here, a second or two elsewhere), so a folder
// changed in the same tick as its entry was taken could keep its time: an entry whose folder
// changed less than `RACY_MS` before the index was taken is not trusted (git's rule for its own index). The whole file is
// ignored when it is missing, unreadable, or of another format (`FORMAT`), and written again.
import { statSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { readJson, tempTarget, writeTextAtomic } from '../platform/index.ts';
import { parseMeta, type RecordingMeta } from './meta.ts';

/** Raised whenever what an entry holds changes meaning: an index of another format is read from the folders again. */
const FORMAT = 1;
/** How long before the index was taken an entry must have been, to be trusted (see above). */
const RACY_MS = 10_000;
const DOCUMENTS = 'documents';

/** A consult's job and further documents as the index holds them: parsed by the jobs, not here. */
export interface IndexedJobs {
  job: unknown;
  documents: unknown[];
}

const entrySchema = z.object({
  id: z.string(),
  mtimeMs: z.number(),
  documentsMtimeMs: z.number().nullable(),
  meta: z.unknown(),
  job: z.unknown(),
  documents: z.array(z.unknown()),
});
type Entry = z.infer<typeof entrySchema>;
const indexSchema = z.object({ format: z.literal(FORMAT), takenAt: z.number(), entries: z.array(z.unknown()) });

/** The index as read at launch: the entries that still hold are asked for one by one. */
export class ReadIndex {
  private readonly entries: Map<string, Entry>;
  private readonly takenAt: number;

  constructor(takenAt: number, entries: Map<string, Entry>) {
    this.takenAt = takenAt;
    this.entries = entries;
  }

  /**
   * The consult's meta and jobs, when the index holds them and its folder is as the index saw it;
   * null when it must be read from its folder. A recording the index saw going (recording or
   * paused) is read from its folder too: the launch recovers it.
   */
  trusted(id: string, folder: string): { meta: RecordingMeta; jobs: IndexedJobs } | null {
    const entry = this.entries.get(id);
    if (!entry || entry.mtimeMs >= this.takenAt - RACY_MS) return null;
    // One stat after another on the main thread: about a third of the time of the same stats
    // through the thread pool (measured at 10,000 folders), and the launch waits for them anyway.
    // A folder that cannot be looked at is read as the index did not know it (its read says why).
    const timeOf = (path: string) => {
      try {
        return statSync(path, { throwIfNoEntry: false })?.mtimeMs;
      } catch {
        return undefined;
      }
    };
    if (timeOf(folder) !== entry.mtimeMs) return null;
    if (entry.documentsMtimeMs !== null) {
      if (entry.documentsMtimeMs >= this.takenAt - RACY_MS) return null;
      if (timeOf(join(folder, DOCUMENTS)) !== entry.documentsMtimeMs) return null;
    }
    const meta = parseMeta(entry.meta, id);
    if (meta === null || (meta.state !== 'finished' && meta.state !== 'recovered')) return null;
    return { meta, jobs: { job: entry.job, documents: entry.documents } };
  }
}

/**
 * The index in `file`, or null (and why, to the log) when there is none to use. What a kill left of
 * a write of it (its temp beside it) is removed first: the index before it is still whole.
 */
export async function readIndex(file: string, log: (line: string) => void): Promise<ReadIndex | null> {
  const names = await readdir(dirname(file)).catch(() => [] as string[]);
  for (const name of names)
    if (tempTarget(name) === basename(file))
      await rm(join(dirname(file), name), { force: true }).catch(() => undefined);
  let raw: unknown;
  try {
    raw = await readJson(file);
  } catch (e) {
    log(`recordings: the consults' index is unreadable (${(e as Error).message}); reading every folder`);
    return null;
  }
  if (raw === null) return null;
  const parsed = indexSchema.safeParse(raw);
  if (!parsed.success) {
    log("recordings: the consults' index is of another format; reading every folder");
    return null;
  }
  const entries = new Map<string, Entry>();
  for (const item of parsed.data.entries) {
    const entry = entrySchema.safeParse(item);
    // One damaged entry costs its consult a read from its folder, not the whole index.
    if (entry.success) entries.set(entry.data.id, entry.data);
  }
  return new ReadIndex(parsed.data.takenAt, entries);
}

/**
 * Writes the index of the consults given, each with its folder's times taken before what it holds
 * is read, so an entry is never newer on disk than its times say. `jobs` answers a consult's job
 * and documents as the engine holds them now.
 */
export async function writeIndex(
  file: string,
  consults: Iterable<[string, string]>,
  meta: (id: string) => RecordingMeta | undefined,
  jobs: (id: string) => IndexedJobs,
): Promise<number> {
  // The file system's clock, not the app's: the entries' times are compared with it.
  const takenAt = Date.now();
  const entries: Entry[] = [];
  for (const [id, folder] of consults) {
    const times = await stat(folder).catch(() => null);
    if (!times) continue;
    const documents = await stat(join(folder, DOCUMENTS)).catch(() => null);
    const now = meta(id);
    if (!now) continue;
    entries.push({
      id,
      mtimeMs: times.mtimeMs,
      documentsMtimeMs: documents?.mtimeMs ?? null,
      meta: now,
      ...jobs(id),
    });
  }
  await writeTextAtomic(file, JSON.stringify({ format: FORMAT, takenAt, entries }));
  return entries.length;
}

/**
 * Writes the index again some time after the first change not in it (`delayMs`; later changes
 * join that write), and at once when asked (`flush`, at stop). Rarely, on purpose: the index of a
 * clinic's years of consults is tens of megabytes, and a recording changes its meta every second,
 * while a change the index does not hold yet costs the next start a read of that one folder, no
 * more (a kill included). One write at a time.
 */
export class IndexKeeper {
  private timer: NodeJS.Timeout | null = null;
  private dirty = false;
  private writing: Promise<void> = Promise.resolve();
  private readonly write: () => Promise<unknown>;
  private readonly delayMs: number;
  private readonly log: (line: string) => void;

  constructor(opts: { write: () => Promise<unknown>; delayMs: number; log: (line: string) => void }) {
    this.write = opts.write;
    this.delayMs = opts.delayMs;
    this.log = opts.log;
  }

  /** Something the index holds has changed: written with the others within `delayMs`. */
  changed(): void {
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush(), this.delayMs);
    this.timer.unref();
  }

  /** Writes the index now if anything changed since it was last written. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.dirty) return this.writing;
    this.dirty = false;
    this.writing = this.writing.then(() =>
      this.write().then(
        () => undefined,
        (e: unknown) => {
          this.dirty = true;
          this.log(
            `recordings: the consults' index was not written (${(e as Error).message}); the next launch reads the folders`,
          );
        },
      ),
    );
    return this.writing;
  }
}
