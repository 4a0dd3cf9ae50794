// What the recordings' tests share besides the audio (audio-fixture.ts): a recordings folder of
// each test's own with a clock the test moves, the store opened on them, a recording of Bella
// fed the fixture, and the Refusal a call ends with.
import { expect, beforeEach } from 'vitest';
import { Refusal } from '../../../../src/main/core/platform/index.ts';
import { RecordingStore, type RecordingMeta } from '../../../../src/main/core/recordings/index.ts';
import { folderEachTest } from '../support.ts';
import { chunk, chunks, MIME } from './audio-fixture.ts';

/** The temporary folder of the test under way, and the recordings folder in it (`<folder>/recordings`). */
export let folder = '';
export let dir = '';
let clock = 0;
/** The stores' clock: it stands still until the test moves it. */
export const now = () => clock;
/** Moves the clock on. */
export const advance = (ms: number) => {
  clock += ms;
};

/** Gives each test of the file that calls this a new, empty folder and the clock at 2026-11-21T10:15:02.250Z. */
export function freshFolderEachTest(): void {
  const made = folderEachTest('vet-scribe-rec-', 'recordings');
  beforeEach(() => {
    folder = made.root;
    dir = made.dir;
    clock = Date.parse('2026-11-21T10:15:02.250Z');
  });
}

/**
 * A store on the test's folder and clock, as a launch of the app opens it: a second one on the
 * same folder is the next launch. `log` is where it writes what it found, when a test reads it.
 */
export function openStore(log?: (line: string) => void): RecordingStore {
  return new RecordingStore({ dir, now, ...(log ? { log } : {}) });
}

/** A recording of Bella started and fed its first `count` chunks (all unless told), a second apart, not finished. */
export async function recordAll(store: RecordingStore, count = chunks.length): Promise<RecordingMeta> {
  let meta = await store.start({ mimeType: MIME, label: 'Bella', templateId: 'tpl_1' });
  for (let i = 0; i < count; i++) {
    advance(1000);
    meta = await store.appendChunk(meta.id, i, chunk(i), (i + 1) * 1000 - 20);
  }
  return meta;
}

/** The Refusal a call ends with; fails the test if it ends otherwise. */
export async function rejection(p: Promise<unknown>): Promise<Refusal> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(Refusal);
    return e as Refusal;
  }
  throw new Error('expected the call to fail');
}
