// The drafts store on real files: saves, clears and a consult's removal land in the order they
// were asked for, whatever the disk's timing, and a key can never name a file outside the folder.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { draftFileName, DraftStore } from '../../../../src/main/core/consults/drafts.ts';
import { folderEachTest } from '../support.ts';

const CONSULT = '2026-11-26T09-15-00Z-a1b2c3';
const OTHER = '2026-11-26T09-40-00Z-d4e5f6';
const RUNS = 200;
/** The vet whose drafts these are. */
const VET = { userId: '6f1c0a52-demo-vet', name: 'Dr. Demo Vet', recordedIt: false };
const file = (key: string) => draftFileName(key, VET.userId);

const folder = folderEachTest('vet-scribe-drafts-', 'drafts');

/** The text on disk under `key`, or null when there is no draft file. */
function onDisk(key: string): string | null {
  const path = join(folder.dir, file(key));
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as { text: string }).text : null;
}

// The older save is the larger one, so that unordered its write finishes last.
const older = (run: number) => `run ${run} older ${'x'.repeat(200_000)}`;
const newer = (run: number) => `run ${run} newer`;

describe('DraftStore order', () => {
  it(`leaves the newer text when two saves are asked for at once (${RUNS} runs)`, async () => {
    const store = new DraftStore(folder.dir);
    const lost: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const [, second] = await Promise.all([store.put(CONSULT, VET, older(run)), store.put(CONSULT, VET, newer(run))]);
      expect(second?.text).toBe(newer(run));
      if (onDisk(CONSULT) !== newer(run) || (await store.get(CONSULT, VET))?.text !== newer(run)) lost.push(run);
    }
    expect(lost, `runs that kept the older text: ${lost.length} of ${RUNS}`).toEqual([]);
  });

  it(`leaves no draft when a clear follows a save still being written (${RUNS} runs)`, async () => {
    const store = new DraftStore(folder.dir);
    const left: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const key = run % 2 === 0 ? CONSULT : `${CONSULT}.document-7f3a9c21`;
      await Promise.all([store.put(key, VET, older(run)), store.put(key, VET, null)]);
      if (onDisk(key) !== null || (await store.get(key, VET)) !== null) left.push(run);
    }
    expect(left, `runs that left a draft behind: ${left.length} of ${RUNS}`).toEqual([]);
  });

  it('reads a draft after the saves asked for before the read', async () => {
    const store = new DraftStore(folder.dir);
    const save = store.put(CONSULT, VET, older(1));
    const read = store.get(CONSULT, VET);
    const clear = store.put(CONSULT, VET, null);
    const readAfter = store.get(CONSULT, VET);
    expect((await read)?.text).toBe(older(1));
    expect(await readAfter).toBeNull();
    await Promise.all([save, clear]);
  });

  it('still runs the calls after one that failed', async () => {
    const store = new DraftStore(folder.dir);
    // A folder where the draft file should be makes its clear fail (rm of a folder, not recursive).
    const blocked = `${CONSULT}.document-0000`;
    mkdirSync(join(folder.dir, file(blocked)), { recursive: true });
    const failing = store.put(blocked, VET, null);
    const after = store.put(CONSULT, VET, 'kept');
    await expect(failing).rejects.toThrow();
    expect((await after)?.text).toBe('kept');
    expect(onDisk(CONSULT)).toBe('kept');
  });
});

describe('DraftStore.removeConsult', () => {
  const doc1 = `${CONSULT}.document-7f3a9c21`;
  const doc2 = `${CONSULT}.document-0b1c2d3e`;
  const otherDoc = `${OTHER}.document-7f3a9c21`;
  const tmpOf = (key: string) => `${file(key)}.${randomUUID()}.tmp`;

  it("removes the consult's drafts, its documents' drafts and their temps, and no other consult's", async () => {
    const store = new DraftStore(folder.dir);
    for (const key of [CONSULT, doc1, doc2, OTHER, otherDoc]) await store.put(key, VET, `text of ${key}`);
    // As a write killed between its temp and the rename leaves them.
    const leftovers = [tmpOf(CONSULT), tmpOf(doc1), tmpOf(doc2), tmpOf(OTHER), tmpOf(otherDoc)];
    for (const name of leftovers) writeFileSync(join(folder.dir, name), '{"text":"half');
    // A draft kept aside as unreadable is the vet's text: it is never deleted.
    writeFileSync(join(folder.dir, `${CONSULT}.json.unreadable-1764148500000`), 'garbage');
    // A consult whose id starts like this one's is another consult.
    await store.put(`${CONSULT}0`, VET, 'a longer id');

    await store.removeConsult(CONSULT);

    expect(readdirSync(folder.dir).sort()).toEqual(
      [
        `${CONSULT}.json.unreadable-1764148500000`,
        file(`${CONSULT}0`),
        file(OTHER),
        file(otherDoc),
        leftovers[3],
        leftovers[4],
      ].sort(),
    );
    expect(await store.get(CONSULT, VET)).toBeNull();
    expect(await store.get(doc1, VET)).toBeNull();
    expect((await store.get(otherDoc, VET))?.text).toBe(`text of ${otherDoc}`);
  });

  it('removes after the saves already asked for, and keeps a save asked for after it', async () => {
    const store = new DraftStore(folder.dir);
    for (let run = 0; run < 20; run++) {
      const saves = [
        store.put(CONSULT, VET, older(run)),
        store.put(doc1, VET, older(run)),
        store.put(doc2, VET, older(run)),
      ];
      const removal = store.removeConsult(CONSULT);
      const later = store.put(doc2, VET, newer(run));
      await Promise.all([...saves, removal, later]);
      expect([onDisk(CONSULT), onDisk(doc1), onDisk(doc2)]).toEqual([null, null, newer(run)]);
      await store.removeConsult(CONSULT);
    }
    expect(readdirSync(folder.dir)).toEqual([]);
  });

  it('does nothing when the folder was never made', async () => {
    await new DraftStore(folder.dir).removeConsult(CONSULT);
    expect(existsSync(folder.dir)).toBe(false);
  });
});

describe('DraftStore vets', () => {
  const colleague = { userId: '9b2e7d10-colleague', name: 'Dr. Colleague Vet', recordedIt: false };
  const recorder = { ...VET, recordedIt: true };

  it("keeps each vet's draft of the same note apart: one's clear leaves the other's", async () => {
    const store = new DraftStore(folder.dir);
    await store.put(CONSULT, VET, 'the demo vet’s');
    expect(await store.get(CONSULT, colleague)).toBeNull();
    // Whose, not what; and not one's own.
    expect(await store.othersEditing(CONSULT, colleague, null)).toEqual(['Dr. Demo Vet']);
    expect(await store.othersEditing(CONSULT, VET, null)).toEqual([]);
    expect(await store.othersEditing(`${CONSULT}.document-7f3a9c21`, colleague, null)).toEqual([]);
    await store.put(CONSULT, colleague, 'the colleague’s');
    await store.put(CONSULT, colleague, null);
    expect((await store.get(CONSULT, VET))?.text).toBe('the demo vet’s');
    expect(await store.get(CONSULT, colleague)).toBeNull();
  });

  it("names a vet's file by a hash of their user id: no e-mail, no path", async () => {
    const store = new DraftStore(folder.dir);
    for (const userId of ['dr.demo@vetscribe.test', '../../outside', 'a/b\\c:d'])
      await store.put(CONSULT, { userId, name: userId, recordedIt: false }, `by ${userId}`);
    expect(readdirSync(folder.root)).toEqual(['drafts']);
    const names = readdirSync(folder.dir);
    expect(names).toHaveLength(3);
    for (const name of names) expect(name).toMatch(new RegExp(`^${CONSULT}\\+[0-9a-f]{16}\\.json$`));
    await expect(store.put(CONSULT, { userId: '', name: '', recordedIt: false }, 'no one')).rejects.toThrow(
      /needs the vet/,
    );
  });

  it('gives a draft an older version wrote (no vet in its name) to the vet who recorded the consult alone', async () => {
    const store = new DraftStore(folder.dir);
    mkdirSync(folder.dir);
    const older = join(folder.dir, draftFileName(CONSULT, null));
    writeFileSync(older, JSON.stringify({ text: 'older', savedAt: '2026-11-26T09:20:00.000Z' }));
    expect(await store.get(CONSULT, colleague)).toBeNull();
    expect(await store.othersEditing(CONSULT, colleague, 'Dr. Demo Vet')).toEqual(['Dr. Demo Vet']);
    expect(await store.othersEditing(CONSULT, recorder, 'Dr. Demo Vet')).toEqual([]);
    await store.put(CONSULT, colleague, null);
    expect(existsSync(older)).toBe(true);
    expect((await store.get(CONSULT, recorder))?.text).toBe('older');
    // Their own draft, once they have one, is the one they see; the older one is then gone.
    await store.put(CONSULT, recorder, 'newer');
    expect(existsSync(older)).toBe(false);
    expect((await store.get(CONSULT, recorder))?.text).toBe('newer');
  });

  it("removeConsult removes every vet's drafts and the older ones", async () => {
    const store = new DraftStore(folder.dir);
    await store.put(CONSULT, VET, 'one');
    await store.put(`${CONSULT}.document-7f3a9c21`, colleague, 'two');
    await store.put(OTHER, colleague, 'another consult');
    writeFileSync(
      join(folder.dir, draftFileName(CONSULT, null)),
      '{"text":"older","savedAt":"2026-11-26T09:20:00.000Z"}',
    );
    await store.removeConsult(CONSULT);
    expect(readdirSync(folder.dir)).toEqual([draftFileName(OTHER, colleague.userId)]);
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
    const store = new DraftStore(folder.dir);
    await expect(store.put(key, VET, 'text')).rejects.toThrow(/cannot name a draft/);
    await expect(store.get(key, VET)).rejects.toThrow(/cannot name a draft/);
    await expect(store.removeConsult(key)).rejects.toThrow();
    expect(readdirSync(folder.root)).toEqual([]);
  });

  it('refuses a document key where a consult is asked for', async () => {
    await expect(new DraftStore(folder.dir).removeConsult(`${CONSULT}.document-7f3a9c21`)).rejects.toThrow(
      /is not a consult/,
    );
  });
});
