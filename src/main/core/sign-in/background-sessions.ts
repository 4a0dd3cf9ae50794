// The sign-ins of vets who switched user while their consults were in flight. Each is a Session
// of its own (the same refresh rules as the foreground's), keyed by user id, its tokens in the
// secret store's entry for that account. Only the sender (jobs/sender.ts) uses them, to send a
// consult with its own owner's sign-in; the window never acts through them. A background
// sign-in ends when its consults are done, when its refresh is refused, when its vet signs out,
// or when its vet signs in again (their sign-in is then the foreground one: one per account).
import { EventEmitter } from 'node:events';
import { z } from 'zod';
import type { User } from '../../../shared/service/index.ts';
import type { SecretStore, StoredSession } from './secret-store.ts';
import type { Session } from './session.ts';

export interface BackgroundOptions {
  /** The store whose `forAccount` entries hold the background sign-ins. */
  store: SecretStore;
  /** A Session over one account's store (the foreground's client and settings). */
  makeSession: (store: SecretStore) => Session;
  log?: (line: string) => void;
}

const indexSchema = z.array(z.string().min(1).max(200)).max(100);

export class BackgroundSessions extends EventEmitter<{ changed: [] }> {
  private readonly sessions = new Map<string, Session>();
  private readonly options: BackgroundOptions;

  constructor(options: BackgroundOptions) {
    super();
    this.options = options;
  }

  /** The background sign-in of this user, if they have one. */
  get(userId: string): Session | undefined {
    return this.sessions.get(userId);
  }

  has(userId: string): boolean {
    return this.sessions.has(userId);
  }

  /** Whose sign-ins are in the background (names for the window; never tokens). */
  users(): User[] {
    return [...this.sessions.values()].flatMap((s) => {
      const user = s.state().user;
      return user ? [user] : [];
    });
  }

  /** Keeps a sign-in handed over by the foreground, for its consults in flight. */
  async keep(stored: StoredSession): Promise<void> {
    const id = stored.user?.id;
    if (!id) return;
    await this.end(id);
    const session = this.watch(id, this.options.makeSession(this.options.store.forAccount(id)));
    await session.adopt(stored);
    await this.saveIndex();
    this.options.log?.(`session: user ${id} kept in the background for their consults in flight`);
    this.emit('changed');
  }

  /** Ends this user's background sign-in, if any, and clears its entry. */
  async end(userId: string): Promise<void> {
    const session = this.sessions.get(userId);
    if (!session) return;
    this.sessions.delete(userId);
    session.removeAllListeners('changed');
    await session.signOut('user');
    await this.saveIndex();
    this.options.log?.(`session: the background sign-in of user ${userId} ended`);
    this.emit('changed');
  }

  /** Ends them all (the app now talks to another service). */
  async endAll(): Promise<void> {
    for (const id of [...this.sessions.keys()]) await this.end(id);
  }

  /** Ends every background sign-in whose consults are all done. */
  async prune(inFlight: (userId: string) => boolean): Promise<void> {
    for (const id of [...this.sessions.keys()]) if (!inFlight(id)) await this.end(id);
  }

  /** At launch: the background sign-ins kept when the app closed. */
  async restore(): Promise<void> {
    let ids: string[] = [];
    try {
      const parsed = indexSchema.safeParse(
        JSON.parse((await this.options.store.loadSecret('background-sessions')) ?? '[]'),
      );
      ids = parsed.success ? parsed.data : [];
    } catch (e) {
      this.options.log?.(`session: the background sign-ins could not be read (${(e as Error).message})`);
    }
    for (const id of ids) {
      const session = this.options.makeSession(this.options.store.forAccount(id));
      const state = await session.restore();
      if (state.signedIn && state.user?.id === id) this.watch(id, session);
      else await session.signOut('user');
    }
    await this.saveIndex();
    if (this.sessions.size > 0) this.emit('changed');
  }

  /** A background sign-in whose refresh is refused ends: its consults wait for their owner. */
  private watch(id: string, session: Session): Session {
    this.sessions.set(id, session);
    session.on('changed', (state) => {
      if (state.signedIn || this.sessions.get(id) !== session) return;
      this.sessions.delete(id);
      this.options.log?.(`session: the background sign-in of user ${id} ended (${state.endedBecause ?? 'user'})`);
      void this.saveIndex().finally(() => this.emit('changed'));
    });
    return session;
  }

  private async saveIndex(): Promise<void> {
    await this.options.store.saveSecret('background-sessions', JSON.stringify([...this.sessions.keys()]));
  }
}
