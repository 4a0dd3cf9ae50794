// The IPC calls about the clinic's consults recorded elsewhere (`clinic:*`). They name a
// consult by the service's key, not a recording of this computer: each reads and writes the
// copy of the account that asks, so no gate is asked.
import { actorAccount, signedIn } from '../sign-in/index.ts';
import type { Calls, ChannelsOf } from '../platform/index.ts';
import type { ClinicConsults } from './clinic-consults.ts';
import type { ClinicConversation } from './clinic-conversation.ts';

export function clinicCalls({
  clinic,
  clinicConversation,
}: {
  clinic: ClinicConsults;
  clinicConversation: ClinicConversation;
}): Calls<ChannelsOf<'clinic'>> {
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
