// Builds the window once for the whole run into its own folder, so the suite works on a fresh
// checkout and never races another build of out/renderer.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

export const RENDERER_DIR = resolve(import.meta.dirname, '../../test-results/e2e-renderer');

export default function globalSetup(): void {
  const root = resolve(import.meta.dirname, '../..');
  const r = spawnSync(process.execPath, ['scripts/build-renderer.ts', RENDERER_DIR], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`building the window failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
}
