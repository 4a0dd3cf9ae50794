// macOS updates: electron-updater's own MacUpdater on a test app, through
// src/main/auto-update.ts, against a generic feed over real HTTP, with a stand-in for
// Squirrel.Mac (Electron's autoUpdater on macOS, support/updater.ts) that fetches the zip from
// MacUpdater's local server as Squirrel does and then accepts or refuses it for its code
// signature. MacUpdater says 'update-downloaded' before Squirrel has looked at the signature, so
// a refusal comes after "Update ready". What cannot run here is codesign itself: the signer is
// handed in, and the reading of codesign's display is tested on its text.
import { MacUpdater } from 'electron-updater';
import { afterEach, describe, expect, it } from 'vitest';
import { MAC_UNSIGNED_MESSAGE, macSignerFrom, type MacSigner } from '../../../src/main/auto-update.ts';
import { updateBanner } from '../../../src/shared/updates.ts';
import {
  FakeSquirrelMac,
  NodeExecutor,
  SQUIRREL_SIGNATURE_REFUSAL,
  appFolder,
  oneUpdateFeed,
  packagedConfig,
  until,
  watchedAutoUpdate,
  withElectronAutoUpdater,
} from '../../support/updater.ts';

const ZIP = Buffer.alloc(200 * 1024, 'Vet Scribe-0.2.0-mac.zip');
const ZIP_NAME = 'Vet Scribe-0.2.0-mac.zip';

// latest-mac.yml on a Mac, latest-linux.yml here: both the Mac one.
const feed = oneUpdateFeed(ZIP_NAME, ZIP, ['latest-mac.yml', 'latest-linux.yml']);
const cleanups: (() => void)[] = [];

afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** A packaged Mac app signed by `signer`, whose Squirrel.Mac refuses updates with `refusal` (null: accepts). */
function macApp(signer: MacSigner, refusal: string | null, prepare?: (updater: MacUpdater) => void) {
  const { dir, app } = appFolder(packagedConfig());
  const squirrel = new FakeSquirrelMac(refusal);
  let made = 0;
  let updater: MacUpdater | null = null;
  const { update, states, lines } = watchedAutoUpdate({
    updater: () => {
      made += 1;
      updater = withElectronAutoUpdater(squirrel, () => new MacUpdater(undefined, app));
      (updater as unknown as { httpExecutor: NodeExecutor }).httpExecutor = new NodeExecutor();
      prepare?.(updater);
      return Promise.resolve(updater);
    },
    configPath: `${dir}/user-data/app-update.yml`,
    platform: 'darwin',
    macSigner: () => Promise.resolve(signer),
  });
  cleanups.push(() => {
    update.dispose();
    (updater as unknown as { closeServerIfExists(): void } | null)?.closeServerIfExists();
  });
  return { update, squirrel, states, lines, made: () => made };
}

const idle = { recording: false, uploading: false };

describe('macOS updates', () => {
  it('a build not signed with a Developer ID has updates off, says why in Settings, and never asks the feed', async () => {
    const before = feed.hits.length;
    const m = macApp({ team: null, why: 'it is signed ad hoc' }, SQUIRREL_SIGNATURE_REFUSAL);
    await m.update.configure(feed.url);
    expect(m.update.state()).toEqual({ phase: 'off', version: null, message: MAC_UNSIGNED_MESSAGE });
    expect(MAC_UNSIGNED_MESSAGE).toBe(
      'Updates are off on this build: it is not signed with an Apple Developer ID, and macOS installs an update only into an app so signed. The clinic installs new versions itself, from the dmg.',
    );
    expect(m.lines).toContain(
      'warn update: off on this Mac: it is signed ad hoc; Squirrel.Mac installs updates only into an app signed with a Developer ID',
    );
    // The updater is not even loaded, and nothing is downloaded every 4 hours to be refused.
    expect(m.made()).toBe(0);
    expect(feed.hits.length).toBe(before);
    expect(m.squirrel.fetched).toEqual([]);
    await m.update.check();
    expect(feed.hits.length).toBe(before);
  });

  it('Squirrel.Mac refusing the download after "Update ready": "Not updated" with why, no restart offered, and the next check runs', async () => {
    const m = macApp({ team: 'ABCDE12345' }, SQUIRREL_SIGNATURE_REFUSAL);
    await m.update.configure(feed.url);
    await until('Squirrel to refuse the update', () => m.update.state().phase === 'failed');
    // It was said to be ready first (MacUpdater's 'update-downloaded'), then Squirrel refused it.
    expect(m.states.map((s) => s.phase)).toEqual(['idle', 'checking', 'downloading', 'ready', 'failed']);
    expect(m.squirrel.fetched).toEqual([ZIP.length]);
    expect(m.update.state()).toEqual({
      phase: 'failed',
      version: '0.2.0',
      message: `Version 0.2.0 was downloaded but the system refused to install it (${SQUIRREL_SIGNATURE_REFUSAL}). The app goes on as it is and tries again at the next check; tell the clinic's IT if this happens again.`,
    });
    // No "Update ready" banner, and a restart does nothing.
    expect(updateBanner(m.update.state(), idle)).toBeNull();
    m.update.restart();
    expect(m.squirrel.installs).toBe(0);
    // The next check is not blocked by an update that will never install.
    const checked = m.states.length;
    await m.update.check();
    await until('another check', () => m.states.slice(checked).some((s) => s.phase === 'checking'));
    // A second download and Squirrel's refusal.
    await until(
      'Squirrel to refuse it again',
      () => m.states.slice(checked).some((s) => s.phase === 'failed'),
      15_000,
      () => ({ states: m.states.slice(checked), fetched: m.squirrel.fetched, log: m.lines.slice(-12) }),
    );
    expect(m.squirrel.fetched).toEqual([ZIP.length, ZIP.length]);
  }, 30_000);

  it('a check that comes while the refused download is still being settled waits for it, then downloads again and says so', async () => {
    // MacUpdater settles its download once Squirrel.Mac has fetched the file, then tidies its
    // cache on disk; Squirrel's refusal can come first. Held back here as a busy disk does. A
    // check started meanwhile was handed that download as "already in progress": nothing more
    // was said, the phase stayed "downloading", and every later check was skipped for good.
    let held = false;
    const m = macApp({ team: 'ABCDE12345' }, SQUIRREL_SIGNATURE_REFUSAL, (updater) => {
      const mac = updater as unknown as { updateDownloaded(...args: unknown[]): Promise<unknown> };
      const settle = mac.updateDownloaded.bind(mac);
      mac.updateDownloaded = async (...args) => {
        try {
          return await settle(...args);
        } finally {
          if (!held) {
            held = true;
            await new Promise((r) => setTimeout(r, 800));
          }
        }
      };
    });
    await m.update.configure(feed.url);
    await until('Squirrel to refuse the update', () => m.update.state().phase === 'failed');
    const checked = m.states.length;
    await m.update.check();
    await until(
      'Squirrel to refuse it again',
      () => m.states.slice(checked).some((s) => s.phase === 'failed'),
      15_000,
      () => ({ states: m.states.slice(checked), log: m.lines.slice(-4) }),
    );
    expect(m.states.slice(checked).map((s) => s.phase)).toEqual(['checking', 'downloading', 'ready', 'failed']);
    expect(m.squirrel.fetched).toEqual([ZIP.length, ZIP.length]);
    expect(m.lines).not.toContain('info update: Downloading update (already in progress)');
  });

  it('a build signed with a Developer ID updates: Squirrel.Mac takes the download, and Restart installs it', async () => {
    const m = macApp({ team: 'ABCDE12345' }, null);
    await m.update.configure(feed.url);
    await until('the update to be ready', () => m.update.state().phase === 'ready');
    await until('Squirrel to take it', () => m.squirrel.fetched.length === 1);
    await new Promise((r) => setTimeout(r, 100));
    expect(m.update.state()).toEqual({ phase: 'ready', version: '0.2.0', message: 'Update ready: restart when free.' });
    m.update.restart();
    expect(m.squirrel.installs).toBe(1);
  });
});

describe("reading codesign's display", () => {
  it('a Developer ID signature names its team', () => {
    const display = [
      'Executable=/Applications/Vet Scribe.app/Contents/MacOS/Vet Scribe',
      'Identifier=com.vetscribe.desktop',
      'Format=app bundle with Mach-O universal (x86_64 arm64)',
      'CodeDirectory v=20500 size=1234 flags=0x10000(runtime) hashes=27+7 location=embedded',
      'Signature size=9041',
      'Authority=Developer ID Application: Vet Scribe Ltd (ABCDE12345)',
      'Authority=Developer ID Certification Authority',
      'Authority=Apple Root CA',
      'Timestamp=20 Nov 2026 at 10:00:00',
      'Info.plist entries=30',
      'TeamIdentifier=ABCDE12345',
      'Runtime Version=15.0.0',
      'Sealed Resources version=2 rules=13 files=120',
      'Internal requirements count=1 size=220',
    ].join('\n');
    expect(macSignerFrom(display)).toEqual({ team: 'ABCDE12345' });
  });

  it('an ad-hoc signature, as electron-builder leaves a build without a certificate, has none', () => {
    const display = [
      'Executable=/Applications/Vet Scribe.app/Contents/MacOS/Vet Scribe',
      'Identifier=com.vetscribe.desktop',
      'Format=app bundle with Mach-O thin (arm64)',
      'CodeDirectory v=20400 size=1234 flags=0x20002(adhoc,linker-signed) hashes=27+7 location=embedded',
      'Signature=adhoc',
      'Info.plist entries=30',
      'TeamIdentifier=not set',
      'Sealed Resources version=2 rules=13 files=120',
      'Internal requirements count=0 size=12',
    ].join('\n');
    expect(macSignerFrom(display)).toEqual({ team: null, why: 'it is signed ad hoc' });
  });

  it('a development certificate is not a Developer ID', () => {
    const display = [
      'Identifier=com.vetscribe.desktop',
      'Authority=Apple Development: vet@clinic.example (XYZ9876543)',
      'Authority=Apple Worldwide Developer Relations Certification Authority',
      'TeamIdentifier=XYZ9876543',
    ].join('\n');
    expect(macSignerFrom(display)).toEqual({ team: null, why: 'it is not signed with a Developer ID certificate' });
  });
});
