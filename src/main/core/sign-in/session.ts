// The signed-in session: the only holder of the tokens in the process. It refreshes ahead of
// expiry (60 s margin) and once on a 401, one refresh at a time however many callers wait;
// saves a rotated refresh token before the new access token is used; keeps the session
// through a network error or 5xx while refreshing; and signs out (nothing else: queued
// recordings are not touched) only when the service refuses the refresh.
import { EventEmitter } from 'node:events';
import type { TokenSet, User } from '../../../shared/service/index.ts';
import type { ServiceClient } from '../service/index.ts';
import { ServiceError } from '../service/index.ts';
import type { SecretStore, StoredSession } from './secret-store.ts';

export const REFRESH_MARGIN_MS = 60_000;

/** 'switch': the vet handed the computer to a colleague (their recording, if any, goes on). */
export type SignOutReason = 'user' | 'switch' | 'expired' | 'revoked';

export interface SessionState {
  signedIn: boolean;
  user: User | null;
  /** Why the last session ended, when it did not end by the user's hand. */
  endedBecause: SignOutReason | null;
}

export class SignedOutError extends Error {
  readonly reason: SignOutReason | null;
  constructor(reason: SignOutReason | null) {
    super(
      reason === 'expired' || reason === 'revoked'
        ? 'Your session has ended; sign in again.'
        : 'You are signed out; sign in first.',
    );
    this.name = 'SignedOutError';
    this.reason = reason;
  }
}

/** The sign-in a call started with has ended or been replaced; the call was not sent with another. */
export class SessionChangedError extends SignedOutError {
  constructor() {
    super(null);
    this.message = 'The sign-in changed while this was being asked; it was not sent with the new one. Ask again.';
    this.name = 'SessionChangedError';
  }
}

export interface SessionOptions {
  client: ServiceClient;
  store: SecretStore;
  now?: () => number;
  /** Sign in with `POST /auth/login` on the scribing API (the setting `signInAtScribe`). */
  useScribeLogin?: () => boolean;
  log?: (line: string) => void;
}

export class Session extends EventEmitter<{ changed: [SessionState] }> {
  private current: StoredSession | null = null;
  private refreshing: Promise<StoredSession> | null = null;
  private endedBecause: SignOutReason | null = null;
  /** Bumped at every sign-in and sign-out, so a refresh that finishes late cannot revive an old session. */
  private generation = 0;
  private readonly client: ServiceClient;
  private readonly store: SecretStore;
  private readonly now: () => number;
  private readonly options: SessionOptions;
  refreshCount = 0;

  constructor(options: SessionOptions) {
    super();
    this.options = options;
    this.client = options.client;
    this.store = options.store;
    this.now = options.now ?? Date.now;
  }

  state(): SessionState {
    return { signedIn: this.current !== null, user: this.current?.user ?? null, endedBecause: this.endedBecause };
  }

  private emitChanged() {
    this.emit('changed', this.state());
  }

  /** At launch: the session kept in the secret store, if any. */
  async restore(): Promise<SessionState> {
    let stored: StoredSession | null;
    try {
      stored = await this.store.load();
    } catch (e) {
      // A keychain that is locked, or whose unlock prompt was dismissed, must not keep the app
      // from starting: the vet signs in again (and can record meanwhile).
      this.options.log?.(`session: the saved sign-in could not be read (${(e as Error).message}); starting signed out`);
      stored = null;
    }
    if (stored && stored.refreshExpiresAt !== undefined && stored.refreshExpiresAt * 1000 <= this.now()) {
      await this.store.clear();
      this.endedBecause = 'expired';
    } else {
      this.current = stored;
    }
    this.emitChanged();
    return this.state();
  }

  async signIn(email: string, password: string): Promise<SessionState> {
    const answer = await this.client.signIn(email, password, {
      viaScribeLogin: this.options.useScribeLogin?.() ?? false,
    });
    // The published /auth/login may answer the tokens alone: the user comes from /users/me.
    const tokens = answer.user ? answer : { ...answer, user: await this.client.me(answer.accessToken) };
    const stored = toStored(tokens, null, this.now());
    await this.store.save(stored);
    this.generation += 1;
    this.current = stored;
    this.endedBecause = null;
    this.options.log?.(`session: signed in as user ${stored.user?.id ?? '(unknown)'}`);
    this.emitChanged();
    return this.state();
  }

  /**
   * The check at launch: does the service still know the kept session (GET /users/me, with
   * the usual refresh on a 401)? A refused session signs out, saying so; a service out of reach
   * keeps the vet signed in (an exam room offline still records, and the queue waits). The user
   * the service names replaces the kept one (a changed name or organization).
   */
  async verify(): Promise<SessionState> {
    const session = this.current;
    if (!session) return this.state();
    const generation = this.generation;
    try {
      const user = await this.withToken((t) => this.client.me(t));
      if (generation !== this.generation || !this.current) return this.state();
      if (JSON.stringify(user) !== JSON.stringify(this.current.user)) {
        this.current = { ...this.current, user };
        await this.store.save(this.current);
        this.emitChanged();
      }
      this.options.log?.('session: the kept sign-in was checked with the service');
    } catch (e) {
      if (e instanceof SignedOutError) return this.state();
      if (e instanceof ServiceError && e.unauthorized && generation === this.generation) {
        await this.signOut('expired');
        return this.state();
      }
      this.options.log?.(
        `session: the kept sign-in could not be checked now (${e instanceof ServiceError ? e.kind : 'error'}); staying signed in`,
      );
    }
    return this.state();
  }

  async signOut(reason: SignOutReason = 'user'): Promise<SessionState> {
    this.generation += 1;
    this.current = null;
    this.refreshing = null;
    this.endedBecause = reason === 'user' ? null : reason;
    await this.store.clear();
    this.options.log?.(`session: signed out (${reason})`);
    this.emitChanged();
    return this.state();
  }

  /**
   * This sign-in's tokens, for moving it to the background when the vet switches user (main
   * only: no IPC channel reaches this).
   */
  handOver(): StoredSession | null {
    return this.current ? structuredClone(this.current) : null;
  }

  /** Takes over a sign-in handed over by another Session (kept for its consults in flight). */
  async adopt(stored: StoredSession): Promise<SessionState> {
    await this.store.save(stored);
    this.generation += 1;
    this.current = stored;
    this.refreshing = null;
    this.endedBecause = null;
    this.emitChanged();
    return this.state();
  }

  /** An access token good for at least the margin, refreshing first when needed. */
  async accessToken(): Promise<string> {
    const session = this.current;
    if (!session) throw new SignedOutError(this.endedBecause);
    const expiresAt = session.expiresAt;
    // The margin is 60 s, or half the token's life when tokens live shorter than two minutes.
    const life =
      expiresAt !== undefined && session.obtainedAt !== undefined ? expiresAt * 1000 - session.obtainedAt : Infinity;
    const margin = Math.min(REFRESH_MARGIN_MS, life / 2);
    if (expiresAt === undefined || expiresAt * 1000 - this.now() > margin) return session.accessToken;
    try {
      return (await this.refresh()).accessToken;
    } catch (e) {
      // A passing fault while refreshing early: the old token still works until it expires.
      if (e instanceof ServiceError && e.transient && expiresAt * 1000 > this.now()) return session.accessToken;
      throw e;
    }
  }

  /**
   * Runs a call with a fresh token; on a 401 refreshes once and runs it again. The call belongs
   * to the sign-in it started with, from start to finish: if another sign-in (or the same vet's
   * next one) has taken its place by the time the 401 comes back, the retry is not sent with
   * it; the call stops with SessionChangedError and its caller decides (a job waits for its
   * owner). With `as`, the call starts only under that user's sign-in.
   */
  async withToken<T>(
    fn: (token: string) => Promise<T>,
    { as, signal }: { as?: string; signal?: AbortSignal } = {},
  ): Promise<T> {
    const generation = this.generation;
    const mine = () => {
      if (generation !== this.generation) throw new SessionChangedError();
      if (as !== undefined && this.current?.user?.id !== as) throw new SessionChangedError();
    };
    if (as !== undefined && this.current !== null && this.current.user?.id !== as) throw new SessionChangedError();
    const token = await this.accessToken();
    mine();
    try {
      return await fn(token);
    } catch (e) {
      if (!(e instanceof ServiceError) || !e.unauthorized) throw e;
      if (signal?.aborted) throw e;
      mine();
      const fresh = await this.refresh(token);
      mine();
      return fn(fresh.accessToken);
    }
  }

  /**
   * One refresh at a time: callers that arrive while one runs share it. `staleToken` is the
   * access token a 401 came back for; if another caller already replaced it, that is enough.
   */
  refresh(staleToken?: string): Promise<StoredSession> {
    const session = this.current;
    if (!session) return Promise.reject(new SignedOutError(this.endedBecause));
    if (staleToken !== undefined && session.accessToken !== staleToken) return Promise.resolve(session);
    this.refreshing ??= this.doRefresh(session).finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async doRefresh(session: StoredSession): Promise<StoredSession> {
    const generation = this.generation;
    if (session.refreshExpiresAt !== undefined && session.refreshExpiresAt * 1000 <= this.now()) {
      await this.signOut('expired');
      throw new SignedOutError('expired');
    }
    let tokens: TokenSet;
    try {
      tokens = await this.client.refresh(session.accessToken, session.refreshToken);
    } catch (e) {
      if (e instanceof ServiceError && e.kind === 'http' && !e.transient) {
        // The service refused the refresh token: the session is over. Recordings stay queued.
        if (generation === this.generation)
          await this.signOut(e.code === 'refresh_token_reused' ? 'revoked' : 'expired');
        throw new SignedOutError(e.code === 'refresh_token_reused' ? 'revoked' : 'expired');
      }
      throw e;
    }
    if (generation !== this.generation) throw new SignedOutError(this.endedBecause);
    const next = toStored(tokens, session, this.now());
    // The rotated refresh token is saved before the new access token is used: a crash between
    // the two must not leave only the old (now revoked) refresh token in the keychain.
    await this.store.save(next);
    if (generation !== this.generation) throw new SignedOutError(this.endedBecause);
    this.current = next;
    this.refreshCount += 1;
    this.options.log?.('session: tokens refreshed');
    return next;
  }
}

function toStored(tokens: TokenSet, previous: StoredSession | null, now: number): StoredSession {
  return {
    obtainedAt: now,
    accessToken: tokens.accessToken,
    // "where applicable": a refresh answer without a new refresh token keeps the old one.
    refreshToken: tokens.refreshToken || previous?.refreshToken || '',
    expiresAt: tokens.expiresAt,
    refreshExpiresAt: tokens.refreshExpiresAt ?? previous?.refreshExpiresAt,
    user: tokens.user ?? previous?.user ?? null,
  };
}
