// The app's source as it was at another commit, to measure it beside the working tree in the
// same run (same machine, same load, same data): `git archive` of `src` into a temporary
// folder that borrows this checkout's node_modules, and the window built from it with the
// settings of scripts/build-renderer.ts.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { build } from 'vite';

export const ROOT = resolve(import.meta.dirname, '../..');

function git(args: string[]): string {
  const r = spawnSync('git', ['-C', ROOT, ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

export interface Source {
  /** A folder holding `src` (and a node_modules link) as at `commit`; the checkout itself for the working tree. */
  root: string;
  /** Short hash, or "working tree". */
  commit: string;
  /** The commit's subject line, for the report. */
  subject: string;
  close(): void;
}

export function workingTree(): Source {
  const dirty = git(['status', '--porcelain', '--', 'src']).length > 0;
  return {
    root: ROOT,
    commit: `working tree at ${git(['rev-parse', '--short', 'HEAD'])}${dirty ? ' (with changes not committed)' : ''}`,
    subject: git(['log', '-1', '--format=%s']),
    close: () => undefined,
  };
}

export function sourceAt(rev: string): Source {
  const commit = git(['rev-parse', '--short', `${rev}^{commit}`]);
  const root = mkdtempSync(join(tmpdir(), 'vet-scribe-bench-source-'));
  const tar = join(root, 'src.tar');
  git(['archive', '--output', tar, commit, 'src', ':(glob)tsconfig*.json']);
  const x = spawnSync('tar', ['-xf', tar, '-C', root], { encoding: 'utf8' });
  if (x.status !== 0) throw new Error(`tar failed: ${x.stderr}`);
  rmSync(tar);
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
  return {
    root,
    commit,
    subject: git(['log', '-1', '--format=%s', commit]),
    close: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** The window of `source`, built into `outDir` as scripts/build-renderer.ts builds it; answers the build's wall time in ms. */
export async function buildWindow(source: Source, outDir: string): Promise<number> {
  const began = performance.now();
  await build({
    root: join(source.root, 'src/renderer'),
    base: './',
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir, emptyOutDir: true, minify: true },
  });
  return performance.now() - began;
}
