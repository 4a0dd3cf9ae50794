// The files of the conversations kept with the consults: `<data>/conversations/<consult id>.json`,
// written atomically, at most MAX_KEPT_TURNS turns a consult. A file that cannot be read counts
// as no conversation (the next message starts a new one with the note); the consult itself is
// never at stake.
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { ChatTurn } from '../../../shared/ipc.ts';
import { readJson, writeJsonAtomic } from '../platform/index.ts';

/** The most turns kept per consult; the oldest go first. */
export const MAX_KEPT_TURNS = 200;

// The id becomes a file name: no separator, no `..`, no `:` (a stream name on Windows).
const CONSULT_ID = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;

const turnSchema = z.object({
  turnId: z.string(),
  askedAt: z.string(),
  message: z.string(),
  answer: z.string(),
  notice: z.string().optional(),
});
const fileSchema = z.object({ conversationId: z.string().nullable(), turns: z.array(turnSchema) });

/** A consult's conversation: the service's id for it (null before the first answer) and its turns. */
export interface KeptConversation {
  conversationId: string | null;
  turns: ChatTurn[];
}

export class ConversationStore {
  private readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  private path(id: string): string {
    if (!CONSULT_ID.test(id)) throw new Error(`conversations: ${JSON.stringify(id)} cannot name a file`);
    return join(this.dir, `${id}.json`);
  }

  /** The conversation kept for consult `id`; none when its file is missing or unreadable. */
  async read(id: string): Promise<KeptConversation> {
    let raw: unknown;
    try {
      raw = await readJson(this.path(id));
    } catch {
      return { conversationId: null, turns: [] };
    }
    const file = fileSchema.safeParse(raw);
    return file.success ? (file.data as KeptConversation) : { conversationId: null, turns: [] };
  }

  async write(id: string, conversation: KeptConversation): Promise<void> {
    const kept = { conversationId: conversation.conversationId, turns: conversation.turns.slice(-MAX_KEPT_TURNS) };
    await mkdir(this.dir, { recursive: true });
    await writeJsonAtomic(this.path(id), kept);
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
