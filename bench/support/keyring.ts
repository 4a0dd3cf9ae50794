// A throwaway Secret Service for a benchmark, as `npm test` has one: on Linux without a session
// bus, the benchmark runs itself again inside `dbus-run-session` with a gnome-keyring of its own
// (its own XDG_DATA_HOME, deleted afterwards), so the app's keychain store is the real one and
// the user's own keyring is never touched. Elsewhere, or without those tools, nothing happens.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MARK = 'VET_SCRIBE_BENCH_KEYRING';

function have(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

/** Runs `script` again inside a throwaway keyring and exits with its code, when that is possible. */
export function rerunInThrowawayKeyring(script: string, args: string[]): void {
  if (
    process.platform !== 'linux' ||
    process.env['DBUS_SESSION_BUS_ADDRESS'] ||
    process.env[MARK] ||
    !have('dbus-run-session') ||
    !have('gnome-keyring-daemon')
  ) {
    return;
  }
  const home = mkdtempSync(join(tmpdir(), 'vet-scribe-bench-keyring-'));
  const inner = `echo -n bench | XDG_DATA_HOME="$${MARK}" gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1; exec "$0" "$@"`;
  const r = spawnSync(
    'dbus-run-session',
    ['--', 'sh', '-c', inner, process.execPath, ...process.execArgv, script, ...args],
    {
      stdio: 'inherit',
      env: { ...process.env, [MARK]: home },
    },
  );
  rmSync(home, { recursive: true, force: true });
  process.exit(r.status ?? 1);
}
