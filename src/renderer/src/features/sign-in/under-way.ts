// How many of the signed-in vet's own consults are still on their way to the service (they
// wait on this computer for that vet's next sign-in if the vet signs out; after a switch of
// user they go on with their own sign-in).
import { useConsults } from '../../stores/consults.ts';
import { useSession } from '../../stores/session.ts';

const UNDER_WAY = new Set(['recorded', 'session_created', 'upload_url', 'uploaded', 'scribe_requested']);

export function useOwnConsultsUnderWay(): number {
  const me = useSession((s) => s.session.user?.id ?? null);
  return useConsults(
    (s) =>
      Object.values(s.byId).filter(
        (c) =>
          c.job !== null &&
          UNDER_WAY.has(c.job.state) &&
          (c.recording.recordedBy === null || c.recording.recordedBy.userId === me),
      ).length,
  );
}
