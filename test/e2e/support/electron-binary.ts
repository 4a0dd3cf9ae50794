// Whether the `electron` end-to-end target can run here, found without `require('electron')`:
// the electron package's index.js starts downloading the binary when it is missing, and the
// suite never downloads anything.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../../..');
const PACKAGE_DIR = join(ROOT, 'node_modules', 'electron');

export type ElectronTarget = { ok: true; executablePath: string } | { ok: false; reason: string };

/** The Electron executable that `npm install` put in node_modules/electron/dist, if it did. */
export function electronExecutable(): ElectronTarget {
  const pathFile = join(PACKAGE_DIR, 'path.txt');
  const override = process.env['ELECTRON_OVERRIDE_DIST_PATH'];
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : override ? 'electron' : '';
  const executablePath = relative ? join(override ?? join(PACKAGE_DIR, 'dist'), relative) : '';
  if (!executablePath || !existsSync(executablePath)) {
    return {
      ok: false,
      reason:
        'electron target skipped: no Electron binary (node_modules/electron/dist); install it with `npx install-electron` (npm install does it with internet access)',
    };
  }
  return { ok: true, executablePath };
}

/**
 * Everything the target needs on this machine: the binary, and on Linux a display (`display`:
 * whether the run will have one; by default, whether this process has one).
 */
export function electronTarget(options: { display?: boolean } = {}): ElectronTarget {
  const binary = electronExecutable();
  if (!binary.ok) return binary;
  if (process.platform !== 'linux') {
    // The app keeps its session under one keychain entry per user; only on Linux can each
    // test be given a keyring of its own, so elsewhere a run would sign the developer out.
    return {
      ok: false,
      reason: `electron target skipped: it runs on Linux, where each test gets a private keyring (this is ${process.platform})`,
    };
  }
  if (!(options.display ?? Boolean(process.env['DISPLAY'] || process.env['WAYLAND_DISPLAY']))) {
    return {
      ok: false,
      reason:
        'electron target skipped: no display; run it as `xvfb-run --auto-servernum npx playwright test --project electron`',
    };
  }
  return binary;
}
