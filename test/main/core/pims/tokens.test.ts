// A vet's sign-in to a PIMS kept in the secret store (src/main/core/pims/tokens.ts), with the
// app's MemorySecretStore: one entry per app account and instance, two vets on one computer kept
// apart; a lapsed token refreshed before use; a 401 answered by one refresh and one more try,
// then "sign in again"; sign-out removing the copy here and withdrawing both tokens at the PIMS.
// The PIMS is the sandbox's Provet double over real HTTP, started once for the file, signed in
// to through its own sign-in page; a Provet out of reach is a loopback port where nothing listens.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  PimsTokens,
  pimsTokensName,
  provetGet,
  provetInstance,
  provetOAuthClient,
  refreshTokens,
  signInWithBrowser,
  type OAuthClient,
  type PimsAccount,
  type TokenSet,
} from '../../../../src/main/core/pims/index.ts';
import { MemorySecretStore, openKeychain, type SecretStore } from '../../../../src/main/core/sign-in/index.ts';
import { EncryptedFileSecretStore } from '../../../../src/main/core/sign-in/secret-store.ts';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.ts';
import { browse, nothingListens, recordingHttp } from './provet-double.ts';
import { pimsFailure as failure } from './support.ts';

// The system keychain where one answers (on Linux a Secret Service; npm test starts one).
const keychain = await openKeychain(`Vet Scribe test ${randomUUID()}`);
let s: Sandbox;
let client: OAuthClient;
let instance: string;
let route: ReturnType<typeof recordingHttp>;
/** The same instance's sign-in endpoints at an address where nothing listens: Provet out of reach. */
let unreachable: OAuthClient;
beforeAll(async () => {
  s = await startSandbox({ scribeSeconds: 0 });
  const provet = provetInstance(s.provet.address);
  client = provetOAuthClient(provet, s.provet.clientId);
  instance = provet.base;
  route = recordingHttp();
  unreachable = provetOAuthClient(provetInstance(await nothingListens()), s.provet.clientId);
});
afterAll(async () => {
  await route?.close();
  await s?.close();
});
beforeEach(() => {
  route.sent.length = 0;
});

async function signIn(): Promise<TokenSet> {
  return signInWithBrowser({ client, openBrowser: (url) => browse(s, url) });
}

function account(userId: string, over: Partial<PimsAccount> = {}): PimsAccount {
  return { service: 'https://scribe.example', userId, instance, ...over };
}

/** A vet's tokens, their calls to Provet noted on the way (route.sent). */
const tokensOf = (
  store: SecretStore,
  userId: string,
  over: Partial<ConstructorParameters<typeof PimsTokens>[0]> = {},
) => new PimsTokens({ store, account: account(userId), client, http: route.http, ...over });

const refreshes = () => route.sent.filter((r) => r.form['grant_type'] === 'refresh_token').length;

/** A real call of the REST API with a token, as the adapter makes it: a 401 is "signed out". */
const me = (token: string) => provetGet(`${s.provet.address}/api/0.1/user/11/`, token);

/** Provet withdraws a token (RFC 7009), as when the clinic ends the app's access. */
async function withdrawAtProvet(token: string, hint: 'access_token' | 'refresh_token'): Promise<void> {
  const answer = await request(`${s.provet.address}/oauth2/revoke_token/`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, token_type_hint: hint, client_id: s.provet.clientId }).toString(),
  });
  await answer.body.text();
  expect(answer.statusCode).toBe(200);
}

describe('a vet’s PIMS tokens in the secret store', () => {
  it('keeps one entry per app account and instance: two vets, two services and two instances stay apart', async () => {
    const store = new MemorySecretStore();
    const hale = new PimsTokens({ store, account: account('u-hale'), client });
    const okafor = new PimsTokens({ store, account: account('u-okafor'), client });
    const haleTokens = await signIn();
    await hale.save(haleTokens);
    expect(await hale.load()).toEqual(haleTokens);
    expect(await okafor.load()).toBeNull();
    await expect(okafor.accessToken()).rejects.toThrow('Sign in to Provet again.');
    // The same vet at another service address, or at another Provet instance, is another sign-in.
    expect(
      await new PimsTokens({ store, account: account('u-hale', { service: 'https://other.example' }), client }).load(),
    ).toBeNull();
    expect(
      await new PimsTokens({
        store,
        account: account('u-hale', { instance: 'https://provetcloud.com/9/' }),
        client,
      }).load(),
    ).toBeNull();
    const names = new Set([
      pimsTokensName(account('u-hale')),
      pimsTokensName(account('u-okafor')),
      pimsTokensName(account('u-hale', { service: 'https://other.example' })),
      pimsTokensName(account('u-hale', { instance: 'https://provetcloud.com/9/' })),
    ]);
    expect(names.size).toBe(4);
    // No user id or address shapes the entry's name.
    for (const n of names) expect(n).toMatch(/^pims-tokens\.[0-9a-f]{32}$/);
    // They sit in the vet's own entry, not beside the session in front.
    expect(await store.loadSecret(pimsTokensName(account('u-hale')))).toBeNull();
    expect(await store.forAccount('u-hale').loadSecret(pimsTokensName(account('u-hale')))).toContain(
      haleTokens.accessToken,
    );
  });

  it('reads an entry that is not its own, or cannot be read, as signed out', async () => {
    const store = new MemorySecretStore();
    const tokens = new PimsTokens({ store, account: account('u-1'), client });
    await store.forAccount('u-1').saveSecret(pimsTokensName(account('u-1')), '{not json');
    expect(await tokens.load()).toBeNull();
    await store
      .forAccount('u-1')
      .saveSecret(
        pimsTokensName(account('u-1')),
        JSON.stringify({ ...(await signIn()), instance: 'https://provetcloud.com/other/' }),
      );
    expect(await tokens.load()).toBeNull();
  });

  it('refreshes a lapsed access token before use, once for calls made at the same time, and keeps the new one', async () => {
    const store = new MemorySecretStore();
    let now = Date.now();
    const tokens = tokensOf(store, 'u-2', { now: () => now });
    const first = await signIn();
    await tokens.save(first);
    expect(await tokens.accessToken()).toBe(first.accessToken);
    expect(refreshes()).toBe(0);
    now = first.expiresAt! + 1;
    const [a, b] = await Promise.all([tokens.accessToken(), tokens.accessToken()]);
    expect(a).toBe(b);
    expect(a).not.toBe(first.accessToken);
    // Two refreshes at once would have spent the rotated refresh token twice, and Provet would
    // have refused the second: one was sent, and the token it gave works.
    expect(refreshes()).toBe(1);
    expect((await tokens.load())?.accessToken).toBe(a);
    expect(await me(a)).toMatchObject({ id: 11 });
  });

  it('answers a 401 with one refresh and one more try', async () => {
    const store = new MemorySecretStore();
    const tokens = tokensOf(store, 'u-3');
    const first = await signIn();
    await tokens.save(first);
    // Provet no longer takes the access token the app holds, well before the time it was given.
    await withdrawAtProvet(first.accessToken, 'access_token');
    const used: string[] = [];
    const answer = await tokens.withToken(async (token) => {
      used.push(token);
      return me(token);
    });
    expect(answer).toMatchObject({ id: 11 });
    expect(used).toHaveLength(2);
    expect(used[0]).toBe(first.accessToken);
    expect(refreshes()).toBe(1);
    expect((await tokens.load())?.accessToken).toBe(used[1]);
  });

  it('says "sign in again" and removes the tokens after a second 401, or a refresh refused', async () => {
    const store = new MemorySecretStore();
    const tokens = tokensOf(store, 'u-4');
    await tokens.save(await signIn());
    let calls = 0;
    const e = await failure(
      tokens.withToken(async (token) => {
        calls++;
        // Every token the app is given is withdrawn before it is used: Provet answers 401 each time.
        await withdrawAtProvet(token, 'access_token');
        return me(token);
      }),
    );
    expect(calls).toBe(2);
    expect(refreshes()).toBe(1);
    expect(e.code).toBe('signed_out');
    expect(e.message).toBe('Sign in to Provet again.');
    expect(await tokens.load()).toBeNull();

    // A refresh token Provet no longer takes (30 days unused) signs out too.
    const stale = await signIn();
    await tokens.save({ ...stale, expiresAt: Date.now() - 1 });
    s.options.provetRefreshTtlSeconds = 0;
    try {
      await new Promise((r) => setTimeout(r, 5));
      const refused = await failure(tokens.accessToken());
      expect(refused.code).toBe('signed_out');
      expect(refused.message).toMatch(/^Sign in to Provet again/);
    } finally {
      s.options.provetRefreshTtlSeconds = 30 * 24 * 3600;
    }
    expect(await tokens.load()).toBeNull();
  });

  it('keeps the tokens when the refresh could not reach the PIMS: it is tried again later', async () => {
    const store = new MemorySecretStore();
    const kept = await signIn();
    // The same vet's entry for the same instance, with Provet out of reach from this computer.
    await tokensOf(store, 'u-5').save({ ...kept, expiresAt: Date.now() - 1 });
    const offline = tokensOf(store, 'u-5', { client: unreachable });
    expect((await failure(offline.accessToken())).code).toBe('unreachable');
    expect((await offline.load())?.refreshToken).toBe(kept.refreshToken);
    // Back in reach, the kept refresh token still works.
    const online = tokensOf(store, 'u-5');
    expect(await me(await online.accessToken())).toMatchObject({ id: 11 });
    // The refresh that could not reach Provet, then the one that did.
    expect(refreshes()).toBe(2);
  });

  it('signs out: the copy here goes, both tokens are withdrawn at the PIMS, and no token reaches the log', async () => {
    const store = new MemorySecretStore();
    const lines: string[] = [];
    const tokens = tokensOf(store, 'u-6', { http: { ...route.http, log: (l) => lines.push(l) } });
    const kept = await signIn();
    await tokens.save({ ...kept, expiresAt: Date.now() - 1 });
    const fresh = await tokens.accessToken();
    const current = (await tokens.load())!;
    expect(await tokens.signOut()).toBe(true);
    expect(await tokens.load()).toBeNull();
    // The log names the refresh and both revokes, and holds none of the tokens.
    expect(lines.map((l) => l.replace(/ in \d+ ms$/, ''))).toEqual([
      'pims: POST /provet/4321/oauth2/token/ 200',
      'pims: POST /provet/4321/oauth2/revoke_token/ 200',
      'pims: POST /provet/4321/oauth2/revoke_token/ 200',
    ]);
    for (const token of [kept.accessToken, kept.refreshToken!, fresh, current.refreshToken!])
      expect(lines.join('\n')).not.toContain(token);
    expect(route.sent.filter((r) => r.path.endsWith('/oauth2/revoke_token/')).map((r) => r.form)).toEqual([
      { token: current.refreshToken, token_type_hint: 'refresh_token', client_id: s.provet.clientId },
      { token: current.accessToken, token_type_hint: 'access_token', client_id: s.provet.clientId },
    ]);
    // Withdrawn at Provet: neither token works there any more.
    expect((await failure(me(current.accessToken))).code).toBe('signed_out');
    expect((await failure(refreshTokens(client, current.refreshToken!))).code).toBe('signed_out');
    // Unreachable at sign-out: the copy here goes all the same, and the caller is told.
    const again = await signIn();
    const offline = tokensOf(store, 'u-6', { client: unreachable });
    await offline.save(again);
    expect(await offline.signOut()).toBe(false);
    expect(await offline.load()).toBeNull();
    expect(await tokensOf(store, 'u-6').load()).toBeNull();
  });
});

describe('in the stores that outlive a restart', () => {
  // Two vets' sign-ins, each saved, read and removed in its own entry of the store.
  async function twoVets(store: SecretStore): Promise<void> {
    const hale = new PimsTokens({ store, account: account('u-hale'), client });
    const okafor = new PimsTokens({ store, account: account('u-okafor'), client });
    const [a, b] = [await signIn(), await signIn()];
    await hale.save(a);
    await okafor.save(b);
    expect((await hale.load())?.accessToken).toBe(a.accessToken);
    expect((await okafor.load())?.accessToken).toBe(b.accessToken);
    await hale.signOut();
    expect(await hale.load()).toBeNull();
    expect((await okafor.load())?.accessToken).toBe(b.accessToken);
    await okafor.signOut();
    expect(await okafor.load()).toBeNull();
  }

  it('keeps them in encrypted files of their own, and removes the file at sign-out', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vet-scribe-pims-'));
    try {
      // Electron's safeStorage cannot run here: a cipher stands in for the OS's (XOR, so the file
      // holds no token in clear), as in the sign-in's own tests.
      const cipher = {
        encrypt: (plain: string) => Buffer.from(Buffer.from(plain, 'utf8').map((b) => b ^ 0x5a)),
        decrypt: (data: Buffer) => Buffer.from(data.map((b) => b ^ 0x5a)).toString('utf8'),
      };
      const store = new EncryptedFileSecretStore(join(dir, 'session.bin'), cipher);
      const tokens = new PimsTokens({ store, account: account('u-file'), client });
      const kept = await signIn();
      await tokens.save(kept);
      const files = readdirSync(dir);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/^session\.bin\.[0-9a-f]{32}\.pims-tokens\.[0-9a-f]{32}$/);
      expect(readFileSync(join(dir, files[0]!), 'latin1')).not.toContain(kept.accessToken);
      await tokens.signOut();
      expect(readdirSync(dir)).toEqual([]);
      await twoVets(store);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!keychain)('keeps them in the system keychain, one entry per vet, removed at sign-out', async () => {
    await twoVets(keychain!);
  });
});
