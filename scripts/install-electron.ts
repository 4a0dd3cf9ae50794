// Fetches the Electron binary for `npm start` and `npm run dev` (npm's postinstall, prestart
// and predev run this). Since Electron 42 the `electron` package has no install step of its own:
// its binary comes from its `install-electron` bin, and electron-vite looks for the
// `path.txt` that bin writes, so without this a fresh `npm install && npm start` fails with
// "Electron uninstall". ELECTRON_SKIP_BINARY_DOWNLOAD set (CI, machines without the internet)
// skips it with one line: the tests need no binary.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const skip = process.env['ELECTRON_SKIP_BINARY_DOWNLOAD'];
if (skip !== undefined && skip !== '' && skip !== '0' && skip.toLowerCase() !== 'false') {
  console.log(
    'Electron binary not downloaded (ELECTRON_SKIP_BINARY_DOWNLOAD is set): the tests do not need it; for npm start run "npx install-electron".',
  );
  process.exit(0);
}
const dir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
if (existsSync(join(dir, 'path.txt'))) process.exit(0);
console.log('Downloading the Electron binary (once)…');
const run = spawnSync(process.execPath, [join(dir, 'install.js')], { stdio: 'inherit' });
if (run.status !== 0) {
  console.error(
    'The Electron binary could not be downloaded; check the network (or a proxy: ELECTRON_GET_USE_PROXY=1 with HTTPS_PROXY) and run "npx install-electron".',
  );
}
process.exit(run.status ?? 1);
