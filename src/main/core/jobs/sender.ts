// Whose sign-in a consult is sent with. A consult goes with its owner's sign-in only: the one
// in front, or the owner's background sign-in (kept when they switched user with consults in
// flight); else it waits for its owner, and one no one has claimed waits for a claim.
import type { ConsultOwner } from '../../../shared/ipc.ts';
import type { User } from '../../../shared/service/index.ts';
import { SignedOutError, type Session } from '../session.ts';
import type { Engine } from './context.ts';

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

/**
 * The user whose sign-in may send the consult now; throws (to wait) when it has no owner yet,
 * or another account is signed in. Signed out, the call itself says so (SignedOutError).
 */
export function senderNow(engine: Engine, recordingId: string): string {
  const sender = engine.options.sender(recordingId);
  const user = engine.options.session.state().user;
  // Signed out, it waits for a sign-in first, whoever's it is: a claim needs one.
  if (sender === null) throw user === null ? new SignedOutError(null) : new NotOwnerError(true);
  if (engine.options.background?.has(sender)) return sender;
  if (user !== null && user.id !== sender) throw new NotOwnerError();
  return sender;
}

/** Whether the consult's owner has a sign-in on this computer now (in front or in the background). */
export function senderSignedIn(engine: Engine, recordingId: string): boolean {
  const sender = engine.options.sender(recordingId);
  if (sender === null) return false;
  return engine.options.session.state().user?.id === sender || (engine.options.background?.has(sender) ?? false);
}

/** The sign-in a consult of this owner goes with: the one in front when it is theirs, else their background one. */
function sessionOf(engine: Engine, owner: string): Session {
  const front = engine.options.session;
  if (front.state().user?.id === owner) return front;
  return engine.options.background?.get(owner) ?? front;
}

/**
 * A call with the owner's sign-in only, from start to finish: the token comes from that
 * sign-in, and a 401 refreshes that sign-in or stops (Session.withToken's `as`), never taking
 * whoever signed in meanwhile. The job's signal cancels the call itself.
 */
export function withToken<T>(
  engine: Engine,
  recordingId: string,
  signal: AbortSignal,
  fn: (token: string, signal: AbortSignal) => Promise<T>,
): Promise<T> {
  let as: string;
  try {
    as = senderNow(engine, recordingId);
  } catch (e) {
    return Promise.reject(e);
  }
  return sessionOf(engine, as).withToken((t) => fn(t, signal), { as, signal });
}
