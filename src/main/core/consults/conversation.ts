// A conversation with the clinical assistant about one consult (`POST {agents_url}/chat`). The
// first message sends the note as the vet sees it (their edit when there is one), as plain text,
// for the assistant's context; the answer names the conversation and the next messages send that
// name instead. The turns are kept with the consult (conversation-store.ts), read again when the
// note is opened, and deleted with it. The service call runs outside the consult's turn (a slow
// answer must not hold up an edit or a delete); the turn is written in it, so an answer that
// comes back after its consult was deleted is dropped. Messages about one consult go one at a
// time, so the second waits for the conversation the first one starts. `Conversation` holds
// these rules; its home says where the turns are kept and who may see them: a consult of this
// computer (`ConsultConversation`, below) or a note of the clinic's from elsewhere
// (clinic/clinic-conversation.ts).
//
// Whatever goes wrong becomes one sentence, and nothing the vet wrote is lost: the window keeps
// the message in its box until a turn is kept. A note longer than the service takes is cut to
// its start; an answer too long to keep is cut; a conversation the service has forgotten is
// started again with the note. Each says so in the turn's notice.
import { randomUUID } from 'node:crypto';
import type { ChatTurn } from '../../../shared/ipc.ts';
import { MAX_CHAT_ANSWER, MAX_CHAT_CONTEXT } from '../../../shared/limits.ts';
import type { ChatAnswer, ChatRequest } from '../../../shared/service/index.ts';
import { KeyedQueue } from '../keyed-queue.ts';
import { ServiceError } from '../service-errors.ts';
import type { ConversationStore } from './conversation-store.ts';
import type { ConsultParts } from './parts.ts';

const THOUSANDS = new Intl.NumberFormat('en-GB');

export const CONTEXT_CUT = `The note is longer than the assistant takes: only its first ${THOUSANDS.format(MAX_CHAT_CONTEXT)} characters were sent.`;
export const ANSWER_CUT = `The answer was very long: only its first ${THOUSANDS.format(MAX_CHAT_ANSWER)} characters are kept.`;
export const STARTED_AGAIN = 'The assistant had forgotten this conversation, so it started again from the note.';
export const EMPTY_ANSWER = 'The assistant sent an empty answer; your message is kept, send it again.';
export const UNREADABLE_ANSWER = 'The assistant’s answer could not be read; your message is kept, send it again.';

/**
 * Where a conversation lives and who may see it: what a conversation needs of its consult,
 * whether it was recorded here (a consult's turn, its trail, its folder) or is a note of the
 * clinic's from elsewhere (the account's copy).
 */
export interface ConversationHome {
  /** Refuses, with one sentence, a consult the vet signed in may not see (or that is gone). */
  check(id: string): void | Promise<void>;
  /** Runs the writing of a turn where nothing else about the consult runs at the same time. */
  inTurn<T>(id: string, task: () => Promise<T>): Promise<T>;
  conversations: Pick<ConversationStore, 'read' | 'write'>;
  /** The note (or one more document of the consult) as plain text, as the vet sees it. */
  noteText(id: string, documentId: string | null): string | Promise<string>;
  /** A conversation was started (or started again) with the note: noted where the consult notes such things. */
  started(id: string, documentId: string | null): Promise<void>;
  /** `POST /chat` as the vet signed in (for consult `id`). */
  chat(body: ChatRequest, id: string): Promise<ChatAnswer>;
  now?: () => number;
}

export type ConsultConversationOptions = Pick<ConsultParts, 'access' | 'pipeline' | 'trail'> & {
  conversations: ConversationStore;
  /** The note (or one more document of the consult) as plain text, as the vet sees it. */
  noteText(id: string, documentId: string | null): string;
  /** `POST /chat` as the vet signed in. */
  chat(body: ChatRequest): Promise<ChatAnswer>;
  now?: () => number;
};

/** The note as the service takes it: at most MAX_CHAT_CONTEXT characters, cut at a line's end where one is near. */
export function chatContext(note: string): { context: string; cut: boolean } {
  const text = note.trim();
  if (text.length <= MAX_CHAT_CONTEXT) return { context: text, cut: false };
  const head = text.slice(0, MAX_CHAT_CONTEXT);
  const lineEnd = head.lastIndexOf('\n');
  return { context: (lineEnd > MAX_CHAT_CONTEXT * 0.8 ? head.slice(0, lineEnd) : head).trimEnd(), cut: true };
}

/** Whether the service no longer knows the conversation named: 404, or a refusal that says so. */
function forgotten(e: unknown): boolean {
  if (!(e instanceof ServiceError) || e.kind !== 'http') return false;
  if (e.status === 404 || e.status === 410) return true;
  return (
    (e.status === 400 || e.status === 422) &&
    /conversation/i.test(e.message) &&
    /not found|unknown|expired|no longer/i.test(e.message)
  );
}

/** A failed turn in one sentence a vet can read, keeping what the window needs (retry, sign-in). */
function sentence(e: unknown): unknown {
  if (!(e instanceof ServiceError)) return e;
  const extra = { status: e.status, code: e.code, retryAfterMs: e.retryAfterMs, cause: e };
  if (e.kind === 'invalid_answer') return new ServiceError('invalid_answer', e.operation, UNREADABLE_ANSWER, extra);
  if (e.kind === 'http' && e.status !== 401) {
    const said = e.message.trim().replace(/[.!]?$/, '.');
    return new ServiceError('http', e.operation, `The assistant could not answer: ${said}`, extra);
  }
  return e;
}

/** A conversation about one consult at a time, wherever its home keeps it. */
export class Conversation {
  private readonly home: ConversationHome;
  private readonly queue = new KeyedQueue();

  constructor(home: ConversationHome) {
    this.home = home;
  }

  /** One message about consult `id`; the first (and a restart) sends the note, or document `documentId`. */
  async ask(id: string, message: string, documentId: string | null = null): Promise<ChatTurn> {
    await this.home.check(id);
    return this.queue.run(id, () => this.turn(id, message.trim(), documentId));
  }

  list(id: string): Promise<ChatTurn[]> {
    const { inTurn, check, conversations } = this.home;
    return inTurn(id, async () => {
      await check(id);
      return (await conversations.read(id)).turns;
    });
  }

  private async turn(id: string, message: string, documentId: string | null): Promise<ChatTurn> {
    const { check, inTurn, conversations, started: noteStarted, now = Date.now } = this.home;
    const before = await conversations.read(id);
    const notices: string[] = [];
    const start = async (): Promise<ChatAnswer> => {
      const { context, cut } = chatContext(await this.home.noteText(id, documentId));
      if (cut) notices.push(CONTEXT_CUT);
      return this.home.chat({ message, target_context: context }, id);
    };
    let answer: ChatAnswer;
    try {
      if (before.conversationId === null) answer = await start();
      else {
        try {
          answer = await this.home.chat({ message, conversation_id: before.conversationId }, id);
        } catch (e) {
          if (!forgotten(e)) throw e;
          notices.push(STARTED_AGAIN);
          answer = await start();
        }
      }
    } catch (e) {
      throw sentence(e);
    }
    const output = answer.output.trim();
    if (output === '') throw new ServiceError('invalid_answer', 'chat', EMPTY_ANSWER);
    if (output.length > MAX_CHAT_ANSWER) notices.push(ANSWER_CUT);
    const started = before.conversationId === null || notices.includes(STARTED_AGAIN);
    const conversationId = answer.conversationId ?? (started ? null : before.conversationId);
    const turn: ChatTurn = {
      turnId: randomUUID(),
      askedAt: new Date(now()).toISOString(),
      message,
      answer: output.slice(0, MAX_CHAT_ANSWER),
      ...(notices.length > 0 ? { notice: notices.join(' ') } : {}),
    };
    return inTurn(id, async () => {
      // Gone (or no longer the vet's) while the service answered: refused, and nothing is written.
      await check(id);
      // An entry that cannot be written where the consult notes who started each conversation
      // refuses the turn as a whole (the vet is told, and the message stays in the box).
      if (started) await noteStarted(id, documentId);
      const kept = await conversations.read(id);
      await conversations.write(id, { conversationId, turns: [...kept.turns, turn] });
      return turn;
    });
  }
}

/** The conversation about a consult recorded here: kept beside it, in its turn, on its trail. */
export class ConsultConversation extends Conversation {
  constructor({ access, pipeline, trail, conversations, noteText, chat, now }: ConsultConversationOptions) {
    super({
      check: (id) => void access.consultFor(id),
      inTurn: (id, task) => pipeline.inTurn(id, task),
      conversations,
      noteText,
      started: (id, documentId) => trail.add(id, 'conversation', { documentId }).then(() => undefined),
      chat: (body) => chat(body),
      ...(now ? { now } : {}),
    });
  }
}
