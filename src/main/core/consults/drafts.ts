// The vet's unsaved edit of a note, kept as it is typed (`<data>/drafts/<key>+<vet>.json`,
// written atomically), so that leaving the note, a reload or a crash loses nothing. The key is
// the consult's id, or `<consult id>.document-<document id>` for a further document; `<vet>` is a
// short hash of the user id of the vet who typed it. A draft is that vet's alone: on a shared PC
// the colleague who opens the same note next neither sees it (they are told only whose unsaved
// changes there are), nor saves it, nor throws it away. A draft that cannot be read is moved
// aside (kept, never deleted) and the service's note is shown.
//
// Drafts written before drafts had a vet (`<key>.json`) could have been typed by any vet of the
// clinic; they are given to the vet who recorded the consult, whose note it is: shown to them
// alone, and gone when they save, discard or type over it. No colleague ever sees one.
import { createHash } from 'node:crypto';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { KeyedQueue, readJson, tempTarget, writeJsonAtomic } from '../platform/index.ts';

/** A draft as it is answered: the text and when it was kept. */
const draftSchema = z.object({ text: z.string(), savedAt: z.string() });
export type Draft = z.infer<typeof draftSchema>;
/**
 * A draft's file: the draft and the name of the vet who typed it (to tell a colleague who else has
 * unsaved changes to a note, never what they are); members it does not name are dropped.
 */
const fileSchema = draftSchema.extend({ by: z.string().max(200).optional() });

/**
 * Whose draft: the vet's user id, how colleagues know them, and whether they recorded the consult
 * (older drafts are theirs).
 */
export interface DraftVet {
  userId: string;
  name: string;
  recordedIt: boolean;
}

const DOCUMENT = '.document-';
// Between the key and the vet in a file name: a character no key may hold, so a file names one
// key and one vet only.
const VET = '+';
// No separator, no leading or trailing dot and no `..`, and no `:` (a stream name on Windows):
// the key becomes a file name, so it must not be able to name anything outside the folder.
const CONSULT_ID = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;
const DOCUMENT_ID = /^[A-Za-z0-9-]{1,40}$/;
const MAX_KEY = 200;

/** The consult a draft key belongs to; throws for a key that could not safely name a file. */
function consultOf(key: unknown): string {
  if (typeof key === 'string' && key.length <= MAX_KEY) {
    const at = key.indexOf(DOCUMENT);
    const consult = at === -1 ? key : key.slice(0, at);
    if (CONSULT_ID.test(consult) && (at === -1 || DOCUMENT_ID.test(key.slice(at + DOCUMENT.length)))) return consult;
  }
  throw new Error(`drafts: ${JSON.stringify(key)} cannot name a draft`);
}

/**
 * A vet as a file name shows them: 16 hex digits of a hash of their user id. Never their name or
 * e-mail, which the drafts folder would otherwise give to anyone who lists it.
 */
function vetTag(userId: string): string {
  if (typeof userId !== 'string' || userId === '') throw new Error('drafts: a draft needs the vet who typed it');
  return createHash('sha256').update(userId).digest('hex').slice(0, 16);
}

/** The file name of the draft under `key` of the vet with `userId`; null: of a draft an older version wrote. */
export function draftFileName(key: string, userId: string | null): string {
  consultOf(key);
  return userId === null ? `${key}.json` : `${key}${VET}${vetTag(userId)}.json`;
}

/** The draft key a file of the folder holds (a draft, or a temp left while writing one), or null. */
function keyOfFile(name: string): string | null {
  const target = tempTarget(name) ?? name;
  if (!target.endsWith('.json')) return null;
  const file = target.slice(0, -'.json'.length);
  const at = file.indexOf(VET);
  return at === -1 ? file : file.slice(0, at);
}

export class DraftStore {
  private readonly dir: string;
  private readonly now: () => number;
  /**
   * One queue per consult. A consult's drafts (its note and its further documents) share one so
   * that removing the consult is ordered after every write already asked for and before every
   * one asked for later, including for documents whose drafts are only on disk. Without it, two
   * saves typed in quick succession, or a save and the clear that follows Save or Discard, race
   * on the disk and the older one can land last.
   */
  private readonly queues = new KeyedQueue();
  /** A draft that could not be read, once: its key, and where it was put. */
  onUnreadable?: (id: string, keptAs: string) => void;

  constructor(dir: string, now: () => number = Date.now) {
    this.dir = dir;
    this.now = now;
  }

  /** The file of `vet`'s draft under `key`; with no vet, the file of a draft an older version wrote. */
  private path(key: string, vet: DraftVet | null): string {
    return join(this.dir, draftFileName(key, vet === null ? null : vet.userId));
  }

  private enqueue<T>(consult: string, task: () => Promise<T>): Promise<T> {
    // A failed task fails its caller only; the ones after it still run.
    return this.queues.run(consult, task);
  }

  /**
   * `vet`'s draft under `key`, after every put of it asked for before; null when they have none
   * (another vet's draft of the same note is never answered).
   */
  async get(key: string, vet: DraftVet): Promise<Draft | null> {
    const consult = consultOf(key);
    vetTag(vet.userId);
    return this.enqueue(consult, async () => {
      const own = await this.read(key, vet);
      return own === null && vet.recordedIt ? this.read(key, null) : own;
    });
  }

  /**
   * Keeps `text` as `vet`'s draft under `key`; null throws it away. The last call wins. Another
   * vet's draft of the same note is left as it is.
   */
  async put(key: string, vet: DraftVet, text: string | null): Promise<Draft | null> {
    const consult = consultOf(key);
    vetTag(vet.userId);
    return this.enqueue(consult, async () => {
      const draft = await this.write(key, vet, text);
      // The older draft was theirs: once they have saved over it, or thrown their edit away, it
      // must not come back. Removed after the write, so a crash between keeps one or the other.
      if (vet.recordedIt) await rm(this.path(key, null), { force: true });
      return draft;
    });
  }

  /**
   * The names of the other vets who have a draft under `key`, after the puts asked for before:
   * what a colleague is told ("Dr. … has unsaved changes"), never the text. A draft an older
   * version kept is named `olderBy` (the recording vet's) for anyone but that vet.
   */
  async othersEditing(key: string, vet: DraftVet, olderBy: string | null): Promise<string[]> {
    const consult = consultOf(key);
    const own = draftFileName(key, vet.userId);
    return this.enqueue(consult, async () => {
      const names = new Set<string>();
      for (const name of await this.names()) {
        if (name === own || tempTarget(name) !== null || keyOfFile(name) !== key) continue;
        if (name === draftFileName(key, null)) {
          if (!vet.recordedIt && olderBy) names.add(olderBy);
          continue;
        }
        // One that cannot be read is not this vet's to move aside: it is left for its own vet.
        const file = fileSchema.safeParse(await readJson(join(this.dir, name)).catch(() => null));
        if (file.success) names.add(file.data.by || 'Another vet');
      }
      return [...names];
    });
  }

  /**
   * Removes every vet's drafts of consult `id` and of all its documents (and those an older
   * version wrote), and any temp a write of them left behind, once the writes already asked for
   * have run. Drafts kept aside as unreadable stay.
   */
  async removeConsult(id: string): Promise<void> {
    if (consultOf(id) !== id) throw new Error(`drafts: ${JSON.stringify(id)} is not a consult`);
    return this.enqueue(id, async () => {
      const names = await this.names();
      const mine = names.filter((name) => {
        const key = keyOfFile(name);
        return key !== null && (key === id || key.startsWith(`${id}${DOCUMENT}`));
      });
      await Promise.all(mine.map((name) => rm(join(this.dir, name), { force: true })));
    });
  }

  /** The consults that have a draft here, any vet's (what a delete cut short may have left). */
  async consults(): Promise<string[]> {
    const ids = new Set<string>();
    for (const name of await this.names()) {
      try {
        ids.add(consultOf(keyOfFile(name)));
      } catch {
        // Not a draft's name: not this store's to report.
      }
    }
    return [...ids];
  }

  /**
   * Removes the temps that a process killed mid-write left in the folder (each could hold a whole
   * note's text, and nothing else would ever remove it). Drafts and the unreadable ones kept aside
   * are not touched. Each removal waits in its consult's queue, so a write in flight keeps its temp.
   * Returns the names removed.
   */
  async sweep(): Promise<string[]> {
    const temps = (await this.names()).filter((name) => tempTarget(name) !== null);
    await Promise.all(
      temps.map((name) => {
        const remove = () => rm(join(this.dir, name), { force: true });
        let consult: string | null = null;
        try {
          consult = consultOf(keyOfFile(name));
        } catch {
          // Not a temp this store could be writing: nothing to wait for.
        }
        return consult === null ? remove() : this.enqueue(consult, remove);
      }),
    );
    return temps;
  }

  private async names(): Promise<string[]> {
    try {
      return await readdir(this.dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw e;
    }
  }

  private async read(key: string, vet: DraftVet | null): Promise<Draft | null> {
    const path = this.path(key, vet);
    let raw: unknown;
    try {
      raw = await readJson(path);
    } catch {
      raw = undefined;
    }
    if (raw === null) return null;
    const draft = fileSchema.safeParse(raw);
    if (draft.success) return { text: draft.data.text, savedAt: draft.data.savedAt };
    const keptAs = `${path}.unreadable-${this.now()}`;
    await rename(path, keptAs).catch(() => undefined);
    this.onUnreadable?.(key, keptAs);
    return null;
  }

  private async write(key: string, vet: DraftVet, text: string | null): Promise<Draft | null> {
    if (text === null) {
      await rm(this.path(key, vet), { force: true });
      return null;
    }
    await mkdir(this.dir, { recursive: true });
    const draft: Draft = { text, savedAt: new Date(this.now()).toISOString() };
    await writeJsonAtomic(this.path(key, vet), { ...draft, by: vet.name.slice(0, 200) });
    return draft;
  }
}
