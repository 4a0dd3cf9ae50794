// Global setup of the `electron` target, run once before any test when that project was asked
// for (`--project electron`): builds the app into out/ with electron-vite, or, where the
// target cannot run, prints the one line that says why (its tests are then skipped).
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { electronTarget } from './electron-binary.ts';

const ROOT = resolve(import.meta.dirname, '../../..');

/** The project names given with --project on the command line; null when none were. */
export function requestedProjects(argv: readonly string[]): string[] | null {
  const names: string[] = [];
  let seen = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg.startsWith('--project=')) {
      seen = true;
      names.push(arg.slice('--project='.length));
    } else if (arg === '--project') {
      seen = true;
      // The option takes several names: `--project browser electron`.
      while (i + 1 < argv.length && !(argv[i + 1] ?? '-').startsWith('-')) names.push(argv[++i] ?? '');
    }
  }
  return seen ? names : null;
}

/** Whether this run includes the `electron` project, which runs only when asked for by name. */
export function electronRequested(argv: readonly string[] = process.argv): boolean {
  const names = requestedProjects(argv);
  if (!names) return false;
  return names.some((name) =>
    new RegExp(
      `^${name
        .toLowerCase()
        .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')}$`,
    ).test('electron'),
  );
}

export default function electronSetup(): void {
  if (!electronRequested()) return;
  const target = electronTarget();
  if (!target.ok) {
    console.log(target.reason);
    return;
  }
  const r = spawnSync(join(ROOT, 'node_modules', '.bin', 'electron-vite'), ['build', '--logLevel', 'warn'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`electron-vite build failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
}
