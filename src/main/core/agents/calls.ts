// The IPC calls of the clinical agents (`agents:*`) and of the clinic's organization at the
// service (`org:*`): each is a request made with the asking vet's sign-in (clinical.ts).
import { signedIn } from '../sign-in/index.ts';
import type { Calls, ChannelsOf } from '../platform/index.ts';
import type { Clinical } from './clinical.ts';

export function clinicalCalls({ clinical }: { clinical: Clinical }): Calls<ChannelsOf<'agents' | 'org'>> {
  return {
    'agents:ddx': { run: ({ input }, actor) => clinical.ddx(input, signedIn(actor)) },
    'agents:treatmentPlan': {
      run: ({ input, allowWithoutSpecies }, actor) =>
        clinical.treatmentPlan(input, allowWithoutSpecies ?? false, signedIn(actor)),
    },
    'agents:medication': { run: ({ input }, actor) => clinical.medication(input, signedIn(actor)) },
    'org:get': { run: (_input, actor) => clinical.organization(signedIn(actor)) },
    'org:setNotificationEmail': { run: ({ email }, actor) => clinical.setNotificationEmail(email, signedIn(actor)) },
    'org:setScribeWebhook': { run: ({ active }, actor) => clinical.setScribeWebhook(active, signedIn(actor)) },
    'org:registerWebhook': {
      run: ({ url, secret }, actor) => clinical.registerWebhook({ url, secret }, signedIn(actor)),
    },
  };
}
