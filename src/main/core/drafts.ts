// The vet's unsaved edit of a note, kept as it is typed (`<data>/drafts/<consult id>.json`,
// written atomically), so that leaving the note, a reload or a crash loses nothing. A draft
// that cannot be read is moved aside (kept, never deleted) and the service's note is shown.
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { readJson, writeJsonAtomic } from './atomic-file.ts';

export interface Draft {
  text: string;
  savedAt: string;
}

export class DraftStore {
  private readonly dir: string;
  private readonly now: () => number;
  /** A draft that could not be read, once: its consult, and where it was put. */
  onUnreadable?: (id: string, keptAs: string) => void;

  constructor(dir: string, now: () => number = Date.now) {
    this.dir = dir;
    this.now = now;
  }

  private path(id: string): string {
    return join(this.dir, `${id}.json`);
  }

  async get(id: string): Promise<Draft | null> {
    let raw: unknown;
    try {
      raw = await readJson(this.path(id));
    } catch {
      raw = undefined;
    }
    if (raw === null) return null;
    const draft = raw as Partial<Draft> | undefined;
    if (draft && typeof draft.text === 'string' && typeof draft.savedAt === 'string') return { text: draft.text, savedAt: draft.savedAt };
    const keptAs = `${this.path(id)}.unreadable-${this.now()}`;
    await rename(this.path(id), keptAs).catch(() => undefined);
    this.onUnreadable?.(id, keptAs);
    return null;
  }

  /** Keeps `text` as the draft of consult `id`; null throws the draft away. */
  async put(id: string, text: string | null): Promise<Draft | null> {
    if (text === null) {
      await rm(this.path(id), { force: true });
      return null;
    }
    await mkdir(this.dir, { recursive: true });
    const draft: Draft = { text, savedAt: new Date(this.now()).toISOString() };
    await writeJsonAtomic(this.path(id), draft);
    return draft;
  }
}
