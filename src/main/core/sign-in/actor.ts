// Who a piece of work acts for. The actor is the vet (an account of one service) on whose behalf
// the work runs; it is fixed once, when the vet asks (the IPC handler table reads it before it
// parses the call), and travels with the work to its last request, its retries, its queued turns
// and its trail entry. Nothing downstream asks "who is signed in now" again: on a shared exam-room
// PC that is whoever sat down since, and their token, their trail line or their window is the
// wrong one for work another vet started.
//
// - `Actors.current()` is the one place that turns the sign-in in front into an actor.
// - `Actors.withToken(actor, …)` is the one place that picks the sign-in a request of that work
//   goes with: the one in front while it is still the actor's, else, for work that was already on
//   its way when the vet left (`inFlight`), their background sign-in; otherwise the request is not
//   sent at all (SessionChangedError), never sent with someone else's token.
// - `Actors.inFront(actor)` is asked when an answer lands: an answer for a vet who is no longer
//   in front is kept for that vet (or dropped), never shown to the next one.
import type { ConsultOwner } from '../../../shared/ipc.ts';
import type { User } from '../../../shared/service/index.ts';
import type { BackgroundSessions } from './background-sessions.ts';
import { SessionChangedError, SignedOutError, type Session } from './session.ts';

/** The vet a piece of work acts for: their account and the service it belongs to. Same fields as a consult's owner. */
export type Actor = Readonly<ConsultOwner>;

/** The actor for `user` on service `service`. */
export function actorOf(user: User, service: string): Actor {
  return { userId: user.id, organizationId: user.organizationId, name: user.name, email: user.email, service };
}

/** The user an actor's trail entries and checks are written for. */
export function actorUser(actor: Actor): User {
  return { id: actor.userId, organizationId: actor.organizationId, name: actor.name, email: actor.email };
}

/** The account whose copy of the clinic's consults an actor reads and writes. */
export function actorAccount(actor: Actor): { userId: string; organizationId: string; service: string } {
  return { userId: actor.userId, organizationId: actor.organizationId, service: actor.service };
}

/** How the actor is named to a vet: "Dr. Demo Vet", else their e-mail. */
export function actorName(actor: Actor): string {
  return actor.name.trim() || actor.email;
}

/** The work of a vet who has left the PC: not sent with the next vet's sign-in, and said so. */
export class ActorAwayError extends SessionChangedError {
  readonly actor: Actor;
  constructor(actor: Actor, message?: string) {
    super();
    this.name = 'ActorAwayError';
    this.actor = actor;
    this.message =
      message ??
      `${actorName(actor)} is no longer signed in on this computer, so this was not sent; it was not sent with anyone else's sign-in.`;
  }
}

export interface ActorsOptions {
  session: Session;
  background?: BackgroundSessions;
  /** Which service accounts belong to now (AppCore.serviceKey). */
  serviceKey: () => string;
}

export class Actors {
  private readonly options: ActorsOptions;

  constructor(options: ActorsOptions) {
    this.options = options;
  }

  /** The vet in front now, as the actor of what they are asking; null when no one is signed in. */
  current(): Actor | null {
    const state = this.options.session.state();
    return state.signedIn && state.user ? actorOf(state.user, this.options.serviceKey()) : null;
  }

  /** Whether this actor is still the vet in front, on the same service. */
  inFront(actor: Actor): boolean {
    const now = this.current();
    return now !== null && now.userId === actor.userId && now.service === actor.service;
  }

  /** Whether this actor has a sign-in on this computer: in front, or kept in the background. */
  signedIn(actor: Actor): boolean {
    if (this.inFront(actor)) return true;
    return actor.service === this.options.serviceKey() && (this.options.background?.has(actor.userId) ?? false);
  }

  /**
   * Runs a request of the actor's work with the actor's own sign-in, from start to finish
   * (Session.withToken's `as`: a 401 refreshes that sign-in or stops). The sign-in in front while
   * it is theirs; with `inFlight` (work that was on its way when they switched user), their
   * background sign-in; otherwise nothing is sent (ActorAwayError).
   */
  withToken<T>(
    actor: Actor,
    fn: (token: string) => Promise<T>,
    { signal, inFlight = false }: { signal?: AbortSignal; inFlight?: boolean } = {},
  ): Promise<T> {
    const session = this.sessionFor(actor, inFlight);
    if (!session) return Promise.reject(new ActorAwayError(actor));
    return session.withToken(fn, { as: actor.userId, ...(signal ? { signal } : {}) });
  }

  private sessionFor(actor: Actor, inFlight: boolean): Session | null {
    if (actor.service !== this.options.serviceKey()) return null;
    if (this.inFront(actor)) return this.options.session;
    return inFlight ? (this.options.background?.get(actor.userId) ?? null) : null;
  }
}

/** The actor of a call that needs a vet signed in; signed out, the call is refused as such. */
export function signedIn(actor: Actor | null): Actor {
  if (!actor) throw new SignedOutError(null);
  return actor;
}
