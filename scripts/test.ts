// The whole test suite, as the README's `npm test` runs it: vitest (unit, integration,
// renderer) and, where specs exist, Playwright end-to-end. It ends with one summary line
// `N passed, N failed, N skipped` over everything that ran.
//
// On Linux without a session bus it re-runs itself inside `dbus-run-session` with a
// throwaway gnome-keyring (its own XDG_DATA_HOME), so the keychain tests use a real
// Secret Service without touching the developer's own keyring.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { electronTarget } from '../test/e2e/support/electron-binary.ts';

const root = join(import.meta.dirname, '..');
const args = process.argv.slice(2);

function have(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

if (
  process.platform === 'linux' &&
  !process.env['DBUS_SESSION_BUS_ADDRESS'] &&
  !process.env['VET_SCRIBE_TEST_KEYRING'] &&
  have('dbus-run-session') &&
  have('gnome-keyring-daemon')
) {
  const keyringHome = mkdtempSync(join(tmpdir(), 'vet-scribe-keyring-'));
  const inner =
    'echo -n test | XDG_DATA_HOME="$VET_SCRIBE_TEST_KEYRING" gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1; exec "$0" "$@"';
  const r = spawnSync(
    'dbus-run-session',
    ['--', 'sh', '-c', inner, process.execPath, ...process.execArgv, import.meta.filename, ...args],
    {
      stdio: 'inherit',
      env: { ...process.env, VET_SCRIBE_TEST_KEYRING: keyringHome },
    },
  );
  process.exit(r.status ?? 1);
}

const results = join(root, 'test-results');
mkdirSync(results, { recursive: true });
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

type Count = { passed: number; failed: number; skipped: number };
const total: Count = { passed: 0, failed: 0, skipped: 0 };
let exitCode = 0;

// The build first: the tests of the built app (test/build/, test/main/electron-glue/) and the
// end-to-end suite use out/, which a fresh clone does not have and an old one may hold stale.
const build = spawnSync(bin('electron-vite'), ['build', '--logLevel', 'warn'], { stdio: 'inherit', cwd: root });
if (build.status !== 0) {
  console.error('the build failed; the tests of the built app would test nothing');
  console.log(`\n0 passed, 1 failed, 0 skipped`);
  process.exit(1);
}

const vitestJson = join(results, 'vitest.json');
const v = spawnSync(
  bin('vitest'),
  ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`, ...args],
  {
    stdio: 'inherit',
    cwd: root,
  },
);
if (v.status !== 0) exitCode = 1;
if (existsSync(vitestJson)) {
  const j = JSON.parse(readFileSync(vitestJson, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
  };
  total.passed += j.numPassedTests;
  total.failed += j.numFailedTests;
  total.skipped += j.numPendingTests + j.numTodoTests;
} else {
  exitCode = 1;
  total.failed += 1;
  console.error('vitest wrote no results');
}

if (existsSync(join(root, 'playwright.config.ts')) && args.length === 0) {
  const pwJson = join(results, 'playwright.json');
  // The electron target joins where its binary is installed; on Linux without a display it
  // runs under xvfb-run. Elsewhere the browser target runs alone and one line says why.
  const xvfb =
    process.platform === 'linux' && !process.env['DISPLAY'] && !process.env['WAYLAND_DISPLAY'] && have('xvfb-run');
  const electron = electronTarget(xvfb ? { display: true } : {});
  if (!electron.ok) console.log(electron.reason);
  const projects = electron.ok ? ['--project', 'browser', '--project', 'electron'] : [];
  const [command = '', ...prefix] =
    electron.ok && xvfb ? ['xvfb-run', '--auto-servernum', bin('playwright')] : [bin('playwright')];
  const p = spawnSync(command, [...prefix, 'test', '--reporter=list,json', ...projects], {
    stdio: 'inherit',
    cwd: root,
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson },
  });
  if (p.status !== 0) exitCode = 1;
  if (existsSync(pwJson)) {
    const s = (
      JSON.parse(readFileSync(pwJson, 'utf8')) as {
        stats: { expected: number; unexpected: number; flaky: number; skipped: number };
      }
    ).stats;
    total.passed += s.expected + s.flaky;
    total.failed += s.unexpected;
    total.skipped += s.skipped;
  } else {
    exitCode = 1;
    total.failed += 1;
    console.error('playwright wrote no results');
  }
}

console.log(`\n${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(exitCode || (total.failed > 0 ? 1 : 0));
