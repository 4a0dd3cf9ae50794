// A process killed (SIGKILL) while writing a draft leaves a temp holding the note's text beside
// the last good draft. The sweep at start removes the temp and leaves that draft readable.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { removeLeftoverTemps, tempTarget } from '../../../../src/main/core/platform/atomic-file.ts';
import { draftFileName, DraftStore } from '../../../../src/main/core/consults/drafts.ts';
import { folderEachTest } from '../support.ts';

const CHILD = join(import.meta.dirname, '../../../support/drafts-writer-child.ts');
const KEY = '2026-11-26T09-15-00Z-a1b2c3.document-7f3a9c21';
const TRIES = 60;
// The vet the writer types as (support/drafts-writer-child.ts).
const VET = { userId: '6f1c0a52-demo-vet', name: 'Dr. Demo Vet', recordedIt: false };
const FILE = draftFileName(KEY, VET.userId);

const folder = folderEachTest('vet-scribe-drafts-crash-', 'drafts');

/**
 * Starts the writer, waits for its first save to be on disk, lets it go on a few milliseconds and
 * kills it. Resolves with the last save it reported.
 */
async function writeAndKill(pause: number): Promise<number> {
  const child = spawn(process.execPath, [CHILD, folder.dir, KEY, VET.userId], { stdio: ['ignore', 'pipe', 'inherit'] });
  let saved = 0;
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const first = new Promise<void>((resolve, reject) => {
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      const lines = out.split('\n').filter(Boolean);
      saved = Number(lines.at(-1)?.split(' ')[1] ?? 0);
      if (saved > 0) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the writer exited (${code}) before its first save`)));
  });
  await first;
  await sleep(pause);
  child.kill('SIGKILL');
  await exited;
  return saved;
}

const temps = () => (existsSync(folder.dir) ? readdirSync(folder.dir) : []).filter((name) => tempTarget(name) !== null);

describe('drafts after a kill mid-write', () => {
  it('sweep() removes the temp a SIGKILL left and keeps the last good draft readable', async () => {
    let lastReported: number;
    let tries = 0;
    do {
      if (++tries > TRIES) throw new Error(`no kill in ${TRIES} tries landed mid-write`);
      rmSync(folder.dir, { recursive: true, force: true });
      // A different pause each try, so the kill falls at a different point of a save.
      lastReported = await writeAndKill(tries % 7);
    } while (!temps().some((name) => readFileSync(join(folder.dir, name)).length > 0));
    const left = temps();
    expect(left.every((name) => tempTarget(name) === FILE)).toBe(true);
    const leftBytes = left.reduce((sum, name) => sum + readFileSync(join(folder.dir, name)).length, 0);
    const unreadable = `${FILE}.unreadable-1764148500000`;
    writeFileSync(join(folder.dir, unreadable), 'kept aside');

    const store = new DraftStore(folder.dir);
    expect((await store.sweep()).sort()).toEqual(left.sort());

    expect(temps()).toEqual([]);
    expect(readdirSync(folder.dir).sort()).toEqual([FILE, unreadable].sort());
    const draft = await store.get(KEY, VET);
    const n = Number(/^note (\d+)\n/.exec(draft?.text ?? '')?.[1]);
    // Whole (both ends of one save) and no older than the last save the writer saw confirmed.
    expect(draft?.text.endsWith(`end ${n}`)).toBe(true);
    expect(n).toBeGreaterThanOrEqual(lastReported);
    expect(draft?.text.length).toBeGreaterThan(400_000);
    console.log(
      `drafts crash: ${tries} kill(s) to leave ${left.length} temp(s) of ${leftBytes} bytes; draft ${n} kept (last confirmed ${lastReported})`,
    );
  }, 30_000);

  it('sweep() does not take the temp of a save in flight', async () => {
    const store = new DraftStore(folder.dir);
    for (let run = 0; run < 20; run++) {
      const text = `save ${run} ${'y'.repeat(300_000)}`;
      const [saved] = await Promise.all([store.put(KEY, VET, text), store.sweep()]);
      expect(saved?.text).toBe(text);
      expect((await store.get(KEY, VET))?.text).toBe(text);
    }
    expect(temps()).toEqual([]);
  });

  it('removeLeftoverTemps() removes only the temps of writeJsonAtomic', async () => {
    expect(await removeLeftoverTemps(folder.dir)).toEqual([]);
    mkdirSync(folder.dir);
    const kept = ['settings.json', 'settings.json.unreadable-1764148500000', 'notes.tmp', 'job.json.not-a-uuid.tmp'];
    const removed = [
      'settings.json.0f8fad5b-d9cb-469f-a165-70867728950e.tmp',
      'job.json.7c9e6679-7425-40de-944b-e07fc1f90ae7.tmp',
    ];
    for (const name of [...kept, ...removed]) writeFileSync(join(folder.dir, name), '{}');
    expect((await removeLeftoverTemps(folder.dir)).sort()).toEqual(removed.sort());
    expect(readdirSync(folder.dir).sort()).toEqual(kept.sort());
    expect(existsSync(join(folder.dir, 'settings.json'))).toBe(true);
  });
});
