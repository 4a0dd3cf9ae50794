// Who is signed in, and for whom work runs: the sign-in in front and the background sign-ins of
// vets who switched user (each with its tokens in the secret store), the actor a piece of work
// acts for, and the sign-in as the window sees it.
// The only way in from outside this folder (test/architecture/layers.test.ts checks it).
export { ActorAwayError, Actors, actorAccount, actorName, actorUser, signedIn, type Actor } from './actor.ts';
export { BackgroundSessions } from './background-sessions.ts';
export {
  MEMORY_ONLY_NOTICE,
  MemorySecretStore,
  chooseSecretStore,
  loadKeychain,
  openKeychain,
  type SecretStore,
} from './secret-store.ts';
export { ServiceCalls, sessionInfo } from './service-calls.ts';
export { Session, SessionChangedError, SignedOutError, type SessionState } from './session.ts';
