// The OS keychain for real, through keytar: on Linux a Secret Service on the session bus
// (npm test starts a throwaway GNOME Keyring when there is none). Where no keychain answers
// the test cannot run; on CI that is a failure, not a skip.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openKeychain, type StoredSession } from '../../src/main/core/secret-store.ts';

const keychain = await openKeychain(`Vet Scribe test ${randomUUID()}`);
const required = process.env['CI'] === 'true' || process.env['VET_SCRIBE_TEST_KEYRING'] !== undefined;

describe('keychain secret store', () => {
  it('a keychain answers here', () => {
    if (!keychain && !required) console.warn('no keychain answers on this machine: the keychain tests below are skipped');
    if (required) expect(keychain, 'no Secret Service answered; run the tests with npm test, which starts one').not.toBeNull();
  });

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
    const { KeychainSecretStore } = await import('../../src/main/core/secret-store.ts');
    const keytar = (await import('keytar')).default;
    const other = new KeychainSecretStore(keytar, (store as unknown as { service: string }).service);
    expect((await other.load())?.refreshToken).toBe(session.refreshToken);
    await store.clear();
    expect(await store.load()).toBeNull();
    expect(await other.load()).toBeNull();
  });
});
