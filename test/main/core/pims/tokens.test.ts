// A vet's sign-in to a PIMS kept in the secret store (src/main/core/pims/tokens.ts), with the
// app's MemorySecretStore: one entry per app account and instance, two vets on one computer kept
// apart; a lapsed token refreshed before use; a 401 answered by one refresh and one more try,
// then "sign in again"; sign-out removing the copy here and withdrawing both tokens at the PIMS.
// The PIMS's OAuth endpoints are the loopback stand-in of oauth-stand-in.ts.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  PimsError,
  PimsTokens,
  pimsTokensName,
  provetInstance,
  provetOAuthClient,
  signInWithBrowser,
  type OAuthClient,
  type PimsAccount,
  type TokenSet,
} from '../../../../src/main/core/pims/index.ts';
import { MemorySecretStore, openKeychain, type SecretStore } from '../../../../src/main/core/sign-in/index.ts';
import { EncryptedFileSecretStore } from '../../../../src/main/core/sign-in/secret-store.ts';
import { startOAuthStandIn, type OAuthStandIn } from './oauth-stand-in.ts';
import { pimsFailure as failure } from './support.ts';

// The system keychain where one answers (on Linux a Secret Service; npm test starts one).
const keychain = await openKeychain(`Vet Scribe test ${randomUUID()}`);
let server: OAuthStandIn;
let client: OAuthClient;
let instance: string;
beforeAll(async () => {
  server = await startOAuthStandIn();
  const provet = provetInstance(server.address);
  client = provetOAuthClient(provet, server.clientId);
  instance = provet.base;
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  server.revoked.length = 0;
  server.down = false;
});

async function signIn(): Promise<TokenSet> {
  return signInWithBrowser({
    client,
    openBrowser: async (url) => {
      await (await fetch(url)).text();
    },
  });
}

function account(userId: string, over: Partial<PimsAccount> = {}): PimsAccount {
  return { service: 'https://scribe.example', userId, instance, ...over };
}

const refreshes = () => server.requests.filter((r) => r.form['grant_type'] === 'refresh_token').length;

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
    const tokens = new PimsTokens({ store, account: account('u-2'), client, now: () => now });
    const first = await signIn();
    await tokens.save(first);
    expect(await tokens.accessToken()).toBe(first.accessToken);
    expect(refreshes()).toBe(0);
    now = first.expiresAt! + 1;
    const [a, b] = await Promise.all([tokens.accessToken(), tokens.accessToken()]);
    expect(a).toBe(b);
    expect(a).not.toBe(first.accessToken);
    expect(refreshes()).toBe(1);
    expect((await tokens.load())?.accessToken).toBe(a);
  });

  it('answers a 401 with one refresh and one more try', async () => {
    const store = new MemorySecretStore();
    const tokens = new PimsTokens({ store, account: account('u-3'), client });
    const first = await signIn();
    await tokens.save(first);
    server.validAccess.delete(first.accessToken);
    const used: string[] = [];
    const answer = await tokens.withToken(async (token) => {
      used.push(token);
      if (!server.validAccess.has(token))
        throw new PimsError('signed_out', 'Sign in to Provet again.', { status: 401 });
      return 'done';
    });
    expect(answer).toBe('done');
    expect(used).toHaveLength(2);
    expect(used[0]).toBe(first.accessToken);
    expect(refreshes()).toBe(1);
  });

  it('says "sign in again" and removes the tokens after a second 401, or a refresh refused', async () => {
    const store = new MemorySecretStore();
    const tokens = new PimsTokens({ store, account: account('u-4'), client });
    await tokens.save(await signIn());
    let calls = 0;
    const e = await failure(
      tokens.withToken(async () => {
        calls++;
        throw new PimsError('signed_out', 'Sign in to Provet again.', { status: 401 });
      }),
    );
    expect(calls).toBe(2);
    expect(e.message).toBe('Sign in to Provet again.');
    expect(await tokens.load()).toBeNull();

    // A refresh token Provet no longer takes (lapsed after 30 days unused) signs out too.
    const stale = await signIn();
    await tokens.save({ ...stale, refreshToken: 'lapsed', expiresAt: Date.now() - 1 });
    const refused = await failure(tokens.accessToken());
    expect(refused.code).toBe('signed_out');
    expect(await tokens.load()).toBeNull();
  });

  it('keeps the tokens when the refresh could not reach the PIMS: it is tried again later', async () => {
    const store = new MemorySecretStore();
    const tokens = new PimsTokens({ store, account: account('u-5'), client });
    const kept = await signIn();
    await tokens.save({ ...kept, expiresAt: Date.now() - 1 });
    server.down = true;
    expect((await failure(tokens.accessToken())).code).toBe('unreachable');
    expect((await tokens.load())?.refreshToken).toBe(kept.refreshToken);
  });

  it('signs out: the copy here goes, and both tokens are withdrawn at the PIMS', async () => {
    const store = new MemorySecretStore();
    const tokens = new PimsTokens({ store, account: account('u-6'), client });
    const kept = await signIn();
    await tokens.save(kept);
    expect(await tokens.signOut()).toBe(true);
    expect(await tokens.load()).toBeNull();
    expect(server.revoked).toEqual([
      { token: kept.refreshToken, hint: 'refresh_token' },
      { token: kept.accessToken, hint: 'access_token' },
    ]);
    // Unreachable at sign-out: the copy here goes all the same, and the caller is told.
    const again = await signIn();
    await tokens.save(again);
    server.down = true;
    expect(await tokens.signOut()).toBe(false);
    expect(await tokens.load()).toBeNull();
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
