// How many of the signed-in vet's own consults are still on their way to the service (they
// wait on this computer for that vet's next sign-in if the vet signs out; after a switch of
// user they go on with their own sign-in).
import { consultsIndex, useConsults } from '../../stores/consults.ts';
import { useSession } from '../../stores/session.ts';

export function useOwnConsultsUnderWay(): number {
  const me = useSession((s) => s.session.user?.id ?? null);
  return useConsults((s) => {
    const by = consultsIndex(s.byId).underWayBy;
    // A consult recorded with no one signed in goes with whoever signs in next.
    return (by.get(null) ?? 0) + (me === null ? 0 : (by.get(me) ?? 0));
  });
}
