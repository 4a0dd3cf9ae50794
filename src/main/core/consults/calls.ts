// The IPC calls about a consult the vet recorded or can see (`consults:*`), each with what it
// needs of the gate and whether only the consult's owner may make it (ipc-call.ts says what
// the fields mean). Each runs one method of this folder's parts for the vet who asked.
import { signedIn } from '../actor.ts';
import type { AppCore } from '../app-core.ts';
import type { Calls, ChannelsOf } from '../ipc-call.ts';

export function consultCalls(core: AppCore): Calls<ChannelsOf<'consults'>> {
  const { commands, notes, access, answers, trail, conversation } = core;
  return {
    'consults:list': { run: () => access.visible() },
    'consults:revision': { run: () => core.consultsRevision() },
    'consults:search': { run: ({ query }) => ({ ids: core.searchConsults(query) }) },
    'consults:submit': {
      access: 'full',
      ownerOnly: 'send',
      run: ({ id, templateId }, actor) => commands.submit(id, templateId, actor),
    },
    'consults:retry': {
      access: 'full',
      ownerOnly: 'send',
      run: ({ id }, actor) => commands.retry(id, signedIn(actor)),
    },
    'consults:claim': { access: 'claim', run: ({ id }, actor) => commands.claim(id, signedIn(actor)) },
    'consults:delete': {
      access: 'full',
      ownerOnly: 'delete',
      run: ({ id }, actor) => commands.delete(id, actor),
    },
    'consults:askAgain': { access: 'full', run: ({ id }, actor) => commands.askAgain(id, signedIn(actor)) },
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
    'consults:audioUrl': { access: 'full', run: ({ id }) => ({ url: core.options.audioUrl(id) }) },
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
