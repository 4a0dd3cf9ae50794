// The window's calls that go to the service through the session with a rule of their own: the
// sign-in as the window sees it and the templates' paging.
import type { InvokeOutput, SessionInfo } from '../../shared/ipc.ts';
import type { ServiceClient } from './service-client.ts';
import type { Session, SessionState } from './session.ts';

/** The session as the window sees it: a sign-out by the vet's own hand needs no explaining. */
export function sessionInfo(s: SessionState): SessionInfo {
  return { signedIn: s.signedIn, user: s.user, endedBecause: s.endedBecause === 'user' ? null : s.endedBecause };
}

export class ServiceCalls {
  private readonly session: Session;
  private readonly client: ServiceClient;

  constructor(session: Session, client: ServiceClient) {
    this.session = session;
    this.client = client;
  }

  sessionInfo(): SessionInfo {
    return sessionInfo(this.session.state());
  }

  async signIn(email: string, password: string): Promise<SessionInfo> {
    const s = await this.session.signIn(email, password);
    return { signedIn: s.signedIn, user: s.user, endedBecause: null };
  }

  async signOut(): Promise<SessionInfo> {
    const s = await this.session.signOut('user');
    return { signedIn: s.signedIn, user: s.user, endedBecause: null };
  }

  async templates(page: number, limit = 50): Promise<InvokeOutput<'templates:list'>> {
    const answer = await this.session.withToken((t) => this.client.templates(t, page, limit));
    const total = answer.total ?? null;
    // The published service says has_next and gives no total; an older answer may give a total.
    const hasMore = answer.hasNext ?? (total !== null ? page * limit < total : answer.items.length === limit);
    return { items: answer.items, page, total, hasMore };
  }
}
