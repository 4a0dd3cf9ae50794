// The drafts store on real files: saves, clears and a consult's removal land in the order they
// were asked for, whatever the disk's timing, and a key can never name a file outside the folder.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DraftStore } from '../../src/main/core/drafts.ts';

const CONSULT = '2026-11-26T09-15-00Z-a1b2c3';
const OTHER = '2026-11-26T09-40-00Z-d4e5f6';
const RUNS = 200;

let root: string;
let dir: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'vet-scribe-drafts-'));
  dir = join(root, 'drafts');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** The text on disk under `key`, or null when there is no draft file. */
function onDisk(key: string): string | null {
  const file = join(dir, `${key}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { text: string }).text : null;
}

// The older save is the larger one, so that unordered its write finishes last.
const older = (run: number) => `run ${run} older ${'x'.repeat(200_000)}`;
const newer = (run: number) => `run ${run} newer`;

describe('DraftStore order', () => {
  it(`leaves the newer text when two saves are asked for at once (${RUNS} runs)`, async () => {
    const store = new DraftStore(dir);
    const lost: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const [, second] = await Promise.all([store.put(CONSULT, older(run)), store.put(CONSULT, newer(run))]);
      expect(second?.text).toBe(newer(run));
      if (onDisk(CONSULT) !== newer(run) || (await store.get(CONSULT))?.text !== newer(run)) lost.push(run);
    }
    expect(lost, `runs that kept the older text: ${lost.length} of ${RUNS}`).toEqual([]);
  });

  it(`leaves no draft when a clear follows a save still being written (${RUNS} runs)`, async () => {
    const store = new DraftStore(dir);
    const left: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const key = run % 2 === 0 ? CONSULT : `${CONSULT}.document-7f3a9c21`;
      await Promise.all([store.put(key, older(run)), store.put(key, null)]);
      if (onDisk(key) !== null || (await store.get(key)) !== null) left.push(run);
    }
    expect(left, `runs that left a draft behind: ${left.length} of ${RUNS}`).toEqual([]);
  });

  it('reads a draft after the saves asked for before the read', async () => {
    const store = new DraftStore(dir);
    const save = store.put(CONSULT, older(1));
    const read = store.get(CONSULT);
    const clear = store.put(CONSULT, null);
    const readAfter = store.get(CONSULT);
    expect((await read)?.text).toBe(older(1));
    expect(await readAfter).toBeNull();
    await Promise.all([save, clear]);
  });

  it('still runs the calls after one that failed', async () => {
    const store = new DraftStore(dir);
    // A folder where the draft file should be makes its clear fail (rm of a folder, not recursive).
    const blocked = `${CONSULT}.document-0000`;
    mkdirSync(join(dir, `${blocked}.json`), { recursive: true });
    const failing = store.put(blocked, null);
    const after = store.put(CONSULT, 'kept');
    await expect(failing).rejects.toThrow();
    expect((await after)?.text).toBe('kept');
    expect(onDisk(CONSULT)).toBe('kept');
  });
});

describe('DraftStore.removeConsult', () => {
  const doc1 = `${CONSULT}.document-7f3a9c21`;
  const doc2 = `${CONSULT}.document-0b1c2d3e`;
  const otherDoc = `${OTHER}.document-7f3a9c21`;
  const tmpOf = (key: string) => `${key}.json.${randomUUID()}.tmp`;

  it("removes the consult's drafts, its documents' drafts and their temps, and no other consult's", async () => {
    const store = new DraftStore(dir);
    for (const key of [CONSULT, doc1, doc2, OTHER, otherDoc]) await store.put(key, `text of ${key}`);
    // As a write killed between its temp and the rename leaves them.
    const leftovers = [tmpOf(CONSULT), tmpOf(doc1), tmpOf(doc2), tmpOf(OTHER), tmpOf(otherDoc)];
    for (const name of leftovers) writeFileSync(join(dir, name), '{"text":"half');
    // A draft kept aside as unreadable is the vet's text: it is never deleted.
    writeFileSync(join(dir, `${CONSULT}.json.unreadable-1764148500000`), 'garbage');
    // A consult whose id starts like this one's is another consult.
    await store.put(`${CONSULT}0`, 'a longer id');

    await store.removeConsult(CONSULT);

    expect(readdirSync(dir).sort()).toEqual(
      [
        `${CONSULT}.json.unreadable-1764148500000`,
        `${CONSULT}0.json`,
        `${OTHER}.json`,
        `${otherDoc}.json`,
        leftovers[3],
        leftovers[4],
      ].sort(),
    );
    expect(await store.get(CONSULT)).toBeNull();
    expect(await store.get(doc1)).toBeNull();
    expect((await store.get(otherDoc))?.text).toBe(`text of ${otherDoc}`);
  });

  it('removes after the saves already asked for, and keeps a save asked for after it', async () => {
    const store = new DraftStore(dir);
    for (let run = 0; run < 20; run++) {
      const saves = [store.put(CONSULT, older(run)), store.put(doc1, older(run)), store.put(doc2, older(run))];
      const removal = store.removeConsult(CONSULT);
      const later = store.put(doc2, newer(run));
      await Promise.all([...saves, removal, later]);
      expect([onDisk(CONSULT), onDisk(doc1), onDisk(doc2)]).toEqual([null, null, newer(run)]);
      await store.removeConsult(CONSULT);
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it('does nothing when the folder was never made', async () => {
    await new DraftStore(dir).removeConsult(CONSULT);
    expect(existsSync(dir)).toBe(false);
  });
});

describe('DraftStore keys', () => {
  const unsafe = [
    '',
    '.',
    '..',
    '../outside',
    '..\\outside',
    'a/b',
    'a\\b',
    `${CONSULT}/..`,
    `${CONSULT}.document-../x`,
    `${CONSULT}.document-a/b`,
    'a..b',
    '.hidden',
    'C:outside',
    'a\u0000b',
  ];

  it.each(unsafe)('refuses %j and writes nothing', async (key) => {
    const store = new DraftStore(dir);
    await expect(store.put(key, 'text')).rejects.toThrow(/cannot name a draft/);
    await expect(store.get(key)).rejects.toThrow(/cannot name a draft/);
    await expect(store.removeConsult(key)).rejects.toThrow();
    expect(readdirSync(root)).toEqual([]);
  });

  it('refuses a document key where a consult is asked for', async () => {
    await expect(new DraftStore(dir).removeConsult(`${CONSULT}.document-7f3a9c21`)).rejects.toThrow(/is not a consult/);
  });
});
