// The Electron binary is fetched by npm's postinstall, prestart and predev (Electron 42+ has no
// install step of its own); a machine that sets ELECTRON_SKIP_BINARY_DOWNLOAD is told in one
// line and the install goes on. The download itself needs the internet, which this machine has
// not: it runs where `npm install && npm start` runs.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const SCRIPT = join(ROOT, 'scripts', 'install-electron.ts');

describe('installing the Electron binary', () => {
  it('runs after npm install and before npm start and npm run dev', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    for (const hook of ['postinstall', 'prestart', 'predev'])
      expect(scripts[hook], hook).toBe('node scripts/install-electron.ts');
  });

  it.each(['1', 'true', 'yes'])('with ELECTRON_SKIP_BINARY_DOWNLOAD=%s, says so in one line and succeeds', (value) => {
    const run = spawnSync(process.execPath, [SCRIPT], {
      cwd: ROOT,
      env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: value },
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(run.status).toBe(0);
    expect(run.stdout.trim().split('\n')).toEqual([
      'Electron binary not downloaded (ELECTRON_SKIP_BINARY_DOWNLOAD is set): the tests do not need it; for npm start run "npx install-electron".',
    ]);
    expect(run.stderr).toBe('');
  });
});
