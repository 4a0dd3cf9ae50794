// The installer configuration as electron-builder reads it (the real electron-builder.ts),
// and the resources it points at in build/.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../../electron-builder.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  scripts: Record<string, string>;
};

/** Width and height from a PNG's IHDR chunk, which the format puts first. */
function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (!bytes.subarray(0, 8).equals(signature)) throw new Error(`${file} is not a PNG`);
  if (bytes.toString('latin1', 12, 16) !== 'IHDR') throw new Error(`${file} has no IHDR chunk first`);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('electron-builder configuration', () => {
  it('names the app and takes the version from package.json', () => {
    expect(config.appId).toBe('com.vetscribe.desktop');
    expect(config.productName).toBe('Vet Scribe');
    expect(config.extraMetadata?.['version']).toBeUndefined();
    expect(config.buildVersion).toBeUndefined();
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+/);
    // Nothing is uploaded by a build: the clinic's IT puts the installers and latest*.yml on its own server.
    expect(pkg.scripts['dist']).toBe('electron-vite build && electron-builder --publish never');
  });

  it('packs only the built app and unpacks the native keychain module', () => {
    const files = ([] as unknown[]).concat(config.files ?? []);
    // The built app, and of node_modules only keytar (main bundles every other dependency).
    expect(files.filter((f) => typeof f === 'string' && !f.startsWith('!'))).toEqual([
      'out/**',
      'node_modules/keytar/**',
    ]);
    expect(files).toContain('!node_modules/**');
    const unpack = ([] as unknown[]).concat(config.asarUnpack ?? []);
    expect(unpack).toContain('**/*.node');
    expect(unpack.some((p) => typeof p === 'string' && p.includes('keytar'))).toBe(true);
    expect(config.asar).not.toBe(false);
  });

  it('installs per user on Windows, never asking for admin rights', () => {
    expect(config.win?.target).toBe('nsis');
    expect(config.nsis?.perMachine).toBe(false);
    expect(config.nsis?.allowElevation).toBe(false);
    expect(config.nsis?.deleteAppDataOnUninstall).not.toBe(true);
  });

  it('puts an ad-hoc signature back after the fuses rewrite the binary (an unsigned app does not launch on Apple Silicon)', () => {
    expect(config.electronFuses?.resetAdHocDarwinSignature).toBe(true);
    // No certificate is forced: a clinic's own identity, when present, still signs the app.
    expect(config.mac?.identity).toBeUndefined();
  });

  it('builds a dmg with the hardened runtime, the microphone entitlement and its usage text', () => {
    // The zip is what electron-updater installs on macOS.
    expect(config.mac?.target).toEqual(['dmg', 'zip']);
    expect(config.mac?.hardenedRuntime).toBe(true);
    const entitlements = config.mac?.entitlements;
    expect(entitlements).toBeTruthy();
    const plist = readFileSync(resolve(ROOT, entitlements ?? ''), 'utf8');
    const granted = (key: string) => new RegExp(`<key>${key.replace(/\./g, '\\.')}</key>\\s*<true\\s*/>`).test(plist);
    expect(granted('com.apple.security.device.audio-input')).toBe(true);
    expect(granted('com.apple.security.cs.allow-jit')).toBe(true);
    expect(config.mac?.entitlementsInherit).toBe(entitlements);
    const usage = config.mac?.extendInfo?.['NSMicrophoneUsageDescription'];
    expect(typeof usage).toBe('string');
    expect((usage as string).length).toBeGreaterThan(20);
  });

  it('builds an AppImage and a deb that depends on libsecret', () => {
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(['Office', 'Medical', 'MedicalSoftware']).toContain(config.linux?.category);
    expect(config.deb?.depends).toContain('libsecret-1-0');
  });

  it('sets the fuses that close the ways around the signed app', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      enableCookieEncryption: true,
      loadBrowserProcessSpecificV8Snapshot: false,
    });
  });

  it('has an icon: a PNG of at least 512x512, with its SVG source', () => {
    const icon = resolve(ROOT, 'build/icon.png');
    for (const platform of [config.win, config.mac, config.linux]) expect(platform?.icon).toBe('build/icon.png');
    const { width, height } = pngSize(icon);
    expect(width).toBeGreaterThanOrEqual(512);
    expect(height).toBe(width);
    expect(existsSync(resolve(ROOT, 'build/icon.svg'))).toBe(true);
  });
});
