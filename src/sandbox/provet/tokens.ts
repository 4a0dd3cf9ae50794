// The double's tokens: opaque random strings, of which it keeps only the SHA-256 digests with
// who they are for and until when. So the state it saves (with a data folder) lets a sign-in
// outlive a restart of the sandbox and still holds no token.
import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';

export interface OAuthSettings {
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
  tokenLog: string | null;
}

export interface Access {
  userId: number;
  scope: string[];
  expiresAt: number;
  /** The digest of the refresh token issued with it. */
  refresh: string;
}

export interface Refresh {
  userId: number;
  clientId: string;
  scope: string[];
  lastUsedAt: number;
  /** The digest of the access token issued with it. */
  access: string;
  revoked: boolean;
}

/** The sign-ins, by token digest, as the double saves them. */
export interface OAuthSnapshot {
  access: [string, Access][];
  refresh: [string, Refresh][];
}

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

const b64url = (bytes: Buffer) => bytes.toString('base64url');

export class TokenStore {
  private readonly access = new Map<string, Access>();
  private readonly refresh = new Map<string, Refresh>();
  private readonly settings: () => OAuthSettings;

  constructor(settings: () => OAuthSettings) {
    this.settings = settings;
  }

  accessOf(token: string): Access | undefined {
    return this.access.get(digest(token));
  }

  refreshOf(token: string): Refresh | undefined {
    return this.refresh.get(digest(token));
  }

  revokeAccess(token: string): void {
    this.access.delete(digest(token));
  }

  /** New tokens for a sign-in, as the token endpoint answers them. */
  issue(userId: number, clientId: string, scope: string[]) {
    const { accessTtlSeconds, tokenLog } = this.settings();
    const access = b64url(randomBytes(30));
    const refresh = b64url(randomBytes(30));
    const now = Date.now();
    this.access.set(digest(access), {
      userId,
      scope,
      expiresAt: now + accessTtlSeconds * 1000,
      refresh: digest(refresh),
    });
    this.refresh.set(digest(refresh), {
      userId,
      clientId,
      scope,
      lastUsedAt: now,
      access: digest(access),
      revoked: false,
    });
    // The log check of the app's tests reads this file to prove no token reaches a log.
    if (tokenLog) appendFileSync(tokenLog, `${access}\n${refresh}\n`);
    return {
      access_token: access,
      expires_in: accessTtlSeconds,
      token_type: 'Bearer',
      scope: scope.join(' '),
      refresh_token: refresh,
    };
  }

  /** The sign-ins still of use (an expired access token and a revoked refresh token are not). */
  snapshot(): OAuthSnapshot {
    const now = Date.now();
    return {
      access: [...this.access].filter(([, a]) => a.expiresAt > now),
      refresh: [...this.refresh].filter(([, r]) => !r.revoked),
    };
  }

  restore(saved: OAuthSnapshot): void {
    for (const [key, value] of saved.access) this.access.set(key, value);
    for (const [key, value] of saved.refresh) this.refresh.set(key, value);
  }

  /** Ends a sign-in: the refresh token and the access token issued with it. */
  revokeRefresh(token: string): void {
    const held = this.refresh.get(digest(token));
    if (!held) return;
    held.revoked = true;
    this.access.delete(held.access);
  }
}
