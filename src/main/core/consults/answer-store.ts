// The files of the agents' answers kept with the consults: `<data>/answers/<consult id>.json`,
// written atomically, at most MAX_KEPT_ANSWERS a consult. A file that cannot be read counts as
// no answers (they can be asked again); the consult itself is never at stake.
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { KeptAnswer } from '../../../shared/ipc.ts';
import { readJson, writeJsonAtomic } from '../platform/index.ts';

/** The most answers kept per consult; the oldest goes first. */
export const MAX_KEPT_ANSWERS = 20;

// The id becomes a file name: no separator, no `..`, no `:` (a stream name on Windows).
const CONSULT_ID = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;

// What a file must hold to be read back; the result's members beyond these are kept as written.
const keptSchema = z.object({
  answerId: z.string(),
  kind: z.literal('ddx'),
  askedAt: z.string(),
  question: z.string(),
  result: z
    .object({
      status: z.boolean(),
      reason: z.string(),
      diagnoses: z.array(z.object({ label: z.string() }).passthrough()),
    })
    .passthrough(),
});
const fileSchema = z.object({ answers: z.array(keptSchema) });

/** The files of the kept answers, one a consult. */
export class AnswerStore {
  private readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  private path(id: string): string {
    if (!CONSULT_ID.test(id)) throw new Error(`answers: ${JSON.stringify(id)} cannot name a file`);
    return join(this.dir, `${id}.json`);
  }

  /** The answers kept for consult `id`, oldest first; none when its file is missing or unreadable. */
  async list(id: string): Promise<KeptAnswer[]> {
    let raw: unknown;
    try {
      raw = await readJson(this.path(id));
    } catch {
      return [];
    }
    const file = fileSchema.safeParse(raw);
    return file.success ? (file.data.answers as KeptAnswer[]) : [];
  }

  async add(id: string, answer: KeptAnswer): Promise<void> {
    const kept = [...(await this.list(id)), answer].slice(-MAX_KEPT_ANSWERS);
    await mkdir(this.dir, { recursive: true });
    await writeJsonAtomic(this.path(id), { answers: kept });
  }

  /** The consults that have a file here (what a delete cut short may have left). */
  async consults(): Promise<string[]> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    return names.filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -'.json'.length));
  }

  async removeConsult(id: string): Promise<void> {
    await rm(this.path(id), { force: true });
  }
}
