import { describe, expect, it } from 'vitest';
import {
  decodeJwtExpiry,
  parseLogin,
  parseMe,
  parseRefresh,
  parseSignIn,
  ServiceResponseError,
  type SignInResponseWire,
} from '../../../src/shared/service/index.ts';
import { expectFailure, fixture } from '../../support/service-answers.ts';

const USER = {
  id: '5b0d6c1e-2f4a-4a8e-9a51-0c7f3f1d2b9e',
  email: 'vet@example-clinic.test',
  name: 'Dr Ana Ruiz',
  organizationId: '0f8e3c2a-7d1b-4e6f-8a9c-1b2d3e4f5a6b',
};

/** What the sign-in and refresh fixtures, which carry every member, read as: both tokens, both expiries, the user. */
function fullTokenSet(body: Record<string, unknown>) {
  return {
    accessToken: body['access_token'],
    refreshToken: body['refresh_token'],
    tokenType: 'bearer',
    expiresAt: 1767229200,
    refreshExpiresAt: 1767830400,
    user: USER,
  };
}

function jwt(claims: Record<string, unknown>): string {
  const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.sig`;
}

describe('decodeJwtExpiry', () => {
  it('reads the exp claim without verifying the signature', () => {
    expect(decodeJwtExpiry(jwt({ sub: 'u', exp: 1767229200 }))).toBe(1767229200);
    expect(decodeJwtExpiry(String(fixture('sign-in.json')['refresh_token']))).toBe(1767830400);
  });

  it('decodes payloads with non-ASCII text and base64url characters', () => {
    expect(decodeJwtExpiry(jwt({ name: 'Dr Müller ✓ ??>>', exp: 2000000000.7 }))).toBe(2000000000);
  });

  it('is undefined for anything that is not a JWT with a numeric exp', () => {
    expect(decodeJwtExpiry('opaque-token')).toBeUndefined();
    expect(decodeJwtExpiry('a..c')).toBeUndefined();
    expect(decodeJwtExpiry('a.!!!.c')).toBeUndefined();
    expect(decodeJwtExpiry(`a.${Buffer.from('not json').toString('base64url')}.c`)).toBeUndefined();
    expect(decodeJwtExpiry(jwt({ sub: 'u' }))).toBeUndefined();
    expect(decodeJwtExpiry(jwt({ exp: '1767229200' }))).toBeUndefined();
    expect(decodeJwtExpiry(`a.${Buffer.from('[1]').toString('base64url')}.c`)).toBeUndefined();
  });
});

describe('parseSignIn (POST /auth/sign-in and POST /auth/login)', () => {
  it('reads the token set with its user', () => {
    const body = fixture('sign-in.json');
    expect(parseSignIn(body)).toEqual(fullTokenSet(body));
  });

  it('agrees with the wire type the sandbox writes', () => {
    const wire: SignInResponseWire = {
      access_token: 'a',
      refresh_token: 'r',
      token_type: 'bearer',
      expires_at: 100,
      refresh_expires_at: 200,
      user: { id: 'u', email: 'e@x.test', name: 'N', organization_id: 'o' },
    };
    expect(parseSignIn(wire)).toEqual({
      accessToken: 'a',
      refreshToken: 'r',
      tokenType: 'bearer',
      expiresAt: 100,
      refreshExpiresAt: 200,
      user: { id: 'u', email: 'e@x.test', name: 'N', organizationId: 'o' },
    });
  });

  it('accepts a { data } envelope, numeric-string and millisecond times, and unknown members', () => {
    const body = {
      ...fixture('sign-in.json'),
      expires_at: '1767229200',
      refresh_expires_at: 1767830400000,
      scope: 'all',
    };
    const parsed = parseSignIn({ message: 'Signed in', data: body });
    expect(parsed.expiresAt).toBe(1767229200);
    expect(parsed.refreshExpiresAt).toBe(1767830400);
    expect(parsed).not.toHaveProperty('scope');
  });

  it('takes the expiry from the JWTs when expires_at is absent, and defaults token_type', () => {
    const body = fixture('sign-in.json');
    delete body['expires_at'];
    delete body['refresh_expires_at'];
    delete body['token_type'];
    const parsed = parseSignIn(body);
    expect(parsed.expiresAt).toBe(1767229200);
    expect(parsed.refreshExpiresAt).toBe(1767830400);
    expect(parsed.tokenType).toBe('bearer');
  });

  it('leaves the expiry undefined when neither the answer nor an opaque token gives one', () => {
    const parsed = parseSignIn({
      access_token: 'opaque',
      refresh_token: 'opaque-too',
      user: { id: 'u', email: 'e', name: 'n', organization_id: 'o' },
    });
    expect(parsed.expiresAt).toBeUndefined();
    expect(parsed.refreshExpiresAt).toBeUndefined();
  });

  it('accepts the refresh answer names for the user, and a missing name', () => {
    const body = fixture('sign-in.json');
    body['user'] = { public_id: 'u1', email: 'e@x.test', organization_public_id: 'o1' };
    expect(parseSignIn(body).user).toEqual({ id: 'u1', email: 'e@x.test', name: '', organizationId: 'o1' });
  });

  it('names POST /auth/login as login when asked', () => {
    expectFailure(
      () => parseSignIn({}, 'login'),
      'login',
      'access_token',
      'for login: field "access_token" is missing',
    );
  });

  it('fails with the operation and field on a malformed answer', () => {
    const good = fixture('sign-in.json');
    expectFailure(() => parseSignIn(null), 'sign-in', '', 'the answer must be an object, got null');
    expectFailure(() => parseSignIn([]), 'sign-in', '', 'must be an object, got array');
    expectFailure(() => parseSignIn('<html>'), 'sign-in', '', 'got string');
    expectFailure(
      () => parseSignIn({ ...good, access_token: 42 }),
      'sign-in',
      'access_token',
      'field "access_token" must be a string, got number',
    );
    expectFailure(() => parseSignIn({ ...good, refresh_token: '' }), 'sign-in', 'refresh_token', 'must not be empty');
    expectFailure(
      () => parseSignIn({ ...good, expires_at: 'soon' }),
      'sign-in',
      'expires_at',
      'must be a number, got string',
    );
    expectFailure(() => parseSignIn({ ...good, user: undefined }), 'sign-in', 'user', 'field "user" is missing');
    expectFailure(() => parseSignIn({ ...good, user: 'me' }), 'sign-in', 'user', 'must be an object, got string');
    const user = good['user'] as Record<string, unknown>;
    expectFailure(
      () => parseSignIn({ ...good, user: { ...user, email: 7 } }),
      'sign-in',
      'user.email',
      'field "user.email" must be a string, got number',
    );
    expectFailure(
      () => parseSignIn({ ...good, user: { ...user, id: undefined } }),
      'sign-in',
      'user.id',
      'field "user.id" (or "public_id") is missing',
    );
    expectFailure(
      () => parseSignIn({ ...good, user: { ...user, organization_id: null } }),
      'sign-in',
      'user.organization_id',
      '(or "organization_public_id") is missing',
    );
    expectFailure(
      () => parseSignIn({ data: { ...good, access_token: null } }),
      'sign-in',
      'data.access_token',
      'must be a string, got null',
    );
  });
});

describe('parseRefresh (POST /auth/refresh-token)', () => {
  it('reads the token set with the extras and the renamed user fields', () => {
    const body = fixture('refresh.json');
    expect(parseRefresh(body)).toEqual(fullTokenSet(body));
  });

  it('reads the formal schema alone, taking the expiry from the access token', () => {
    const body = fixture('refresh-formal.json');
    expect(parseRefresh(body)).toEqual({
      accessToken: body['access_token'],
      tokenType: 'bearer',
      expiresAt: 1767229200,
    });
  });

  it('defaults token_type and leaves the expiry undefined for an opaque token', () => {
    expect(parseRefresh({ access_token: 'opaque', refresh_token: null })).toEqual({
      accessToken: 'opaque',
      tokenType: 'bearer',
    });
  });

  it('ignores malformed extras rather than lose a refresh that worked', () => {
    const parsed = parseRefresh({
      access_token: jwt({ exp: 1767229200 }),
      token_type: 'Bearer',
      expires_at: 'later',
      refresh_expires_at: {},
      user: { public_id: 'u' },
    });
    expect(parsed).toEqual({ accessToken: expect.any(String), tokenType: 'Bearer', expiresAt: 1767229200 });
  });

  it('accepts a { data } envelope', () => {
    expect(parseRefresh({ message: 'ok', data: fixture('refresh.json') }).user).toEqual(USER);
  });

  it('fails on the formal members', () => {
    expectFailure(() => parseRefresh(undefined), 'refresh-token', '', 'for refresh-token: the answer is missing');
    expectFailure(() => parseRefresh(7), 'refresh-token', '', 'the answer must be an object, got number');
    expectFailure(
      () => parseRefresh({ token: 'x' }),
      'refresh-token',
      'access_token',
      'for refresh-token: field "access_token" is missing',
    );
    expectFailure(
      () => parseRefresh({ access_token: 'a', refresh_token: 5 }),
      'refresh-token',
      'refresh_token',
      'must be a string, got number',
    );
    expectFailure(
      () => parseRefresh({ access_token: 'a', token_type: false }),
      'refresh-token',
      'token_type',
      'must be a string, got boolean',
    );
  });
});

describe('parseLogin (POST /auth/login as published)', () => {
  it('reads the OpenAPI answer, tokens only: expiry from the JWT, no user', () => {
    const access = jwt({ sub: 'u', exp: 1_795_600_000 });
    expect(parseLogin({ access_token: access, refresh_token: 'r.t.s', token_type: 'bearer' })).toEqual({
      accessToken: access,
      refreshToken: 'r.t.s',
      tokenType: 'bearer',
      expiresAt: 1_795_600_000,
    });
  });

  it("reads the page's answer with expiries and the user in the public_id names", () => {
    const answer = parseLogin({
      access_token: 'a.b.c',
      refresh_token: 'r.t.s',
      token_type: 'bearer',
      expires_at: 1_795_600_000,
      refresh_expires_at: 1_796_000_000,
      user: { public_id: 'u1', email: 'vet@clinic.test', name: 'Dr Vet', organization_public_id: 'o1' },
    });
    expect(answer.user).toEqual({ id: 'u1', email: 'vet@clinic.test', name: 'Dr Vet', organizationId: 'o1' });
    expect(answer.refreshExpiresAt).toBe(1_796_000_000);
  });

  it('still refuses an answer without a refresh token', () => {
    expect(() => parseLogin({ access_token: 'a.b.c' })).toThrow(/login: field "refresh_token" is missing/);
  });
});

describe('parseMe (GET /users/me)', () => {
  it('reads the published user, and the names of POST /auth/sign-in', () => {
    expect(
      parseMe({ public_id: 'u1', email: 'vet@clinic.test', name: 'Dr Vet', organization_public_id: 'o1' }),
    ).toEqual({
      id: 'u1',
      email: 'vet@clinic.test',
      name: 'Dr Vet',
      organizationId: 'o1',
    });
    expect(parseMe({ id: 'u2', email: 'b@clinic.test', name: null, organization_id: 'o2' })).toEqual({
      id: 'u2',
      email: 'b@clinic.test',
      name: '',
      organizationId: 'o2',
    });
  });

  it('names the missing organization', () => {
    expect(() => parseMe({ public_id: 'u1', email: 'vet@clinic.test' })).toThrow(ServiceResponseError);
    expect(() => parseMe({ public_id: 'u1', email: 'vet@clinic.test' })).toThrow(
      /users-me: field "organization_public_id"/,
    );
  });
});
