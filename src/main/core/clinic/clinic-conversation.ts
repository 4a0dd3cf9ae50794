// A conversation about a note of the clinic's from elsewhere, as about a consult of this
// computer (consults/conversation.ts): the first message sends the note kept with the account's
// copy, the next ones the conversation's id. The turns are the account's, as its copy is: kept
// beside it in <data>/clinic/conversations/<account>.<note>.json (both names hashed), asked and
// written under that account's sign-in only, so another vet (of this clinic or another) never
// reads them; shown again whenever the note is opened, after a restart too.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { ChatTurn } from '../../../shared/ipc.ts';
import type { ChatAnswer, ChatRequest } from '../../../shared/service/index.ts';
import { actorAccount, type Actor, type Actors } from '../sign-in/index.ts';
import { Conversation, ConversationStore } from '../consults/index.ts';
import type { ClinicConsults } from './clinic-consults.ts';
import { accountKey, type ClinicAccount } from './copy-file.ts';
import { Refusal } from '../platform/index.ts';

export interface ClinicConversationOptions {
  dataDir: string;
  clinic: ClinicConsults;
  actors: Pick<Actors, 'withToken' | 'inFront'>;
  /** `POST /chat` with this token. */
  chat(token: string, body: ChatRequest): Promise<ChatAnswer>;
  now?: () => number;
}

/** The name of the file of an account's conversation about a note: no id of the service in it. */
function fileId(account: ClinicAccount, scribeId: string): string {
  const note = createHash('sha256').update(scribeId).digest('hex').slice(0, 32);
  return `${accountKey(account)}.${note}`;
}

export class ClinicConversation {
  private readonly conversation: Conversation;
  private readonly clinic: ClinicConsults;
  /** Which note each file is about, for the checks and calls made by file. */
  private readonly targets = new Map<string, { key: string }>();

  constructor(options: ClinicConversationOptions) {
    const { clinic } = options;
    this.clinic = clinic;
    const target = (file: string) => {
      const t = this.targets.get(file);
      if (!t) throw new Refusal('not_found', 'That consult is not in the clinic’s list. Refresh the list.');
      return t;
    };
    this.conversation = new Conversation({
      // Still a note of the asking vet's list, in the file of that vet's account: an answer that
      // comes back after another vet signed in is written into the asking vet's conversation only.
      check: async (file, actor) => {
        const { account, scribeId } = await clinic.chatTarget(target(file).key, actorAccount(actor));
        if (fileId(account, scribeId) !== file)
          throw new Refusal('not_found', 'That consult is not in the clinic’s list. Refresh the list.');
      },
      inTurn: (_file, task) => task(),
      conversations: new ConversationStore(join(options.dataDir, 'clinic', 'conversations')),
      noteText: async (file, _documentId, actor) => (await clinic.note(target(file).key, actorAccount(actor))).note,
      // Nothing of this computer's trail: the note's consult was recorded elsewhere.
      started: async () => undefined,
      chat: (body, _file, actor) => options.actors.withToken(actor, (t) => options.chat(t, body)),
      inFront: (actor) => options.actors.inFront(actor),
      ...(options.now ? { now: options.now } : {}),
    });
  }

  private async file(key: string, actor: Actor): Promise<string> {
    const { account, scribeId } = await this.clinic.chatTarget(key, actorAccount(actor));
    const file = fileId(account, scribeId);
    this.targets.set(file, { key });
    return file;
  }

  /** One message of `actor` about the note `key` of their clinic's list; the first sends the note as kept. */
  async ask(key: string, message: string, actor: Actor): Promise<ChatTurn> {
    return this.conversation.ask(await this.file(key, actor), message, null, actor);
  }

  /** `actor`'s conversation about note `key`, oldest turn first. */
  async list(key: string, actor: Actor): Promise<ChatTurn[]> {
    return this.conversation.list(await this.file(key, actor), actor);
  }
}
