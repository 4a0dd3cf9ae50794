// Signing in and refreshing: `POST /auth/sign-in`, `POST /auth/login` (which answers the same,
// or less), `POST /auth/refresh-token` and `GET /users/me` (docs/service.md).
import { z } from 'zod';
import type { Operation } from './errors.ts';
import { optionalId, missing, optionalUnixSeconds, parseAnswer } from './envelope.ts';

export interface User {
  id: string;
  email: string;
  /** '' when the service sends none. */
  name: string;
  organizationId: string;
}

/**
 * What sign-in and refresh both yield. Refresh's formal schema promises only the tokens and
 * their type, so the refresh token may be absent (the old one stays valid) and so
 * may the expiry, when the answer has none and the access token is not a JWT with an `exp`
 * claim; the session then refreshes on the first 401 instead of ahead of time.
 */
export interface TokenSet {
  accessToken: string;
  refreshToken?: string;
  tokenType: string;
  /** Unix seconds. */
  expiresAt?: number;
  /** Unix seconds. */
  refreshExpiresAt?: number;
  user?: User;
}

/** `POST /auth/sign-in` and `POST /auth/login`: always a refresh token and the signed-in user. */
export interface SignInResult extends TokenSet {
  refreshToken: string;
  user: User;
}

export type RefreshResult = TokenSet;

/**
 * `POST /auth/login`, the scribing API's own sign-in. Its OpenAPI answer is only the three token fields;
 * its page adds the expiries and the user. Without a user the session asks GET /users/me.
 */
export interface LoginResult extends TokenSet {
  refreshToken: string;
}

/** The `exp` claim of a JWT, read without verifying it (the service verifies, not us). */
export function decodeJwtExpiry(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (payload === undefined || payload === '' || !/^[A-Za-z0-9_-]+={0,2}$/.test(payload)) return undefined;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
    const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
    const claims: unknown = JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))));
    if (typeof claims !== 'object' || claims === null) return undefined;
    const exp = (claims as Record<string, unknown>)['exp'];
    return typeof exp === 'number' && Number.isFinite(exp) && exp > 0 ? Math.floor(exp) : undefined;
  } catch {
    return undefined;
  }
}

const token = z.string().trim().min(1, 'must not be empty');

/**
 * Sign-in names the user's fields `id` and `organization_id`, refresh names them `public_id`
 * and `organization_public_id`; each reader takes its own names first, the other's
 * second, since the two are one service.
 */
function userSchema(names: {
  id: readonly [IdName, IdName];
  organization: readonly [OrganizationName, OrganizationName];
}) {
  return z
    .object({
      id: optionalId,
      public_id: optionalId,
      email: z.string(),
      name: z.string().nullish(),
      organization_id: optionalId,
      organization_public_id: optionalId,
    })
    .transform((w, ctx): User => {
      const [idName, otherIdName] = names.id;
      const userId = w[idName] ?? w[otherIdName];
      if (userId === undefined) return missing(ctx, idName, [otherIdName]);
      const [organizationName, otherOrganizationName] = names.organization;
      const organizationId = w[organizationName] ?? w[otherOrganizationName];
      if (organizationId === undefined) return missing(ctx, organizationName, [otherOrganizationName]);
      return { id: userId, email: w.email, name: w.name ?? '', organizationId };
    });
}

type IdName = 'id' | 'public_id';
type OrganizationName = 'organization_id' | 'organization_public_id';

const signInUser = userSchema({ id: ['id', 'public_id'], organization: ['organization_id', 'organization_public_id'] });
const refreshUser = userSchema({
  id: ['public_id', 'id'],
  organization: ['organization_public_id', 'organization_id'],
});

const signInFields = {
  access_token: token,
  refresh_token: token,
  token_type: z.string().nullish(),
  expires_at: optionalUnixSeconds,
  refresh_expires_at: optionalUnixSeconds,
};

/** The token members of every sign-in and refresh answer, as read; an expiry left out is the JWT's. */
function tokens(w: {
  access_token: string;
  refresh_token?: string | null;
  token_type?: string | null;
  expires_at?: number;
  refresh_expires_at?: number;
}): TokenSet {
  const expiresAt = w.expires_at ?? decodeJwtExpiry(w.access_token);
  const refreshExpiresAt = w.refresh_expires_at ?? (w.refresh_token ? decodeJwtExpiry(w.refresh_token) : undefined);
  return {
    accessToken: w.access_token,
    ...(w.refresh_token ? { refreshToken: w.refresh_token } : {}),
    tokenType: w.token_type || 'bearer',
    ...(expiresAt !== undefined ? { expiresAt } : {}),
    ...(refreshExpiresAt !== undefined ? { refreshExpiresAt } : {}),
  };
}

const loginSchema = z.object({ ...signInFields, user: refreshUser.optional() }).transform((w): LoginResult => ({
  ...tokens(w),
  refreshToken: w.refresh_token,
  ...(w.user ? { user: w.user } : {}),
}));

const signInSchema = z
  .object({ ...signInFields, user: signInUser })
  .transform((w): SignInResult => ({ ...tokens(w), refreshToken: w.refresh_token, user: w.user }));

// Members beyond the formal refresh schema are used when they are well formed and otherwise
// ignored: a refresh that worked must not be thrown away over an extra.
const refreshSchema = z
  .object({
    access_token: token,
    refresh_token: token.nullish(),
    token_type: z.string().nullish(),
    expires_at: optionalUnixSeconds.catch(undefined),
    refresh_expires_at: optionalUnixSeconds.catch(undefined),
    user: refreshUser.optional().catch(undefined),
  })
  .transform((w): RefreshResult => ({ ...tokens(w), ...(w.user ? { user: w.user } : {}) }));

/** `POST /auth/sign-in` (and `POST /auth/login`, with `operation` 'login'): the tokens with their user. */
export function parseSignIn(
  body: unknown,
  operation: Extract<Operation, 'sign-in' | 'login'> = 'sign-in',
): SignInResult {
  return parseAnswer(operation, signInSchema, body);
}

/** `POST /auth/login` as published: the tokens, maybe the expiries and the user (page) or not (OpenAPI). */
export function parseLogin(body: unknown): LoginResult {
  return parseAnswer('login', loginSchema, body);
}

/** `GET /users/me`: `{ public_id, email, name, organization_public_id }` (sign-in's names are read too). */
export function parseMe(body: unknown): User {
  return parseAnswer('users-me', refreshUser, body);
}

/** `POST /auth/refresh-token`: the tokens, and the user when given. */
export function parseRefresh(body: unknown): RefreshResult {
  return parseAnswer('refresh-token', refreshSchema, body);
}
