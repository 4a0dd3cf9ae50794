// The packaged app as electron-builder makes it for Linux, with a stand-in for the Electron
// binary, which cannot be downloaded here, and fuses off for it (they patch the real binary).
// What is checked is what lands in resources/: app.asar with the built app and the production
// dependencies, keytar's native module unpacked beside it, no source maps, tests or sources,
// and every import of the built main resolvable inside the package. The AppImage and the deb
// are built as far as electron-builder goes before it fetches its packaging tools (the AppImage
// runtime, fpm), which cannot be downloaded here either: electron-builder hands each target's
// computed options to `effectiveOptionComputed` (the hook its own tests use) and stops there
// when told to. So the configuration electron-builder resolved (electron-builder.ts merged with
// its defaults) is read as it would build the installers: the AppImage on the static runtime,
// and the deb with its AppArmor profile.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import asar from '@electron/asar';
import { build, Platform, type Configuration } from 'electron-builder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import config from '../../electron-builder.ts';

const ROOT = join(import.meta.dirname, '../..');
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const ELECTRON_VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'node_modules', 'electron', 'package.json'), 'utf8')) as { version: string }
).version;

let work: string;
let resources: string;
let files: string[];
/** The configuration electron-builder resolved, as its packager holds it after packing. */
let resolved: Configuration;
/** What the AppImage target computed: its desktop entry. */
let appImage: { desktop: string; desktopFileName: string } | null = null;
/** What the deb target computed: fpm's arguments, and the after-install script they name. */
let deb: { args: string[]; afterInstall: string; desktop: string } | null = null;

beforeAll(async () => {
  expect(existsSync(join(ROOT, 'out', 'main', 'index.js')), 'out/ is missing: run "npm run build" first').toBe(true);
  work = mkdtempSync(join(tmpdir(), 'vet-scribe-pack-'));
  // The stand-in: an executable named as Electron's, in a folder laid out as its zip is.
  const dist = join(work, 'electron-dist');
  mkdirSync(join(dist, 'resources'), { recursive: true });
  writeFileSync(join(dist, 'electron'), '#!/bin/sh\necho "stand-in for the Electron binary"\n');
  chmodSync(join(dist, 'electron'), 0o755);
  writeFileSync(join(dist, 'version'), ELECTRON_VERSION);
  const output = join(work, 'dist');
  await build({
    projectDir: ROOT,
    targets: Platform.LINUX.createTarget(['AppImage', 'deb']),
    config: {
      ...config,
      electronDist: dist,
      electronVersion: ELECTRON_VERSION,
      // The fuses are flipped in the real binary's bytes; the stand-in has none to flip.
      electronFuses: null,
      // electron-builder also reads electron-builder.ts from the project and merges a publish
      // list given twice into a broken one: the file's own list is the one used.
      publish: undefined,
      directories: { ...config.directories, output },
      afterPack: (context) => {
        resolved = context.packager.config;
      },
    },
    // Each target's options once computed, right before it would fetch its tools: recorded, and
    // the target stops there (true).
    effectiveOptionComputed: (computed: unknown) => {
      if (Array.isArray(computed)) {
        const [args, desktopFile] = computed as [string[], string];
        deb = {
          args,
          afterInstall: readFileSync(args[args.indexOf('--after-install') + 1]!, 'utf8'),
          desktop: readFileSync(desktopFile, 'utf8'),
        };
      } else appImage = computed as { desktop: string; desktopFileName: string };
      return Promise.resolve(true);
    },
  });
  resources = join(output, 'linux-unpacked', 'resources');
  files = asar.listPackage(join(resources, 'app.asar'), { isPack: false }).map((f) => f.replace(/\\/g, '/'));
}, 120_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packaged app (linux-unpacked, as electron-builder packs it for the Linux installers)', () => {
  it('holds the built app (main, preload, window) and package.json', () => {
    for (const f of ['/package.json', '/out/main/index.js', '/out/preload/index.cjs', '/out/renderer/index.html'])
      expect(files, f).toContain(f);
    expect(files.some((f) => /^\/out\/renderer\/assets\/index-[^/]+\.js$/.test(f))).toBe(true);
  });

  it('holds the production dependencies main needs at run time, and no development one', () => {
    const packages = new Set(
      files
        .filter((f) => f.startsWith('/node_modules/'))
        .map((f) =>
          f
            .split('/')
            .slice(2, f.split('/')[2]?.startsWith('@') ? 4 : 3)
            .join('/'),
        ),
    );
    for (const dev of Object.keys(PKG.devDependencies))
      expect(packages.has(dev), `${dev} is a devDependency`).toBe(false);
    // Main bundles every other dependency and the window's libraries are bundled into
    // out/renderer: keytar (its native module) is the only package in the archive.
    expect([...packages]).toEqual(['keytar']);
  });

  it('unpacks keytar with its native module beside the archive (a .node cannot load from inside it)', () => {
    expect(
      existsSync(join(resources, 'app.asar.unpacked', 'node_modules', 'keytar', 'build', 'Release', 'keytar.node')),
    ).toBe(true);
    expect(files.filter((f) => f.endsWith('.node'))).toEqual(['/node_modules/keytar/build/Release/keytar.node']);
  });

  it('has no source maps, tests or sources', () => {
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(
      files.filter(
        (f) => f.startsWith('/src/') || f.startsWith('/test/') || f.startsWith('/bench/') || f.startsWith('/scripts/'),
      ),
    ).toEqual([]);
    expect(files.filter((f) => /^\/out\/.*\.ts$/.test(f))).toEqual([]);
  });

  it('every import of the built main resolves inside the package', () => {
    // The entry and the chunks it loads when needed (the updater).
    const mainFiles = files.filter((f) => /^\/out\/main\/.*\.js$/.test(f));
    expect(mainFiles).toContain('/out/main/index.js');
    const main = mainFiles
      .map((f) => asar.extractFile(join(resources, 'app.asar'), f.slice(1)).toString('utf8'))
      .join('\n');
    const specifiers = new Set(
      [
        ...main.matchAll(/^import\s[^'"]*['"]([^'"]+)['"]/gm),
        ...main.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g),
        ...main.matchAll(/__require\(\s*['"]([^'"]+)['"]\s*\)/g),
      ].map((m) => m[1]!),
    );
    // Relative specifiers only appear inside strings of bundled code (one file has nothing to import beside it).
    const external = [...specifiers].filter(
      (s) => !s.startsWith('.') && !s.startsWith('node:') && !builtinModules.includes(s) && s !== 'electron',
    );
    expect(external).toEqual(['keytar']);
    for (const spec of external) {
      const pkg = JSON.parse(
        asar.extractFile(join(resources, 'app.asar'), `node_modules/${spec}/package.json`).toString('utf8'),
      ) as { main?: string };
      const entry = join('node_modules', spec, pkg.main ?? 'index.js').replace(/\\/g, '/');
      expect(files, `${spec}'s entry ${entry}`).toContain(`/${entry.endsWith('.js') ? entry : `${entry}.js`}`);
    }
  });
});

describe('the Linux installers, as electron-builder resolved their configuration', () => {
  it('the AppImage is built on the static runtime, not the FUSE2 one whose libfuse2 Ubuntu 22.04 and 24.04 lack', () => {
    // "0.0.0" or none is the FUSE2 toolset.
    expect(resolved.toolsets?.appimage).toBe('1.0.3');
    // One electron-builder knows how to fetch (it pins each toolset's checksum).
    const { appimageChecksums } = createRequire(join(ROOT, 'package.json'))(
      'app-builder-lib/out/toolsets/linux.js',
    ) as { appimageChecksums: Record<string, unknown> };
    expect(Object.keys(appimageChecksums)).toContain(resolved.toolsets?.appimage);
    // Its desktop entry starts the app with Chromium's sandbox (the FUSE2 toolset's has --no-sandbox).
    expect(appImage?.desktop).toMatch(/^Exec=AppRun %U$/m);
    expect(appImage?.desktop).not.toContain('--no-sandbox');
  });

  it("the deb carries the AppArmor profile that gives Chromium's sandbox its user namespace on Ubuntu 24.04, and installs it", () => {
    if (!deb) throw new Error('the deb target computed nothing');
    // Packed into the app's resources, attached to the installed executable, granting userns.
    const profile = readFileSync(join(resources, 'apparmor-profile'), 'utf8');
    expect(profile).toMatch(/^profile "vet-scribe" "\/opt\/Vet Scribe\/vet-scribe" flags=\(unconfined\) \{$/m);
    expect(profile).toMatch(/^\s*userns,$/m);
    expect(deb.args).toContain(`${join(work, 'dist', 'linux-unpacked')}/=/opt/Vet Scribe`);
    // The package's after-install script puts it into /etc/apparmor.d and loads it.
    expect(deb.afterInstall).toContain("APPARMOR_PROFILE_SOURCE='/opt/Vet Scribe/resources/apparmor-profile'");
    expect(deb.afterInstall).toContain("APPARMOR_PROFILE_TARGET='/etc/apparmor.d/vet-scribe'");
    expect(deb.afterInstall).toContain(
      'apparmor_parser --replace --write-cache --skip-read-cache "$APPARMOR_PROFILE_TARGET"',
    );
    // Where the kernel has no user namespaces at all, the setuid sandbox helper instead.
    expect(deb.afterInstall).toContain("chmod 4755 '/opt/Vet Scribe/chrome-sandbox'");
    expect(deb.desktop).toMatch(/^Exec="\/opt\/Vet Scribe\/vet-scribe" %U$/m);
  });
});
