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
import { ActorAwayError, actorName, actorUser, type Actor, type Actors } from '../sign-in/index.ts';
import { KeyedQueue } from '../platform/index.ts';
import { ServiceError } from '../service/index.ts';
import type { ConversationStore } from './conversation-store.ts';
import type { ConsultParts } from './parts.ts';

const THOUSANDS = new Intl.NumberFormat('en-GB');

export const CONTEXT_CUT = `The note is longer than the assistant takes: only its first ${THOUSANDS.format(MAX_CHAT_CONTEXT)} characters were sent.`;
export const ANSWER_CUT = `The answer was very long: only its first ${THOUSANDS.format(MAX_CHAT_ANSWER)} characters are kept.`;
export const STARTED_AGAIN = 'The assistant had forgotten this conversation, so it started again from the note.';
export const EMPTY_ANSWER = 'The assistant sent an empty answer; your message is kept, send it again.';
export const UNREADABLE_ANSWER = 'The assistant’s answer could not be read; your message is kept, send it again.';

/** The answer to a vet who has left the PC since they asked: kept for them, not shown to whoever is in front. */
export function keptForActor(actor: Actor): string {
  return `The assistant answered after ${actorName(actor)} left; the answer is kept with the conversation for them.`;
}

/**
 * Where a conversation lives and who may see it: what a conversation needs of its consult,
 * whether it was recorded here (a consult's turn, its trail, its folder) or is a note of the
 * clinic's from elsewhere (the account's copy).
 */
export interface ConversationHome {
  /** Refuses, with one sentence, a consult `actor` may not see (or that is gone). */
  check(id: string, actor: Actor): void | Promise<void>;
  /** Runs the writing of a turn where nothing else about the consult runs at the same time. */
  inTurn<T>(id: string, task: () => Promise<T>): Promise<T>;
  conversations: Pick<ConversationStore, 'read' | 'write'>;
  /** The note (or one more document of the consult) as plain text, as the vet sees it. */
  noteText(id: string, documentId: string | null, actor: Actor): string | Promise<string>;
  /** A conversation was started (or started again) with the note by `actor`: noted where the consult notes such things. */
  started(id: string, documentId: string | null, actor: Actor): Promise<void>;
  /** `POST /chat` with `actor`'s own sign-in, never another's (Actors.withToken). */
  chat(body: ChatRequest, id: string, actor: Actor): Promise<ChatAnswer>;
  /** Whether `actor` is still the vet in front: a turn that lands after they left is kept, not shown. */
  inFront(actor: Actor): boolean;
  now?: () => number;
}

export type ConsultConversationOptions = Pick<ConsultParts, 'access' | 'pipeline' | 'trail'> & {
  conversations: ConversationStore;
  actors: Pick<Actors, 'withToken' | 'inFront'>;
  /** The note (or one more document of the consult) as plain text, as the vet sees it. */
  noteText(id: string, documentId: string | null): string;
  /** `POST /chat` with this token. */
  chat(token: string, body: ChatRequest): Promise<ChatAnswer>;
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

  /**
   * One message of `actor` about consult `id`; the first (and a restart) sends the note, or
   * document `documentId`. A message queued behind another goes with the same vet's sign-in or
   * not at all, however long it waits.
   */
  async ask(id: string, message: string, documentId: string | null, actor: Actor): Promise<ChatTurn> {
    await this.home.check(id, actor);
    return this.queue.run(id, () => this.turn(id, message.trim(), documentId, actor));
  }

  list(id: string, actor: Actor): Promise<ChatTurn[]> {
    const { inTurn, check, conversations } = this.home;
    return inTurn(id, async () => {
      await check(id, actor);
      return (await conversations.read(id)).turns;
    });
  }

  private async turn(id: string, message: string, documentId: string | null, actor: Actor): Promise<ChatTurn> {
    const { check, inTurn, conversations, started: noteStarted, now = Date.now } = this.home;
    // Checked again in its turn: a vet who left while an earlier message was answered, or who
    // may no longer see the consult, sends nothing more.
    await check(id, actor);
    if (!this.home.inFront(actor)) throw new ActorAwayError(actor);
    const before = await conversations.read(id);
    const notices: string[] = [];
    const start = async (): Promise<ChatAnswer> => {
      const { context, cut } = chatContext(await this.home.noteText(id, documentId, actor));
      if (cut) notices.push(CONTEXT_CUT);
      return this.home.chat({ message, target_context: context }, id, actor);
    };
    let answer: ChatAnswer;
    try {
      if (before.conversationId === null) answer = await start();
      else {
        try {
          answer = await this.home.chat({ message, conversation_id: before.conversationId }, id, actor);
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
    const written = await inTurn(id, async () => {
      // Gone (or no longer the asking vet's) while the service answered: refused, and nothing is written.
      await check(id, actor);
      // An entry that cannot be written where the consult notes who started each conversation
      // refuses the turn as a whole (the vet is told, and the message stays in the box).
      if (started) await noteStarted(id, documentId, actor);
      const kept = await conversations.read(id);
      await conversations.write(id, { conversationId, turns: [...kept.turns, turn] });
      return turn;
    });
    // The vet who asked has left the PC: the turn is theirs, kept with the conversation, and the
    // window (now another vet's) is told only that.
    if (!this.home.inFront(actor)) throw new ActorAwayError(actor, keptForActor(actor));
    return written;
  }
}

/** The conversation about a consult recorded here: kept beside it, in its turn, on its trail. */
export class ConsultConversation extends Conversation {
  constructor({ access, pipeline, trail, conversations, actors, noteText, chat, now }: ConsultConversationOptions) {
    super({
      check: (id, actor) => void access.consultFor(id, actor),
      inTurn: (id, task) => pipeline.inTurn(id, task),
      conversations,
      noteText: (id, documentId) => noteText(id, documentId),
      started: (id, documentId, actor) =>
        trail.add(id, 'conversation', { documentId, who: actorUser(actor) }).then(() => undefined),
      chat: (body, _id, actor) => actors.withToken(actor, (t) => chat(t, body)),
      inFront: (actor) => actors.inFront(actor),
      ...(now ? { now } : {}),
    });
  }
}
