// What the recordings store finds at the next launch after a crash (src/main/core/recordings/recovery.ts),
// on real files in a temp folder fed with the real MediaRecorder chunks: a recording never
// finished, a chunk half written, a meta deleted, damaged or a chunk behind, temp files left, and
// a visit's other pet half put together.
import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordingMeta } from '../../../../src/main/core/recordings/index.ts';
import { chunk, chunks, expectWholeLength, ffprobeMs, manifest, MIME, raw, rawHeadSize } from './audio-fixture.ts';
import { advance, dir, freshFolderEachTest, openStore, recordAll, rejection } from './support.ts';

freshFolderEachTest();

describe('RecordingStore after a crash', () => {
  it('recovers a recording that was never finished, with its Duration written', async () => {
    const before = openStore();
    const meta = await recordAll(before);
    // The process dies here: no finish. A new store is what the next launch creates.
    advance(60_000);
    const after = openStore();
    const recovered = await after.recoverUnfinished();
    expect(recovered).toHaveLength(1);
    const [r] = recovered as [RecordingMeta];
    expect(r).toMatchObject({
      id: meta.id,
      state: 'recovered',
      durationFixed: true,
      label: 'Bella',
      templateId: 'tpl_1',
      finishedAt: null,
    });
    expectWholeLength(r.durationMs, after.audioPath(meta.id));
    expect(r.bytes).toBe(statSync(after.audioPath(meta.id)).size);

    // Recovered once only; then a finish accepts it without rewriting the audio again.
    expect(await after.recoverUnfinished()).toEqual([]);
    const audio = readFileSync(after.audioPath(meta.id));
    const done = await after.finish(meta.id);
    expect(done).toMatchObject({ state: 'finished', durationFixed: true, durationMs: r.durationMs });
    expect(readFileSync(after.audioPath(meta.id)).equals(audio)).toBe(true);
  });

  it('recovers a recording whose last chunk was only half written', async () => {
    const before = openStore();
    const meta = await recordAll(before, chunks.length - 1);
    const last = chunk(chunks.length - 1);
    appendFileSync(before.audioPath(meta.id), last.subarray(0, Math.floor(last.length / 2)));
    const onDisk = readFileSync(before.audioPath(meta.id));

    const [r] = (await openStore().recoverUnfinished()) as [RecordingMeta];
    expect(r).toMatchObject({ state: 'recovered', durationFixed: true });
    expect(r.durationMs).toBeGreaterThan(manifest.decodedMs - 1000);
    expect(r.durationMs).toBeLessThan(manifest.decodedMs);
    const out = readFileSync(join(dir, meta.id, 'audio.webm'));
    expect(out.subarray(out.length - (onDisk.length - rawHeadSize)).equals(onDisk.subarray(rawHeadSize))).toBe(true);
    const probed = ffprobeMs(join(dir, meta.id, 'audio.webm'));
    if (probed !== null) expect(Math.abs(probed - r.durationMs)).toBeLessThan(2);
  });

  for (const damage of ['deleted', 'corrupt'] as const) {
    it(`rebuilds the meta of a recording whose meta.json is ${damage}`, async () => {
      const before = openStore();
      const meta = await recordAll(before);
      const metaPath = join(dir, meta.id, 'meta.json');
      if (damage === 'deleted') rmSync(metaPath);
      else writeFileSync(metaPath, '{"id": "2026-11-21T10-15-02Z-');
      const after = openStore();
      expect(await after.list()).toEqual([]);

      const [r] = (await after.recoverUnfinished()) as [RecordingMeta];
      expect(r).toMatchObject({
        id: meta.id,
        state: 'recovered',
        mimeType: MIME,
        startedAt: '2026-11-21T10:15:02.000Z',
        durationFixed: true,
        label: null,
      });
      expect(Math.abs(r.durationMs - manifest.decodedMs)).toBeLessThanOrEqual(20);
      expect(await after.get(meta.id)).toEqual(r);
      expect((await after.list()).map((m) => m.id)).toEqual([meta.id]);
    });
  }

  it('ignores folders with neither audio nor meta, and clears temp files left by a crash', async () => {
    const store = openStore();
    const meta = await recordAll(store, 2);
    mkdirSync(join(dir, '2026-01-01T00-00-00Z-000000'));
    writeFileSync(join(dir, meta.id, 'audio.webm.0d3c.tmp'), 'half a rewrite');
    writeFileSync(join(dir, meta.id, 'job.json'), '{}');
    const recovered = await openStore().recoverUnfinished();
    expect(recovered.map((m) => m.id)).toEqual([meta.id]);
    expect(readdirSync(join(dir, meta.id)).sort()).toEqual(['audio.webm', 'job.json', 'meta.json']);
    expect((await store.list()).map((m) => m.id)).toEqual([meta.id]);
  });

  it('opens at launch in one pass: the whole list newest first, those recovered now, every meta held without a second read', async () => {
    const store = openStore();
    const done = await recordAll(store, 2);
    await store.finish(done.id);
    advance(1000);
    const cut = await recordAll(store, 2);
    advance(1000);
    const stuck = await recordAll(store, 2);
    // Its recovery fails (a leftover it cannot remove), so it is listed as its meta says.
    mkdirSync(join(dir, stuck.id, 'meta.json.0d3c.tmp'));
    mkdirSync(join(dir, '2026-01-01T00-00-00Z-000000'));
    const lines: string[] = [];
    const after = openStore((l) => lines.push(l));
    const { all, recovered } = await after.open();
    expect(all.map((m) => [m.id, m.state])).toEqual([
      [stuck.id, 'recording'],
      [cut.id, 'recovered'],
      [done.id, 'finished'],
    ]);
    expect(recovered.map((m) => m.id)).toEqual([cut.id]);
    expect(lines.join('\n')).toMatch(new RegExp(`${stuck.id} could not be recovered`));
    for (const m of all) expect(after.peek(m.id)).toEqual(m);
    expect((await openStore().list()).map((m) => m.id)).toEqual(all.map((m) => m.id));
  });

  it('recovers a recording that crashed before its first chunk, and one with a damaged header', async () => {
    const store = openStore();
    const empty = await store.start({ mimeType: MIME });
    advance(1000);
    const damaged = await recordAll(store, 3);
    const audio = readFileSync(store.audioPath(damaged.id));
    audio.fill(0, 0, 40);
    writeFileSync(store.audioPath(damaged.id), audio);
    const recovered = await openStore().recoverUnfinished();
    const byId = new Map(recovered.map((m) => [m.id, m]));
    expect(byId.get(empty.id)).toMatchObject({ state: 'recovered', bytes: 0, durationFixed: false });
    // Its meta keeps the elapsed time the renderer reported; the bytes stay as recorded.
    expect(byId.get(damaged.id)).toMatchObject({
      state: 'recovered',
      durationFixed: false,
      durationMs: 2980,
      bytes: audio.length,
    });
    expect(readFileSync(store.audioPath(damaged.id)).equals(audio)).toBe(true);
  });

  it('keeps the acknowledged audio when meta.json is one chunk behind', async () => {
    const store = openStore();
    const meta = await recordAll(store, chunks.length - 1);
    // The last chunk reached the disk, then the process died before meta.json was replaced.
    appendFileSync(store.audioPath(meta.id), chunk(chunks.length - 1));
    const [r] = (await openStore().recoverUnfinished()) as [RecordingMeta];
    expect(Math.abs(r.durationMs - manifest.decodedMs)).toBeLessThanOrEqual(20);
    expect(r.bytes).toBe(statSync(store.audioPath(meta.id)).size);
    const out = readFileSync(store.audioPath(meta.id));
    expect(out.subarray(out.length - (raw.length - rawHeadSize)).equals(raw.subarray(rawHeadSize))).toBe(true);
  });

  it("a visit's other pet is made once under its chosen id; one a kill left half put together is no recording and is made again whole", async () => {
    const store = openStore();
    const visit = await store.finish((await recordAll(store)).id);
    const [tom = '', jerry = ''] = await store.petIds(visit.id, 2);
    // Derived from the visit: asked again, the same ids.
    expect(await store.petIds(visit.id, 2)).toEqual([tom, jerry]);
    expect(new Set([visit.id, tom, jerry]).size).toBe(3);
    const made = await store.addPet(visit.id, { id: tom, patientName: 'Tom', visitId: visit.id });
    expect(await store.addPet(visit.id, { id: tom, patientName: 'Tom', visitId: visit.id })).toEqual(made);
    expect(made).toMatchObject({ id: tom, patientName: 'Tom', visitId: visit.id, state: 'finished' });
    // A kill while Jerry's folder was being put together: its audio there, its meta not yet.
    mkdirSync(join(dir, `${jerry}.making`));
    writeFileSync(join(dir, `${jerry}.making`, 'audio.webm'), raw.subarray(0, 1000));
    const { all, recovered } = await openStore().open();
    expect(all.map((m) => m.id).sort()).toEqual([visit.id, tom].sort());
    expect(recovered).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual([visit.id, tom].sort());
    const again = openStore();
    await again.addPet(visit.id, { id: jerry, patientName: 'Jerry', visitId: visit.id });
    expect(readFileSync(again.audioPath(jerry)).equals(readFileSync(again.audioPath(visit.id)))).toBe(true);
    expect((await again.list()).map((m) => m.patientName ?? '').sort()).toEqual(['', 'Jerry', 'Tom']);
    // Another recording in the id chosen for a pet is never taken for it.
    const other = await rejection(again.addPet(tom, { id: visit.id, patientName: 'Mango', visitId: tom }));
    expect(other.code).toBe('bad_state');
  });
});
