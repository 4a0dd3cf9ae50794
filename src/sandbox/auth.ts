// Real signed JWTs (HS256) with real expiry, refresh-token rotation and reuse detection.
// A refresh token belongs to a family started at sign-in; each refresh replaces the current
// token. Presenting a token the family has moved past revokes the whole family (and the
// access tokens issued to it), except the token rotated away last, within a short grace:
// a client whose refresh answer was lost on the way may ask again and gets the same pair (kept
// in memory only: after a restart such a replay is answered with a new pair instead).
import { randomUUID, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (password: string, salt: string, keylen: number) => Promise<Buffer>;
import { appendFileSync } from 'node:fs';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { ApiError } from './http.ts';
import type { StateStore, UserRecord } from './state.ts';

export interface AuthOptions {
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
  refreshReuseGraceSeconds: number;
  /** Every token issued is appended here (for the check that no log line holds one). */
  tokenLog?: string | null;
}

export interface AccessClaims {
  user: UserRecord;
  familyId: string;
}

export interface IssuedTokens {
  access_token: string;
  refresh_token: string;
  expires_at: number;
  refresh_expires_at: number;
}

const ISSUER = 'vet-scribe-sandbox';

export class Auth {
  private readonly key: Uint8Array;
  private readonly store: StateStore;
  private readonly options: AuthOptions;
  /** The pair handed out at each family's last rotation, answered again to a replay within the grace. */
  private readonly lastAnswers = new Map<string, IssuedTokens>();
  constructor(store: StateStore, options: AuthOptions, key: Uint8Array) {
    this.store = store;
    this.options = options;
    this.key = key;
  }

  /** Async scrypt: a sign-in must not hold up every other request of the process for its hash. */
  async checkPassword(email: string, password: string): Promise<UserRecord> {
    const user = this.store.state.users.find((u) => u.email.toLowerCase() === email.trim().toLowerCase());
    // Hash even for an unknown e-mail, so timing does not tell which addresses exist.
    const [salt = 'x', hash = ''] = (user?.password_hash ?? 'x:').split(':');
    const given = await scryptAsync(password, salt, 32);
    const expected = Buffer.from(hash, 'hex');
    if (!user || expected.length !== given.length || !timingSafeEqual(given, expected)) {
      // The published answer of `POST /auth/sign-in`, word for word.
      throw new ApiError(401, 'invalid_credentials', 'Invalid credentials');
    }
    return user;
  }

  async signIn(user: UserRecord): Promise<IssuedTokens> {
    const familyId = randomUUID();
    const tokens = await this.issue(user, familyId);
    this.store.state.refresh_families[familyId] = {
      user_id: user.id,
      current_jti: tokens.refreshJti,
      previous_jti: null,
      rotated_at: Date.now(),
      revoked: false,
    };
    this.store.save();
    return tokens.answer;
  }

  private async issue(user: UserRecord, familyId: string): Promise<{ answer: IssuedTokens; refreshJti: string }> {
    const now = Math.floor(Date.now() / 1000);
    const expiresAt = now + this.options.accessTtlSeconds;
    const refreshExpiresAt = now + this.options.refreshTtlSeconds;
    const refreshJti = randomUUID();
    const access = await new SignJWT({ typ: 'access', org: user.organization_id, fam: familyId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setSubject(user.id)
      .setJti(randomUUID())
      .setIssuedAt(now)
      .setExpirationTime(expiresAt)
      .sign(this.key);
    const refresh = await new SignJWT({ typ: 'refresh', fam: familyId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setSubject(user.id)
      .setJti(refreshJti)
      .setIssuedAt(now)
      .setExpirationTime(refreshExpiresAt)
      .sign(this.key);
    if (this.options.tokenLog) appendFileSync(this.options.tokenLog, `${access}\n${refresh}\n`);
    return {
      answer: {
        access_token: access,
        refresh_token: refresh,
        expires_at: expiresAt,
        refresh_expires_at: refreshExpiresAt,
      },
      refreshJti,
    };
  }

  /** Verifies an access token for a request: signature, expiry, and that its family still stands. */
  async authenticate(token: string | undefined): Promise<AccessClaims> {
    if (!token) throw new ApiError(401, 'not_authenticated', 'Authorization: Bearer <access token> is required.');
    const payload = await this.verify(token, 'access', { checkExpiry: true });
    return this.claims(payload);
  }

  private claims(payload: { sub?: string; fam?: unknown }): AccessClaims {
    const user = this.store.state.users.find((u) => u.id === payload.sub);
    const familyId = typeof payload.fam === 'string' ? payload.fam : '';
    const family = this.store.state.refresh_families[familyId];
    if (!user || !family || family.revoked) {
      throw new ApiError(401, 'session_revoked', 'This session has been signed out; sign in again.');
    }
    return { user, familyId };
  }

  private async verify(token: string, typ: 'access' | 'refresh', { checkExpiry }: { checkExpiry: boolean }) {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: ISSUER,
        algorithms: ['HS256'],
        // jose checks exp itself; an expired access token is still acceptable on the refresh call.
        currentDate: checkExpiry ? undefined : new Date(0),
      });
      if (payload['typ'] !== typ) throw new ApiError(401, 'invalid_token', `The ${typ} token is not a ${typ} token.`);
      return payload as typeof payload & { fam?: unknown };
    } catch (e) {
      if (e instanceof ApiError) throw e;
      if (e instanceof joseErrors.JWTExpired) {
        throw new ApiError(
          401,
          typ === 'access' ? 'token_expired' : 'refresh_token_expired',
          `The ${typ} token has expired.`,
        );
      }
      throw new ApiError(401, 'invalid_token', `The ${typ} token is not valid.`);
    }
  }

  /** `POST /auth/refresh-token`. The bearer access token's signature is checked, its expiry is not (expiry is why one refreshes). */
  async refresh(
    accessToken: string | undefined,
    refreshToken: string,
  ): Promise<IssuedTokens & { user: UserRecord; replayed: boolean }> {
    if (!accessToken) throw new ApiError(401, 'not_authenticated', 'Authorization: Bearer <access token> is required.');
    const access = await this.verify(accessToken, 'access', { checkExpiry: false });
    const refresh = await this.verify(refreshToken, 'refresh', { checkExpiry: true });
    if (access.sub !== refresh.sub || access.fam !== refresh.fam) {
      throw new ApiError(401, 'invalid_token', 'The refresh token does not belong to this session.');
    }
    const familyId = String(refresh.fam);
    const family = this.store.state.refresh_families[familyId];
    const user = this.store.state.users.find((u) => u.id === refresh.sub);
    if (!family || !user || family.revoked) {
      throw new ApiError(401, 'session_revoked', 'This session has been signed out; sign in again.');
    }
    const graceMs = this.options.refreshReuseGraceSeconds * 1000;
    // Strictly within the grace: with a grace of 0 a reuse in the very millisecond of the
    // rotation is a reuse too, not a replay.
    const replay = refresh.jti === family.previous_jti && Date.now() - family.rotated_at < graceMs;
    const kept = replay ? this.lastAnswers.get(familyId) : undefined;
    if (kept) return { ...kept, user, replayed: true };
    if (refresh.jti !== family.current_jti && !replay) {
      family.revoked = true;
      this.lastAnswers.delete(familyId);
      this.store.save();
      throw new ApiError(
        401,
        'refresh_token_reused',
        'This refresh token was already used; the session has been revoked for safety. Sign in again.',
      );
    }
    const next = await this.issue(user, familyId);
    // A replay whose answer is no longer held (the sandbox restarted in between) gets a new
    // pair; the token rotated away last stays the one a lost answer may still replay.
    if (!replay) {
      family.previous_jti = family.current_jti;
      family.rotated_at = Date.now();
    }
    family.current_jti = next.refreshJti;
    this.lastAnswers.set(familyId, next.answer);
    this.store.save();
    return { ...next.answer, user, replayed: false };
  }
}
