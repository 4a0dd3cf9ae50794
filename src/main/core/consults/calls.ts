// The IPC calls about a consult the vet recorded or can see (`consults:*`), each with what it
// needs of the gate and whether only the consult's owner may make it (ipc-call.ts says what
// the fields mean). Each runs one method of this folder's parts for the vet who asked.
import { signedIn } from '../sign-in/index.ts';
import type { ConsultsRevision } from '../../../shared/ipc.ts';
import type { Calls, ChannelsOf } from '../platform/index.ts';
import type { ConsultAccessView } from './access.ts';
import type { ConsultAnswers } from './answers.ts';
import type { ConsultCommands } from './commands.ts';
import type { ConsultConversation } from './conversation.ts';
import type { ConsultNotes } from './notes.ts';
import type { ConsultTrail } from './trail.ts';

/** The parts of this folder the calls run on, and what the engine adds. */
export interface ConsultCallParts {
  commands: ConsultCommands;
  notes: ConsultNotes;
  access: ConsultAccessView;
  answers: ConsultAnswers;
  trail: ConsultTrail;
  conversation: ConsultConversation;
  revision(): ConsultsRevision;
  search(query: string): string[];
  audioUrl(id: string): string;
}

export function consultCalls(parts: ConsultCallParts): Calls<ChannelsOf<'consults'>> {
  const { commands, notes, access, answers, trail, conversation } = parts;
  return {
    'consults:list': { run: () => access.visible() },
    'consults:revision': { run: () => parts.revision() },
    'consults:search': { run: ({ query }) => ({ ids: parts.search(query) }) },
    'consults:submit': {
      access: 'full',
      ownerOnly: 'send',
      run: ({ id, templateId }, actor) => commands.submit(id, templateId, actor),
    },
    'consults:retry': {
      access: 'full',
      ownerOnly: 'retry',
      run: ({ id }, actor) => commands.retry(id, signedIn(actor)),
    },
    'consults:update': { access: 'full', ownerOnly: 'change', run: (input, actor) => commands.update(input, actor) },
    'consults:claim': { access: 'claim', run: ({ id }, actor) => commands.claim(id, signedIn(actor)) },
    'consults:delete': {
      access: 'full',
      ownerOnly: 'delete',
      run: ({ id }, actor) => commands.delete(id, actor),
    },
    'consults:askAgain': {
      access: 'full',
      ownerOnly: 'askAgain',
      run: ({ id }, actor) => commands.askAgain(id, signedIn(actor)),
    },
    'consults:addDocument': {
      access: 'full',
      run: ({ id, templateId, templateName, again }, actor) =>
        commands.addDocument(id, templateId, templateName, again ?? null, signedIn(actor)),
    },
    'consults:retryDocument': {
      access: 'full',
      run: ({ id, documentId }, actor) => commands.retryDocument(id, documentId, signedIn(actor)),
    },
    'consults:note': { access: 'full', run: ({ id, documentId }, actor) => notes.read(id, documentId ?? null, actor) },
    'consults:noteFormats': { access: 'full', run: ({ id, documentId }) => notes.formats(id, documentId ?? null) },
    'consults:export': {
      access: 'full',
      run: ({ id, documentId, format }, actor) => notes.export(id, format, documentId ?? null, actor),
    },
    'consults:noteUsed': {
      access: 'full',
      run: ({ id, documentId, action }, actor) => notes.used(id, action, documentId ?? null, actor),
    },
    'consults:saveNote': {
      access: 'full',
      run: ({ id, documentId, text }, actor) => notes.save(id, text, documentId ?? null, signedIn(actor)),
    },
    'consults:draft': {
      access: 'full',
      run: ({ id, documentId }, actor) => notes.draft(id, documentId ?? null, signedIn(actor)),
    },
    'consults:saveDraft': {
      access: 'full',
      run: ({ id, documentId, text }, actor) => notes.saveDraft(id, text, documentId ?? null, signedIn(actor)),
    },
    'consults:audioUrl': { access: 'full', run: ({ id }) => ({ url: parts.audioUrl(id) }) },
    'consults:askDdx': { access: 'full', run: ({ id, input }, actor) => answers.askDdx(id, input, signedIn(actor)) },
    'consults:answers': { access: 'full', run: ({ id }) => answers.list(id) },
    'consults:trail': { access: 'full', run: async ({ id }) => ({ entries: await trail.read(id) }) },
    'consults:chat': {
      access: 'full',
      run: ({ id, documentId, message }, actor) => conversation.ask(id, message, documentId ?? null, signedIn(actor)),
    },
    'consults:chatTurns': { access: 'full', run: ({ id }, actor) => conversation.list(id, signedIn(actor)) },
  };
}
