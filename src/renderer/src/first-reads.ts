// Who is signed in and what the app is, asked of main before the rest of the window's script
// runs: main.tsx imports this module first, so its reads are on their way while React and the
// views are compiled and run, instead of after React's first render. Nothing else imports it
// (a test's window reads the session itself once its engine is up), so the rule that no module
// acts when imported holds everywhere but at the window's start.
import { useSession } from './stores/session.ts';

export const firstReads: Promise<void> = useSession.getState().load();
// The shell reports a failure once it is up; until then the rejection is not an unhandled one.
firstReads.catch(() => undefined);
