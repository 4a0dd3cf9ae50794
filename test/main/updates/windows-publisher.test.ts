// Windows updates check the installer's publisher: electron-updater's own NsisUpdater on a test
// app, through src/main/auto-update.ts, against a generic feed over real HTTP. electron-builder
// puts the publisher of a signed build into resources/app-update.yml; auto-update.ts writes the
// settings the updater reads, and they must carry it, because NsisUpdater.verifySignature skips
// the check altogether when they name no publisher. What cannot run here is the check itself
// (PowerShell's Get-AuthenticodeSignature): a stand-in answers as electron-updater's verifier
// does, from the signer the test gives the installer.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NsisUpdater } from 'electron-updater';
import { afterEach, describe, expect, it } from 'vitest';
import type { AutoUpdate } from '../../../src/main/auto-update.ts';
import { appFolder, oneUpdateFeed, packagedConfig, runHere, until, watchedAutoUpdate } from '../../support/updater.ts';

const INSTALLER = Buffer.alloc(300 * 1024, 'Vet Scribe Setup 0.2.0');
const EXE = 'Vet Scribe Setup 0.2.0.exe';
const PUBLISHER = 'Vet Scribe Clinic Software Ltd';

// latest.yml on Windows, latest-linux.yml here: each the Windows one.
const feed = oneUpdateFeed(EXE, INSTALLER, ['latest.yml', 'latest-linux.yml', 'latest-mac.yml']);
const updates: AutoUpdate[] = [];

afterEach(() => {
  for (const u of updates.splice(0)) u.dispose();
});

/**
 * A Windows app built with `packaged` as its resources/app-update.yml, whose downloaded
 * installers are signed by `signer` (a certificate subject, as Get-AuthenticodeSignature reads
 * it).
 */
function windowsApp(packaged: Record<string, unknown> | null, signer: string) {
  const { dir, app } = appFolder(packaged);
  const updater = new NsisUpdater(undefined, app);
  // Running the installer is not for a test machine: recorded instead.
  const installs = runHere(updater);
  const verified: { publisherNames: string[]; bytes: Buffer }[] = [];
  // electron-updater's verifier compares the signer's CN (or the whole DN) with each publisher
  // name and answers null for a match, else a description of the mismatch.
  updater.verifyUpdateCodeSignature = (publisherNames, file) => {
    verified.push({ publisherNames, bytes: readFileSync(file) });
    const cn = /(?:^|,\s*)CN=([^,]+)/.exec(signer)?.[1];
    const match = publisherNames.some((name) => name === signer || name === cn);
    return Promise.resolve(
      match
        ? null
        : `publisherNames: ${publisherNames.join(' | ')}, raw info: {"Status":0,"SignerCertificate":{"Subject":"${signer}"}}`,
    );
  };
  const configPath = join(dir, 'user-data', 'app-update.yml');
  const { update, states, lines } = watchedAutoUpdate({
    updater: () => Promise.resolve(updater),
    configPath,
    platform: 'win32',
  });
  updates.push(update);
  return { update, updater, verified, installs, states, lines, configPath };
}

/** The settings file as the updater reads it (its own YAML reader, as verifySignature does). */
async function asTheUpdaterReadsIt(configPath: string): Promise<Record<string, unknown>> {
  const { app } = appFolder(null);
  const reader = new NsisUpdater(undefined, app);
  reader.updateConfigPath = configPath;
  return (reader as unknown as { configOnDisk: { value: Promise<Record<string, unknown>> } }).configOnDisk.value;
}

describe('Windows updates check the installer’s publisher', () => {
  it("the generated app-update.yml carries the packaged one's publisherName, as the updater reads it", async () => {
    const w = windowsApp(
      packagedConfig({ publisherName: [PUBLISHER, `CN=${PUBLISHER}, O=${PUBLISHER}, C=GB`] }),
      `CN=${PUBLISHER}, O=${PUBLISHER}, C=GB`,
    );
    await w.update.configure(feed.url);
    expect(await asTheUpdaterReadsIt(w.configPath)).toEqual({
      provider: 'generic',
      url: feed.url,
      updaterCacheDirName: 'vet-scribe-updater',
      publisherName: [PUBLISHER, `CN=${PUBLISHER}, O=${PUBLISHER}, C=GB`],
    });
    expect(w.lines).toContain(
      `info update: installers must be signed by ${PUBLISHER} or CN=${PUBLISHER}, O=${PUBLISHER}, C=GB`,
    );
    // An installer from that publisher is downloaded, checked and offered.
    await until('the update to be ready', () => w.update.state().phase === 'ready');
    expect(w.verified).toHaveLength(1);
    expect(w.verified[0]?.publisherNames).toEqual([PUBLISHER, `CN=${PUBLISHER}, O=${PUBLISHER}, C=GB`]);
    // What was checked is the installer downloaded.
    expect(w.verified[0]?.bytes.equals(INSTALLER)).toBe(true);
  });

  it('a single publisher name (a string in the packaged file) is carried as a list', async () => {
    const w = windowsApp(packagedConfig({ publisherName: PUBLISHER }), `CN=${PUBLISHER}`);
    await w.update.configure(feed.url);
    expect((await asTheUpdaterReadsIt(w.configPath))['publisherName']).toEqual([PUBLISHER]);
  });

  it('an installer signed by another publisher is refused, in a sentence, and never installed', async () => {
    const w = windowsApp(
      packagedConfig({ publisherName: [PUBLISHER] }),
      'CN=Someone Else Ltd, O=Someone Else Ltd, C=GB',
    );
    await w.update.configure(feed.url);
    await until('the refusal', () => w.update.state().phase === 'failed');
    expect(w.verified.map((v) => v.publisherNames)).toEqual([[PUBLISHER]]);
    expect(w.update.state()).toEqual({
      phase: 'failed',
      version: '0.2.0',
      message: `Version 0.2.0 was not installed: its installer is not signed by ${PUBLISHER}. Tell the clinic's IT. The app goes on as it is.`,
    });
    expect(w.lines.find((l) => l.startsWith('warn update: ignored'))).toMatch(
      /New version 0\.2\.0 is not signed by the application owner/,
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(w.states.map((s) => s.phase)).not.toContain('ready');
    w.update.restart();
    expect(w.installs).toEqual([]);
  });

  it('a build that names no publisher (not code-signed) says its installers are checked by checksum only', async () => {
    const w = windowsApp(packagedConfig(), 'CN=Anyone');
    await w.update.configure(feed.url);
    expect(await asTheUpdaterReadsIt(w.configPath)).not.toHaveProperty('publisherName');
    expect(w.lines).toContain(
      "warn update: this build names no publisher (it was not code-signed): a new version is checked against the feed's SHA-512 only",
    );
    await until('the update to be ready', () => w.update.state().phase === 'ready');
    expect(w.verified).toEqual([]);
  });
});
