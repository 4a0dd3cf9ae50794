// The engine's start on a clinic's years of consults: `AppCore.start()` (settings, recovery of
// recordings cut short, the consults cache, the embedded sandbox, the session, the jobs) timed
// in this process on a data folder of generated consults, for each source given (a baseline
// commit and this tree), the sources taking turns run by run on copies of one folder.
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as CoreModuleShape from '../../src/main/core/app-core.ts';
import type * as SecretModuleShape from '../../src/main/core/sign-in/secret-store.ts';
import type * as EmbeddedModuleShape from '../../src/main/embedded-sandbox.ts';
import { generateConsults, writeDataFolder } from './consult-data.ts';
import { progress, type Report } from './report.ts';
import type { Source } from './source-at.ts';
import { fixed, median, percentile, verdict } from './stats.ts';

export const ENGINE_GOAL_MS = 1000;

/** The secret store's module in a source tree: in sign-in/ now, at the engine's root before. */
export function secretStoreModule(root: string): string {
  const now = join(root, 'src/main/core/sign-in/secret-store.ts');
  return existsSync(now) ? now : join(root, 'src/main/core/sign-in/secret-store.ts');
}

/**
 * The recordings' folders of a copy made as old as the originals: the copy keeps the files' times
 * but not the folders', and a folder's time says when its consult last changed (the engine's index
 * of consults checks each folder by it), so a copy would otherwise look like consults all changed now.
 */
function keepFolderTimes(from: string, to: string): void {
  for (const id of readdirSync(join(from, 'recordings'))) {
    for (const sub of [join('recordings', id, 'documents'), join('recordings', id)]) {
      const times = statSync(join(from, sub), { throwIfNoEntry: false });
      if (times) utimesSync(join(to, sub), times.atime, times.mtime);
    }
  }
}

/** One engine started on a copy of the data folder; answers the time `start()` took, in ms. */
async function startOnce(
  source: Source,
  dataDir: string,
  ids: readonly string[],
): Promise<{ ms: number; consults: number }> {
  const { AppCore } = (await import(
    pathToFileURL(join(source.root, 'src/main/core/app-core.ts')).href
  )) as typeof CoreModuleShape;
  const { MemorySecretStore } = (await import(
    pathToFileURL(secretStoreModule(source.root)).href
  )) as typeof SecretModuleShape;
  const embeddedPath = join(source.root, 'src/main/embedded-sandbox.ts');
  const embeddedService = existsSync(embeddedPath)
    ? ((await import(pathToFileURL(embeddedPath).href)) as typeof EmbeddedModuleShape).embeddedSandbox()
    : undefined;
  const core = new AppCore({
    dataDir,
    secretStore: new MemorySecretStore(),
    app: { name: 'Vet Scribe', version: 'bench' },
    audioUrl: (id: string) => id,
    ...(embeddedService ? { embeddedService } : {}),
  });
  const began = performance.now();
  await core.start();
  const ms = performance.now() - began;
  // The consults the engine holds after its start: every one on disk, or the run measured nothing.
  const consults = ids.filter((id) => core.recordings.peek(id) !== undefined).length;
  await core.stop();
  return { ms, consults };
}

export async function engineStart(
  report: Report,
  sources: readonly { label: string; source: Source }[],
  options: { consults: number; runs: number; seed: number },
): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'vet-scribe-bench-engine-start-'));
  try {
    const pristine = join(work, 'data');
    const generated = generateConsults(options.consults, { seed: options.seed, now: Date.now() });
    const ids = generated.map((c) => c.meta.id);
    const summary = writeDataFolder(pristine, generated);
    const folders = sources.map((_, i) => {
      const dir = join(work, `engine-${i}`);
      cpSync(pristine, dir, { recursive: true, preserveTimestamps: true });
      keepFolderTimes(pristine, dir);
      return dir;
    });
    const times = sources.map(() => [] as number[]);
    // The warm-up start is the first on its folder: an engine that keeps an index of its consults
    // reads every folder then and writes the index at its stop, as after an upgrade.
    const first = sources.map(() => Number.NaN);
    const seen = sources.map(() => 0);
    // Round 0 warms the module cache and the disk cache for every source; it is not counted.
    for (let round = 0; round <= options.runs; round++) {
      const order = round % 2 === 0 ? sources.map((_, i) => i) : sources.map((_, i) => i).reverse();
      for (const i of order) {
        const { ms, consults } = await startOnce(sources[i]!.source, folders[i]!, ids);
        if (round > 0) times[i]!.push(ms);
        else first[i] = ms;
        seen[i] = consults;
      }
      progress(
        `engine start ${round === 0 ? 'warm-up' : `round ${round}/${options.runs}`}: ${sources.map((s, i) => `${s.label} ${fixed(round === 0 ? first[i]! : times[i]!.at(-1)!)} ms`).join(', ')}`,
      );
    }
    report.add(`## (c) The engine's start at ${options.consults.toLocaleString('en-GB')} consults

- ${sources.map(({ label, source }) => `${label}: ${source.commit} — "${source.subject}"`).join('\n- ')}
- ${summary.consults.toLocaleString('en-GB')} consults written to a data folder in the app's own files (\`bench/support/consult-data.ts\`, seed ${options.seed}), ${fixed(summary.bytesOnDisk / 1e6, 1)} MB; each source starts on its own copy, so the page cache is as warm for one as for the other
- \`AppCore.start()\` in this process, timed from the call to its return (what the window waits for): settings, recovery of recordings cut short, the consults cache, the embedded sandbox, the session, the jobs; then \`stop()\`. One warm-up start per source that is not counted, then ${options.runs} starts each, the sources taking turns (the order reversed every round)`);
    report.table(
      ['source', 'consults held', 'start, median ms', 'p95 ms', 'min–max ms', `goal ≤ ${ENGINE_GOAL_MS} ms (median)`],
      sources.map(({ label }, i) => [
        label,
        seen[i]!,
        fixed(median(times[i]!)),
        fixed(percentile(times[i]!, 95)),
        `${fixed(Math.min(...times[i]!))}–${fixed(Math.max(...times[i]!))}`,
        label === 'this tree' ? verdict(median(times[i]!) <= ENGINE_GOAL_MS) : '—',
      ]),
    );
    report.add(
      `Every start (ms):\n\n${sources.map(({ label }, i) => `- ${label}: ${times[i]!.map((t) => fixed(t)).join(', ')}`).join('\n')}`,
    );
    report.add(
      `The warm-up start, the first on its copy of the folder (with no index of the consults yet, as after an upgrade; not counted above): ${sources.map(({ label }, i) => `${label} ${fixed(first[i]!)} ms`).join(', ')}.`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
