// The IPC calls about the practice-management system (`pims:*`). Each acts for the vet who asked,
// decided once as the call came in: their own PIMS sign-in, their own day, their own consults.
import { signedIn } from '../sign-in/index.ts';
import type { Calls, ChannelsOf } from '../platform/index.ts';
import type { PracticeSystem } from './practice.ts';

export function pimsCalls({ practice }: { practice: PracticeSystem }): Calls<ChannelsOf<'pims'>> {
  return {
    'pims:status': { run: (_input, actor) => practice.status(actor) },
    'pims:signIn': {
      run: ({ address, clientId }, actor) => practice.signIn(address, clientId, signedIn(actor)),
    },
    'pims:cancelSignIn': { run: (_input, actor) => practice.cancelSignIn(signedIn(actor)) },
    'pims:signOut': { run: (_input, actor) => practice.signOut(signedIn(actor)) },
    'pims:today': { run: (_input, actor) => practice.todayNow(signedIn(actor)) },
    'pims:refreshToday': { run: (_input, actor) => practice.refreshToday(signedIn(actor)) },
    'pims:link': {
      access: 'full',
      run: ({ id, appointmentId }, actor) => practice.link(id, appointmentId, signedIn(actor)),
    },
    'pims:noteState': { access: 'full', run: ({ id }, actor) => practice.noteState(id, actor) },
    'pims:send': { access: 'full', ownerOnly: 'file', run: ({ id }, actor) => practice.send(id, signedIn(actor)) },
  };
}
