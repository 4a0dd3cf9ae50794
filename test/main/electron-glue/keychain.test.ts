// A keychain module that does not load (a native addon in a broken or mismatched install; it
// has happened from inside app.asar, electron/electron#40211, #45896): the built main under
// the fake Electron, with `keytar` made a module that throws on load
// (FAKE_ELECTRON_KEYTAR=broken). The tokens go to the next store, the failure is in the log
// with its cause, and the vet is told once, in words that say where the sign-in is kept now.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MEMORY_ONLY_NOTICE } from '../../../src/main/core/sign-in/secret-store.ts';
import { runOnce } from '../../support/fake-electron/run-main.ts';

describe('a keychain module that does not load', () => {
  const main = runOnce('keytar', 'quit', { FAKE_ELECTRON_KEYTAR: 'broken' });

  it('still starts, with the tokens in the next store (memory here: the fake has no safeStorage)', () => {
    expect(main.run.report.driverError).toBeUndefined();
    expect(main.run.report.errorBoxes).toEqual([]);
    expect(main.run.report.appInfo).toMatchObject({
      ok: true,
      data: { secretStore: { kind: 'memory', persistent: false } },
    });
  });

  it('is said to the vet once, with where the sign-in is kept instead', () => {
    const { notices } = main.run.report.appInfo.data as { notices: { level: string; message: string }[] };
    const aboutKeychain = notices.filter((n) => /keychain/i.test(n.message));
    expect(aboutKeychain).toEqual([
      {
        level: 'warning',
        message:
          'Vet Scribe could not load its keychain module, so your sign-in is not in the system keychain. It is kept in memory for this run only: you will sign in again after a restart. Reinstalling Vet Scribe usually puts this right; the log has the details.',
      },
    ]);
    // Not also the "no keychain on this computer" notice, which would be wrong here.
    expect(notices.map((n) => n.message)).not.toContain(MEMORY_ONLY_NOTICE);
  });

  it("is in the log as an error, with the module's own error", () => {
    const log = readFileSync(join(main.home, 'config', 'Vet Scribe', 'logs', 'main.log'), 'utf8');
    expect(log).toMatch(
      /\[error\] +keychain: the keychain module \(keytar\) could not be loaded: Cannot find module '.*keytar\.node'; tokens go to the next store instead/,
    );
    expect(main.run.stderr).toMatch(/keychain: the keychain module \(keytar\) could not be loaded/);
  });
});
