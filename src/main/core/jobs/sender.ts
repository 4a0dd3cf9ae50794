// Whose sign-in a scribe request is sent with. A consult goes with its owner's sign-in only: the
// one in front, or the owner's background sign-in (kept when they switched user with consults in
// flight); else it waits for its owner, and one no one has claimed waits for a claim. A request a
// vet asked for on another's consult (one more document, Ask again, a document asked for again)
// is that vet's work: its record names them (`actor`), and it goes with their sign-in only
// (Actors.withToken), never with the owner's.
import type { ConsultOwner } from '../../../shared/ipc.ts';
import type { User } from '../../../shared/service/index.ts';
import { ActorAwayError, actorName, type Actor, SignedOutError, type Session } from '../sign-in/index.ts';
import type { JobsContext } from './context.ts';
import type { JobRecord } from './record.ts';

const UNCLAIMED = 'No one has claimed this consult yet; it waits for a vet to send it as theirs.';
const NOT_YOURS = "This consult belongs to another account; it waits for that account's sign-in.";

/** The consult belongs to another account than the one signed in, or to none yet: it waits for its owner (or a claim). */
export class NotOwnerError extends Error {
  readonly unclaimed: boolean;
  constructor(unclaimed = false) {
    super(unclaimed ? UNCLAIMED : NOT_YOURS);
    this.name = 'NotOwnerError';
    this.unclaimed = unclaimed;
  }
}

export function ownerOf(user: User, service: string): ConsultOwner {
  return { userId: user.id, organizationId: user.organizationId, name: user.name, email: user.email, service };
}

/** What a job's sign-in is decided from: its recording, and the vet who asked for it when not its owner. */
export type SentFor = Pick<JobRecord, 'recordingId' | 'actor'>;

/** The work of a vet who is not signed in here now: it waits for them, and says so. */
export function actorAway(actor: Actor): ActorAwayError {
  return new ActorAwayError(
    actor,
    `${actorName(actor)} asked for this; it waits for their sign-in on this computer and goes with no one else's.`,
  );
}

/** The user whose sign-in sends this job: the vet who asked for it, else the consult's owner (null: no one yet). */
export function senderOf(context: JobsContext, job: SentFor): string | null {
  return job.actor?.userId ?? context.options.sender(job.recordingId);
}

/**
 * The user whose sign-in may send the job now; throws (to wait) when it has no owner yet, or
 * another account is signed in. Signed out, the call itself says so (SignedOutError). A job a vet
 * asked for waits for that vet (ActorAwayError) while they have no sign-in here.
 */
export function senderNow(context: JobsContext, job: SentFor): string {
  if (job.actor) {
    if (!context.options.actors.signedIn(job.actor)) throw actorAway(job.actor);
    return job.actor.userId;
  }
  const sender = context.options.sender(job.recordingId);
  const user = context.options.session.state().user;
  // Signed out, it waits for a sign-in first, whoever's it is: a claim needs one.
  if (sender === null) throw user === null ? new SignedOutError(null) : new NotOwnerError(true);
  if (context.options.background?.has(sender)) return sender;
  if (user !== null && user.id !== sender) throw new NotOwnerError();
  return sender;
}

/** Whether the job's sender has a sign-in on this computer now (in front or in the background). */
export function senderSignedIn(context: JobsContext, job: SentFor): boolean {
  if (job.actor) return context.options.actors.signedIn(job.actor);
  const sender = context.options.sender(job.recordingId);
  if (sender === null) return false;
  return context.options.session.state().user?.id === sender || (context.options.background?.has(sender) ?? false);
}

/** The sign-in a consult of this owner goes with: the one in front when it is theirs, else their background one. */
function sessionOf(context: JobsContext, owner: string): Session {
  const front = context.options.session;
  if (front.state().user?.id === owner) return front;
  return context.options.background?.get(owner) ?? front;
}

/**
 * A call with the sender's sign-in only, from start to finish: the token comes from that
 * sign-in, and a 401 refreshes that sign-in or stops (Session.withToken's `as`), never taking
 * whoever signed in meanwhile. The job's signal cancels the call itself. A job a vet asked for
 * goes with theirs: in front, else the one kept in the background when they switched user with
 * it on its way.
 */
export function withToken<T>(
  context: JobsContext,
  job: SentFor,
  signal: AbortSignal,
  fn: (token: string, signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const actor = job.actor;
  if (actor) {
    if (!context.options.actors.signedIn(actor)) return Promise.reject(actorAway(actor));
    return context.options.actors.withToken(actor, (t) => fn(t, signal), { inFlight: true, signal });
  }
  let as: string;
  try {
    as = senderNow(context, job);
  } catch (e) {
    return Promise.reject(e);
  }
  return sessionOf(context, as).withToken((t) => fn(t, signal), { as, signal });
}
