// The IPC calls about the clinic's consults recorded elsewhere (`clinic:*`). They name a
// consult by the service's key, not a recording of this computer: each reads and writes the
// copy of the account that asks, so no gate is asked.
import { actorAccount, signedIn } from '../actor.ts';
import type { AppCore } from '../app-core.ts';
import type { Calls, ChannelsOf } from '../ipc-call.ts';

export function clinicCalls(core: AppCore): Calls<ChannelsOf<'clinic'>> {
  const { clinic, clinicConversation } = core;
  return {
    'clinic:list': { run: () => clinic.view() },
    'clinic:refresh': { run: (_input, actor) => clinic.refresh(actor && actorAccount(actor)) },
    'clinic:note': { run: ({ key }) => clinic.note(key) },
    'clinic:noteFormats': { run: ({ key }) => clinic.formats(key) },
    'clinic:export': { run: ({ key, format }) => clinic.export(key, format) },
    'clinic:chat': { run: ({ key, message }, actor) => clinicConversation.ask(key, message, signedIn(actor)) },
    'clinic:chatTurns': { run: ({ key }, actor) => clinicConversation.list(key, signedIn(actor)) },
  };
}
