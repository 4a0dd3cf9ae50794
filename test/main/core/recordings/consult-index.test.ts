// The consults' index (recordings/consult-index.ts): one file a start reads instead of every
// consult's folder. It is a cache: whatever it holds or misses, a start shows what the folders
// hold. Real engines on a folder of consults in the app's own files (bench/support/consult-data.ts),
// each folder last changed when its consult was, as on a clinic's PC; one sandbox for the file.
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.ts';
import { generateConsults, writeDataFolder } from '../../../../bench/support/consult-data.ts';
import { startCoreAgainst, tempDir } from '../../../support/core.ts';

const CONSULTS = 30;
let sandbox: Sandbox;
/** The consults written, and one more, kept out of the data folder to be written later as an older version would. */
// Made up to a day ago, so every folder changed well before any index of the test is taken.
const generated = generateConsults(CONSULTS + 1, { seed: 7, now: Date.now() - 86_400_000 });
const folders: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ rateLimitPerMinute: 0 });
});
afterAll(async () => {
  await sandbox.close();
  for (const f of folders) rmSync(f, { recursive: true, force: true });
});

/** A data folder of the consults, in the app's own files, each folder last changed when its consult was. */
function dataFolder(): string {
  const dir = tempDir('vet-scribe-index-');
  folders.push(dir);
  writeDataFolder(dir, generated.slice(0, CONSULTS));
  return dir;
}

const start = (dataDir: string, indexDelayMs?: number): Promise<AppCore<Sandbox>> =>
  startCoreAgainst(sandbox, { dataDir, ...(indexDelayMs === undefined ? {} : { indexDelayMs }) });

/** What the window would list: each consult's id, patient, state and note, newest first. */
const listed = (core: AppCore) =>
  core.cache.all().map((c) => `${c.recording.id} ${c.recording.patientName} ${c.stage} ${String(c.job?.hasNote)}`);

const indexPath = (dataDir: string) => join(dataDir, 'consults-index.json');
interface IndexFile {
  format: number;
  entries: { id: string; meta: { patientName: string | null } }[];
}
const readIndexFile = (dataDir: string) => JSON.parse(readFileSync(indexPath(dataDir), 'utf8')) as IndexFile;

/** Rewrites a consult's meta.json as the app writes it: beside it, then renamed into place. */
function rewriteMeta(dataDir: string, id: string, change: Record<string, unknown>): void {
  const file = join(dataDir, 'recordings', id, 'meta.json');
  const meta = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(`${file}.tmp`, JSON.stringify({ ...meta, ...change }));
  renameSync(`${file}.tmp`, file);
}

async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`gave up waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("the consults' index", () => {
  it('is written at stop, and a start takes from it what its folders still hold', async () => {
    const dataDir = dataFolder();
    const first = await start(dataDir);
    const shown = listed(first);
    expect(shown).toHaveLength(CONSULTS);
    await first.stop();
    const index = readIndexFile(dataDir);
    expect(index.entries.map((e) => e.id).sort()).toEqual(
      first.cache
        .all()
        .map((c) => c.recording.id)
        .sort(),
    );

    // What the index holds of a folder left as it was is used as it is (the start reads no folder
    // for it); a folder changed since is read again, whatever the index says of it.
    const [kept, changed] = index.entries;
    kept!.meta.patientName = 'Only in the index';
    changed!.meta.patientName = 'Only in the index too';
    writeFileSync(indexPath(dataDir), JSON.stringify(index));
    rewriteMeta(dataDir, changed!.id, { patientName: 'Changed on disk' });
    const second = await start(dataDir);
    expect(second.recordings.peek(kept!.id)?.patientName).toBe('Only in the index');
    expect(second.recordings.peek(changed!.id)?.patientName).toBe('Changed on disk');
    await second.stop();
  });

  it('is read from the folders again when it is missing, damaged or of another format', async () => {
    const dataDir = dataFolder();
    const first = await start(dataDir);
    const shown = listed(first);
    await first.stop();
    const whole = readFileSync(indexPath(dataDir), 'utf8');
    for (const [what, text] of [
      ['damaged', whole.slice(0, whole.length / 2)],
      ['of another format', JSON.stringify({ ...(JSON.parse(whole) as object), format: 99, entries: [] })],
      ['missing', null],
    ] as const) {
      if (text === null) rmSync(indexPath(dataDir));
      else writeFileSync(indexPath(dataDir), text);
      const again = await start(dataDir);
      expect(listed(again), what).toEqual(shown);
      await again.stop();
      // Written again whole at stop.
      expect(readIndexFile(dataDir).entries, what).toHaveLength(CONSULTS);
    }
  });

  it('shows a consult an older version wrote (its folder only) and never one deleted since', async () => {
    const dataDir = dataFolder();
    const first = await start(dataDir);
    await first.stop();
    // An older version of the app, which knows nothing of the index, records one consult and
    // deletes another.
    const older = generated[CONSULTS];
    writeDataFolder(dataDir, [older!]);
    const deleted = readIndexFile(dataDir).entries[3]!.id;
    rmSync(join(dataDir, 'recordings', deleted), { recursive: true });

    const again = await start(dataDir);
    const ids = again.cache.all().map((c) => c.recording.id);
    expect(ids).toContain(older!.meta.id);
    expect(ids).not.toContain(deleted);
    expect(again.pipeline.info(older!.meta.id)?.state).toBe(older!.job?.state);
    await again.stop();
    const index = readIndexFile(dataDir).entries.map((e) => e.id);
    expect(index).toContain(older!.meta.id);
    expect(index).not.toContain(deleted);
  });

  it("follows the engine's changes: a consult made, renamed or deleted", async () => {
    const dataDir = dataFolder();
    const core = await start(dataDir, 50);
    const [renamed, deleted] = core.cache.all().map((c) => c.recording.id);
    await core.recordings.update(renamed!, { patientName: 'Renamed by the vet' });
    await core.recordings.delete(deleted!);
    const made = await core.recordings.start({ mimeType: 'audio/webm;codecs=opus', patientName: 'Made today' });
    await core.recordings.finish(made.id);
    // Written again once the changes pause, without waiting for a stop.
    await until(() => {
      try {
        const entries = readIndexFile(dataDir).entries;
        return entries.some((e) => e.id === made.id) && !entries.some((e) => e.id === deleted);
      } catch {
        return false;
      }
    }, 'the index to follow the changes');
    const entries = new Map(readIndexFile(dataDir).entries.map((e) => [e.id, e]));
    expect(entries.get(renamed!)?.meta.patientName).toBe('Renamed by the vet');
    const shown = listed(core);
    await core.stop();

    const again = await start(dataDir);
    expect(listed(again)).toEqual(shown);
    await again.stop();
  });

  it('loses nothing to a crash between writes: a temp file left, a change the index never heard of', async () => {
    const dataDir = dataFolder();
    const first = await start(dataDir);
    await first.stop();
    const before = readFileSync(indexPath(dataDir), 'utf8');

    // A change written to the folder, then a kill before the index was written again: the index
    // on disk is the one from before the change, with a half-written one beside it.
    const second = await start(dataDir);
    const [id] = second.cache.all().map((c) => c.recording.id);
    await second.recordings.update(id!, { patientName: 'Renamed before the kill' });
    const shown = listed(second);
    await second.stop();
    writeFileSync(indexPath(dataDir), before);
    const temp = `${indexPath(dataDir)}.0b9d6c1e-5f3a-4c2b-9a8e-7d6f5e4c3b2a.tmp`;
    writeFileSync(temp, before.slice(0, 100));

    const third = await start(dataDir);
    expect(listed(third)).toEqual(shown);
    expect(third.recordings.peek(id!)?.patientName).toBe('Renamed before the kill');
    expect(existsSync(temp)).toBe(false);
    await third.stop();
  });
});
