// Signing in and staying signed in: POST {agents_url}/auth/sign-in, POST {scribe_url}/auth/login,
// POST {scribe_url}/auth/refresh-token and GET {scribe_url}/users/me.
import type {
  LoginResponseWire,
  PublicUserWire,
  RefreshResponseWire,
  SignInResponseWire,
  UserWire,
} from '../../shared/service/wire.ts';
import {
  ApiError,
  bearerToken,
  readBody,
  requireHeaders,
  type Reply,
  type RequestContext,
  type Router,
} from '../http.ts';
import type { UserRecord } from '../state.ts';
import { schemas, serve, signedInUser, VERSIONED, type ServerParts } from './common.ts';

/**
 * `POST /auth/login` as its reference page shows it: the OpenAPI's three token members, expiry,
 * and the user under the public names. Built from the wire declarations, which declare the
 * OpenAPI form only.
 */
type LoginPageResponse = LoginResponseWire &
  Pick<SignInResponseWire, 'expires_at' | 'refresh_expires_at'> & { user: PublicUserWire };

function userJson(user: UserRecord): UserWire {
  return { id: user.id, email: user.email, name: user.name, organization_id: user.organization_id };
}

function publicUserJson(user: UserRecord): PublicUserWire {
  return { public_id: user.id, email: user.email, name: user.name, organization_public_id: user.organization_id };
}

export function authRoutes(router: Router, parts: ServerParts): void {
  const { auth, counters } = parts;

  const signIn = async (ctx: RequestContext, login: boolean): Promise<Reply> => {
    const body = await readBody(ctx.req, schemas.signIn, login ? VERSIONED : {});
    const account = await auth.checkPassword(body.email, body.password);
    const { access_token, refresh_token, expires_at, refresh_expires_at } = await auth.signIn(account);
    counters.signIns += 1;
    if (!login) {
      const answer: SignInResponseWire = {
        access_token,
        refresh_token,
        token_type: 'bearer',
        expires_at,
        refresh_expires_at,
        user: userJson(account),
      };
      return { body: answer };
    }
    // `POST /auth/login`'s OpenAPI answer is only the three token fields; its reference page
    // adds expiry and the user under the public names. The page's form is the default, the
    // OpenAPI's an option.
    const tokens: LoginResponseWire = { access_token, refresh_token, token_type: 'bearer' };
    if (parts.options.loginTokensOnly) return { body: tokens };
    const page: LoginPageResponse = { ...tokens, expires_at, refresh_expires_at, user: publicUserJson(account) };
    return { body: page };
  };
  serve(router, 'sign-in', (ctx) => signIn(ctx, false));
  serve(router, 'login', (ctx) => signIn(ctx, true));

  serve(router, 'users-me', async (ctx) => {
    const { user: account } = await signedInUser(auth, ctx);
    requireHeaders(ctx.req, VERSIONED.headers);
    return { body: publicUserJson(account) };
  });

  serve(router, 'refresh-token', async (ctx) => {
    const body = await readBody(ctx.req, schemas.refresh, VERSIONED);
    const answer = await auth.refresh(bearerToken(ctx.req), body.token).catch((e: unknown) => {
      if (e instanceof ApiError && e.code === 'refresh_token_reused') counters.refreshReuseDetected += 1;
      throw e;
    });
    if (answer.replayed) counters.refreshReplays += 1;
    else counters.refreshes += 1;
    // The OpenAPI answer is the three token fields; the page adds expiry and the user.
    if (parts.options.refreshTokensOnly) {
      const tokens: LoginResponseWire = {
        access_token: answer.access_token,
        refresh_token: answer.refresh_token,
        token_type: 'bearer',
      };
      return { body: tokens };
    }
    const refreshed: RefreshResponseWire = {
      access_token: answer.access_token,
      refresh_token: answer.refresh_token,
      token_type: 'bearer',
      expires_at: answer.expires_at,
      refresh_expires_at: answer.refresh_expires_at,
      // The refresh answer names the user's fields as GET /users/me does (public_id,
      // organization_public_id), not as POST /auth/sign-in does (id, organization_id).
      user: publicUserJson(answer.user),
    };
    return { body: refreshed };
  });
}
