// The window's calls that go to the service through the session with a rule of their own: the
// sign-in as the window sees it (and the hand-over to the next vet) and the templates' paging.
import type { InvokeOutput, SessionInfo } from '../../../shared/ipc.ts';
import type { ChatAnswer, ChatRequest } from '../../../shared/service/index.ts';
import type { BackgroundSessions } from './background-sessions.ts';
import type { ServiceClient } from '../service/index.ts';
import type { Session, SessionState } from './session.ts';

/** The session as the window sees it: a sign-out by the vet's own hand needs no explaining. */
export function sessionInfo(s: SessionState, background?: BackgroundSessions): SessionInfo {
  const ended = s.endedBecause === 'expired' || s.endedBecause === 'revoked' ? s.endedBecause : null;
  const info: SessionInfo = { signedIn: s.signedIn, user: s.user, endedBecause: ended };
  if (s.endedBecause === 'switch') info.switched = true;
  const others = background?.users().filter((u) => u.id !== s.user?.id) ?? [];
  if (others.length > 0) info.background = others.map((u) => ({ userId: u.id, name: u.name || u.email }));
  return info;
}

export interface HandOver {
  background: BackgroundSessions;
  /** Whether this user has consults in flight on this computer (their sign-in is then kept). */
  inFlight: (userId: string) => boolean;
}

export class ServiceCalls {
  private readonly session: Session;
  private readonly client: ServiceClient;
  private readonly handOver: HandOver | undefined;

  constructor(session: Session, client: ServiceClient, handOver?: HandOver) {
    this.session = session;
    this.client = client;
    this.handOver = handOver;
  }

  sessionInfo(): SessionInfo {
    return sessionInfo(this.session.state(), this.handOver?.background);
  }

  /** A vet signing in again while their sign-in is in the background takes it to the front: one per account. */
  async signIn(email: string, password: string): Promise<SessionInfo> {
    const s = await this.session.signIn(email, password);
    if (s.user) await this.handOver?.background.end(s.user.id);
    return { ...this.sessionInfo(), endedBecause: null };
  }

  /** Signing out ends the vet's sign-in everywhere, in front and in the background. */
  async signOut(): Promise<SessionInfo> {
    const id = this.session.state().user?.id;
    await this.session.signOut('user');
    if (id !== undefined) await this.handOver?.background.end(id);
    return { ...this.sessionInfo(), endedBecause: null };
  }

  /**
   * Hands the computer to the next vet. The leaving vet's sign-in goes to the background when
   * they have consults in flight (uploads, scribe requests, polls, documents), which go on with
   * it until done; then the front is signed out, and the window is the next vet's.
   */
  async switchUser(): Promise<SessionInfo> {
    const leaving = this.session.handOver();
    const id = leaving?.user?.id;
    if (leaving && id !== undefined && this.handOver?.inFlight(id)) await this.handOver.background.keep(leaving);
    await this.session.signOut('switch');
    return this.sessionInfo();
  }

  async templates(page: number, limit = 50): Promise<InvokeOutput<'templates:list'>> {
    const answer = await this.session.withToken((t) => this.client.templates(t, page, limit));
    const total = answer.total ?? null;
    // The published service says has_next and gives no total; an older answer may give a total.
    const hasMore = answer.hasNext ?? (total !== null ? page * limit < total : answer.items.length === limit);
    return { items: answer.items, page, total, hasMore };
  }

  /** One turn of a conversation with the clinical assistant (`POST /chat`), as the vet signed in. */
  chat(body: ChatRequest): Promise<ChatAnswer> {
    return this.session.withToken((t) => this.client.chat(t, body));
  }
}
