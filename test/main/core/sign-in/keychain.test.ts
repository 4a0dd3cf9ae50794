// The OS keychain for real, through keytar: on Linux a Secret Service on the session bus
// (npm test starts a throwaway GNOME Keyring when there is none). Where no keychain answers
// the test cannot run; on CI that is a failure, not a skip.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  chooseSecretStore,
  keychainLoadNotice,
  loadKeychain,
  MEMORY_ONLY_NOTICE,
  openKeychain,
  type SafeStorageLike,
  type StoredSession,
} from '../../../../src/main/core/sign-in/secret-store.ts';

const keychain = await openKeychain(`Vet Scribe test ${randomUUID()}`);
const required = process.env['CI'] === 'true' || process.env['VET_SCRIBE_TEST_KEYRING'] !== undefined;

/** The keychain store under test, keytar itself and the service name the store's entries are under, to read them directly. */
async function keychainAndKeytar() {
  const store = keychain!;
  const service = (store as unknown as { service: string }).service;
  const keytar = (await import('keytar')).default;
  return { store, service, keytar };
}

describe('keychain secret store', () => {
  it('a keychain answers here', () => {
    if (!keychain && !required)
      console.warn('no keychain answers on this machine: the keychain tests below are skipped');
    if (required)
      expect(keychain, 'no Secret Service answered; run the tests with npm test, which starts one').not.toBeNull();
  });

  it.skipIf(!keychain)(
    "keeps a background sign-in in its account's own entry, beside the session's, which stays where it was",
    async () => {
      const store = keychain!;
      const session = (id: string, token: string): StoredSession => ({
        accessToken: `${token}-access`,
        refreshToken: `${token}-refresh`,
        user: { id, email: `${id}@clinic.test`, name: `Dr ${id}`, organizationId: 'o1' },
      });
      await store.save(session('front', 'f'));
      const a = store.forAccount('user-a');
      const b = store.forAccount('user-b');
      await a.save(session('user-a', 'a'));
      await b.save(session('user-b', 'b'));
      // Each entry holds its own; the foreground's 'session' entry is read as before.
      expect((await store.load())?.accessToken).toBe('f-access');
      expect((await a.load())?.accessToken).toBe('a-access');
      expect((await b.load())?.accessToken).toBe('b-access');
      const keytar = (await import('keytar')).default;
      const service = (store as unknown as { service: string }).service;
      expect(JSON.parse((await keytar.getPassword(service, 'session')) ?? '{}')).toMatchObject({
        accessToken: 'f-access',
      });
      // No entry is named after a user id.
      const accounts = (await keytar.findCredentials(service)).map((c) => c.account);
      expect(accounts.filter((n) => n.includes('user-a'))).toEqual([]);
      await a.clear();
      expect(await a.load()).toBeNull();
      expect((await b.load())?.accessToken).toBe('b-access');
      expect((await store.load())?.accessToken).toBe('f-access');
      await b.clear();
      await store.clear();
      expect((await keytar.findCredentials(service)).filter((c) => c.account.startsWith('account.'))).toEqual([]);
    },
  );

  it.skipIf(!keychain)('keeps, returns and forgets the session', async () => {
    const store = keychain!;
    expect(store).toMatchObject({ kind: 'keychain', persistent: true });
    expect(await store.load()).toBeNull();
    const session: StoredSession = {
      accessToken: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0ZXN0In0.c2lnbmF0dXJl',
      refreshToken: 'eyJhbGciOiJIUzI1NiJ9.eyJ0eXAiOiJyZWZyZXNoIn0.c2lnbmF0dXJlMg',
      expiresAt: 2_000_000_000,
      refreshExpiresAt: 2_100_000_000,
      obtainedAt: 1_700_000_000_000,
      user: { id: 'u1', email: 'vet@clinic.test', name: 'Dr Vet', organizationId: 'o1' },
    };
    await store.save(session);
    expect(await store.load()).toEqual(session);
    // Another handle on the same keychain entry sees it: it is really stored, not cached.
    const { KeychainSecretStore } = await import('../../../../src/main/core/sign-in/secret-store.ts');
    const keytar = (await import('keytar')).default;
    const other = new KeychainSecretStore(keytar, (store as unknown as { service: string }).service);
    expect((await other.load())?.refreshToken).toBe(session.refreshToken);
    await store.clear();
    expect(await store.load()).toBeNull();
    expect(await other.load()).toBeNull();
  });

  it.skipIf(!keychain)(
    'keeps a session too long for one Windows credential (2,560 bytes) in entries of at most 2,000 bytes, and clears them all',
    async () => {
      const { store, service, keytar } = await keychainAndKeytar();
      const jwt = (n: number) => `eyJhbGciOiJSUzI1NiJ9.${'x'.repeat(n)}.${'s'.repeat(342)}`;
      const long: StoredSession = {
        accessToken: jwt(1500),
        refreshToken: jwt(1800),
        expiresAt: 2_000_000_000,
        obtainedAt: 1_700_000_000_000,
        user: { id: 'u1', email: 'vet@clinic.test', name: 'Dr Zoë Müller 🐾', organizationId: 'o1' },
      };
      await store.save(long);
      const entries = await keytar.findCredentials(service);
      expect(entries.length).toBeGreaterThan(2);
      for (const e of entries) expect(Buffer.byteLength(e.password, 'utf8'), e.account).toBeLessThanOrEqual(2000);
      expect(await store.load()).toEqual(long);
      // A shorter session replaces it in one entry, leaving no parts of the longer one behind.
      const short: StoredSession = { accessToken: 'a.b.c', refreshToken: 'd.e.f', user: null };
      await store.save(short);
      expect((await keytar.findCredentials(service)).map((e) => e.account)).toEqual(['session']);
      expect(await store.load()).toEqual(short);
      await store.save(long);
      await store.clear();
      expect(await keytar.findCredentials(service)).toEqual([]);
      expect(await store.load()).toBeNull();
    },
  );

  it.skipIf(!keychain)(
    "keeps the clinic's webhook secret as its own entry, which a sign-out does not remove",
    async () => {
      const { store, service, keytar } = await keychainAndKeytar();
      expect(await store.loadSecret('webhook-secret')).toBeNull();
      await store.save({ accessToken: 'a.b.c', refreshToken: 'd.e.f', user: null });
      await store.saveSecret('webhook-secret', 'whsec-0123456789abcdef');
      // Read straight from the keychain, not through the store: it is really there.
      expect(await keytar.getPassword(service, 'webhook-secret')).toBe('whsec-0123456789abcdef');
      expect(await keytar.getPassword(service, 'session')).not.toContain('whsec');
      await store.clear();
      expect(await store.loadSecret('webhook-secret')).toBe('whsec-0123456789abcdef');
      await keytar.deletePassword(service, 'webhook-secret');
    },
  );
});

describe("where the tokens go (main's choice at launch)", () => {
  const session: StoredSession = { accessToken: 'eyJ.access.token', refreshToken: 'eyJ.refresh.token', user: null };
  // Electron's safeStorage cannot run here: a cipher stands in for the OS's (XOR, so the file
  // holds no token in clear), with the backend main would read.
  const safeStorage = (backend: string, available = true): SafeStorageLike => ({
    isEncryptionAvailable: () => available,
    backend: () => backend,
    encrypt: (plain) => Buffer.from(Buffer.from(plain, 'utf8').map((b) => b ^ 0x5a)),
    decrypt: (data) => Buffer.from(data.map((b) => b ^ 0x5a)).toString('utf8'),
  });
  const file = () => join(mkdtempSync(join(tmpdir(), 'vet-scribe-secrets-')), 'session.bin');

  it.skipIf(!keychain)('the keychain when one answers, whatever safeStorage offers', async () => {
    const notices: { level: 'warning'; message: string }[] = [];
    const store = await chooseSecretStore({
      keychain: async () => keychain,
      safeStorage: safeStorage('gnome_libsecret'),
      file: file(),
      notices,
    });
    expect(store.kind).toBe('keychain');
    expect(notices).toEqual([]);
  });

  it.each(['gnome_libsecret', 'kwallet5', 'os'])(
    'without a keychain, safeStorage with the %s backend: an encrypted file, no token in clear',
    async (backend) => {
      const notices: { level: 'warning'; message: string }[] = [];
      const path = file();
      const store = await chooseSecretStore({
        keychain: async () => null,
        safeStorage: safeStorage(backend),
        file: path,
        notices,
      });
      expect(store).toMatchObject({ kind: 'safe-storage', persistent: true });
      await store.save(session);
      expect(readFileSync(path).toString('latin1')).not.toContain('eyJ');
      expect(await store.load()).toEqual(session);
      expect(notices).toEqual([]);
      // A named secret is encrypted too, in its own file, and outlives a sign-out.
      await store.saveSecret('webhook-secret', 'whsec-0123456789abcdef');
      expect(readFileSync(`${path}.webhook-secret`).toString('latin1')).not.toContain('whsec');
      await store.clear();
      expect(await store.loadSecret('webhook-secret')).toBe('whsec-0123456789abcdef');
    },
  );

  it.each([
    ['basic_text', true],
    ['unknown', true],
    ['gnome_libsecret', false],
  ])(
    'without a keychain, safeStorage %s (available: %s) is refused: memory only, and the vet is told',
    async (backend, available) => {
      const notices: { level: 'warning'; message: string }[] = [];
      const path = file();
      const store = await chooseSecretStore({
        keychain: async () => null,
        safeStorage: safeStorage(backend, available),
        file: path,
        notices,
      });
      expect(store).toMatchObject({ kind: 'memory', persistent: false });
      await store.save(session);
      expect(existsSync(path)).toBe(false);
      expect(notices).toEqual([{ level: 'warning', message: MEMORY_ONLY_NOTICE }]);
    },
  );

  // keytar as an install can break it: a native module that cannot be opened (from inside
  // app.asar it has happened, electron/electron#40211, #45896).
  const broken = () =>
    Promise.reject(
      Object.assign(
        new Error(
          "Cannot find module '/opt/Vet Scribe/resources/app.asar/node_modules/keytar/build/Release/keytar.node'",
        ),
        { code: 'MODULE_NOT_FOUND' },
      ),
    );

  it.each([
    ['gnome_libsecret', true, 'safe-storage'],
    ['basic_text', true, 'memory'],
  ])(
    'a keychain module that does not load (safeStorage %s): logged with its cause, and said once with where the sign-in went',
    async (backend, available, kind) => {
      const notices: { level: 'warning' | 'info' | 'error'; message: string }[] = [];
      const logged: string[] = [];
      const store = await chooseSecretStore({
        keychain: () => loadKeychain('Vet Scribe test', broken),
        safeStorage: safeStorage(backend, available),
        file: file(),
        notices,
        log: (line) => logged.push(line),
      });
      expect(store.kind).toBe(kind);
      expect(notices).toEqual([{ level: 'warning', message: keychainLoadNotice(store) }]);
      expect(notices[0]?.message).toContain(`It is kept ${store.description}.`);
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatch(
        /^keychain: the keychain module \(keytar\) could not be loaded: Cannot find module '.*keytar\.node'; tokens go to the next store instead\n/,
      );
    },
  );

  it('a keychain that loads but does not answer (no Secret Service) is not a failure: only the usual memory notice', async () => {
    const notices: { level: 'warning' | 'info' | 'error'; message: string }[] = [];
    const logged: string[] = [];
    const silent = {
      findCredentials: () => Promise.reject(new Error('no Secret Service')),
      getPassword: () => Promise.resolve(null),
    };
    const store = await chooseSecretStore({
      keychain: () => loadKeychain('Vet Scribe test', () => Promise.resolve(silent)),
      safeStorage: safeStorage('basic_text'),
      file: file(),
      notices,
      log: (line) => logged.push(line),
    });
    expect(store.kind).toBe('memory');
    expect(notices).toEqual([{ level: 'warning', message: MEMORY_ONLY_NOTICE }]);
    expect(logged).toEqual([]);
  });
});
