// The IPC calls of the clinical agents (`agents:*`) and of the clinic's organization at the
// service (`org:*`): each is a request made with the asking vet's sign-in (agents.ts,
// organization.ts).
import { signedIn } from '../sign-in/index.ts';
import type { Calls, ChannelsOf } from '../platform/index.ts';
import type { Agents } from './agents.ts';
import type { Organization } from './organization.ts';

export function agentCalls({
  agents,
  organization,
}: {
  agents: Agents;
  organization: Organization;
}): Calls<ChannelsOf<'agents' | 'org'>> {
  return {
    'agents:ddx': { run: ({ input }, actor) => agents.ddx(input, signedIn(actor)) },
    'agents:treatmentPlan': {
      run: ({ input, allowWithoutSpecies }, actor) =>
        agents.treatmentPlan(input, allowWithoutSpecies ?? false, signedIn(actor)),
    },
    'agents:medication': { run: ({ input }, actor) => agents.medication(input, signedIn(actor)) },
    'org:get': { run: (_input, actor) => organization.get(signedIn(actor)) },
    'org:setNotificationEmail': {
      run: ({ email }, actor) => organization.setNotificationEmail(email, signedIn(actor)),
    },
    'org:setScribeWebhook': { run: ({ active }, actor) => organization.setScribeWebhook(active, signedIn(actor)) },
    'org:registerWebhook': {
      run: ({ url, secret }, actor) => organization.registerWebhook({ url, secret }, signedIn(actor)),
    },
  };
}
