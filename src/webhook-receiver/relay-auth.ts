// Who a subscriber is: the service is asked (`GET /users/me` with the subscriber's own token), and
// its answer is kept, under a hash of the token and never the token itself, for no longer than the
// token lives: until the JWT's `exp` when it has one, else five minutes. A refused token is not
// kept, so a vet who signs in again is let in at once.
import { createHash } from 'node:crypto';
import { API_VERSION, API_VERSION_HEADER, decodeJwtExpiry, parseMe } from '../shared/service/index.ts';

/** How long an answer is kept for a token that does not say when it expires. */
export const OPAQUE_TOKEN_CACHE_MS = 5 * 60_000;
// The service is asked with every new subscriber: one that does not answer soon is reported as down.
const ASK_TIMEOUT_MS = 10_000;
// Bounds the cache against a flood of made-up tokens: past this the oldest answers are dropped.
const MAX_CACHED = 10_000;

export class RelayAuthError extends Error {
  readonly status: 401 | 503;
  readonly code: 'unauthorized' | 'service_unavailable';

  constructor(status: 401 | 503, code: 'unauthorized' | 'service_unavailable', message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export interface Subscriber {
  organization: string;
  /** When the token lapses (ms since the epoch), when it is a JWT with `exp`; else null. */
  expiresAt: number | null;
}

export class RelayAuth {
  private readonly usersMe: string;
  private readonly now: () => number;
  private readonly cache = new Map<string, { subscriber: Subscriber; until: number }>();

  constructor(scribeUrl: string, now: () => number = Date.now) {
    this.usersMe = `${scribeUrl.replace(/\/+$/, '')}/users/me`;
    this.now = now;
  }

  /** The token from an `Authorization: Bearer …` header, or a 401 saying what is wrong with it. */
  static bearer(header: string | undefined): string {
    if (header === undefined || header.trim() === '')
      throw new RelayAuthError(
        401,
        'unauthorized',
        'no Authorization header: send "Authorization: Bearer <access token>"',
      );
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match?.[1])
      throw new RelayAuthError(401, 'unauthorized', 'the Authorization header is not "Bearer <access token>"');
    return match[1];
  }

  async who(token: string): Promise<Subscriber> {
    const now = this.now();
    const exp = decodeJwtExpiry(token);
    const expiresAt = exp === undefined ? null : exp * 1000;
    if (expiresAt !== null && expiresAt <= now)
      throw new RelayAuthError(401, 'unauthorized', 'the access token has expired: refresh it and subscribe again');
    const key = createHash('sha256').update(token).digest('hex');
    const cached = this.cache.get(key);
    if (cached && cached.until > now) return cached.subscriber;
    this.cache.delete(key);
    const organization = await this.ask(token);
    const subscriber = { organization, expiresAt };
    this.cache.set(key, { subscriber, until: expiresAt ?? now + OPAQUE_TOKEN_CACHE_MS });
    if (this.cache.size > MAX_CACHED) this.cache.delete(this.cache.keys().next().value ?? '');
    return subscriber;
  }

  /** Forgets what the service said of this token, so that the next look asks again. */
  forget(token: string): void {
    this.cache.delete(createHash('sha256').update(token).digest('hex'));
  }

  // Node's own fetch (undici inside), not the undici package: the receiver stays runnable when it
  // is copied out alone, with pg its only dependency.
  private async ask(token: string): Promise<string> {
    let answer: Response;
    try {
      answer = await fetch(this.usersMe, {
        headers: { authorization: `Bearer ${token}`, [API_VERSION_HEADER]: API_VERSION, accept: 'application/json' },
        signal: AbortSignal.timeout(ASK_TIMEOUT_MS),
      });
    } catch (error) {
      throw new RelayAuthError(
        503,
        'service_unavailable',
        `the service could not be asked who this is (GET /users/me): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const text = await answer.text().catch(() => '');
    if (answer.status === 401)
      throw new RelayAuthError(
        401,
        'unauthorized',
        'the service refused this access token (GET /users/me answered 401)',
      );
    if (answer.status !== 200)
      throw new RelayAuthError(503, 'service_unavailable', `the service answered GET /users/me with ${answer.status}`);
    try {
      return parseMe(JSON.parse(text)).organizationId;
    } catch {
      throw new RelayAuthError(
        503,
        'service_unavailable',
        'the service answered GET /users/me without a user and its organization',
      );
    }
  }
}
