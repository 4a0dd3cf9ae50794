// The recordings store on real files in a temp folder, fed with the real MediaRecorder chunks
// of test/fixtures/audio/mediarecorder-5s (scripts/make-audio-fixtures.ts): a recording started,
// fed, paused, finished, listed and deleted. What the next launch finds after a crash is in
// recovery.test.ts.
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Refusal } from '../../../../src/main/core/platform/index.ts';
import { localDate } from '../../../../src/main/core/recordings/index.ts';
import { chunk, chunks, expectWholeLength, MIME, raw, rawHeadSize } from './audio-fixture.ts';
import { advance, dir, folder, freshFolderEachTest, now, openStore, recordAll, rejection } from './support.ts';

freshFolderEachTest();

describe('RecordingStore', () => {
  it('starts a recording with a time-sortable id, an empty audio file and a meta.json', async () => {
    const store = openStore();
    const meta = await store.start({ mimeType: MIME, label: 'Bella', templateId: null });
    expect(meta.id).toMatch(/^2026-11-21T10-15-02Z-[0-9a-f]{6}$/);
    expect(meta).toMatchObject({
      startedAt: '2026-11-21T10:15:02.250Z',
      finishedAt: null,
      state: 'recording',
      bytes: 0,
      chunks: 0,
      durationMs: 0,
      label: 'Bella',
      mimeType: MIME,
    });
    expect(store.audioPath(meta.id)).toBe(join(dir, meta.id, 'audio.webm'));
    expect(statSync(store.audioPath(meta.id)).size).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, meta.id, 'meta.json'), 'utf8'))).toEqual(meta);
    expect(await store.get(meta.id)).toEqual(meta);
  });

  it("keeps the pet owner's consent with the start's time, across a new store (a restart); none when not confirmed", async () => {
    const store = openStore();
    const consented = await store.start({ mimeType: MIME, patientName: 'Bella', petOwnerConsented: true });
    const plain = await store.start({ mimeType: MIME, patientName: 'Rex' });
    expect(consented.consentAt).toBe(consented.startedAt);
    expect(plain.consentAt).toBeNull();
    const again = openStore();
    expect((await again.get(consented.id))?.consentAt).toBe(consented.startedAt);
    expect((await again.get(plain.id))?.consentAt).toBeNull();
  });

  it('appends every chunk to disk at once, then finish writes a Duration ffprobe reads', async () => {
    const store = openStore();
    const started = await store.start({ mimeType: MIME });
    let meta = started;
    for (let i = 0; i < chunks.length; i++) {
      meta = await store.appendChunk(started.id, i, chunk(i), (i + 1) * 1000);
      // On disk before the call answered: the audio so far and a meta that says so.
      const soFar = Buffer.concat(chunks.slice(0, i + 1));
      expect(readFileSync(store.audioPath(started.id)).equals(soFar)).toBe(true);
      expect(JSON.parse(readFileSync(join(dir, started.id, 'meta.json'), 'utf8'))).toMatchObject({
        chunks: i + 1,
        bytes: soFar.length,
        durationMs: (i + 1) * 1000,
      });
    }
    expect(meta).toMatchObject({ chunks: chunks.length, bytes: raw.length, state: 'recording' });

    advance(5000);
    const done = await store.finish(started.id, { durationMs: 5000 });
    expect(done).toMatchObject({ state: 'finished', finishedAt: new Date(now()).toISOString(), durationFixed: true });
    // From the audio's own last timestamp, not from the caller's 5000.
    expectWholeLength(done.durationMs, store.audioPath(started.id));
    const out = readFileSync(store.audioPath(started.id));
    expect(done.bytes).toBe(out.length);
    expect(out.subarray(out.length - (raw.length - rawHeadSize)).equals(raw.subarray(rawHeadSize))).toBe(true);
    expect(readdirSync(join(dir, started.id)).sort()).toEqual(['audio.webm', 'meta.json']);
  });

  it('counts duration from chunks when no elapsed time is given', async () => {
    const store = openStore();
    const { id } = await store.start({ mimeType: MIME });
    await store.appendChunk(id, 0, chunk(0));
    expect((await store.appendChunk(id, 1, chunk(1))).durationMs).toBe(2000);
  });

  it('ignores a resent chunk and refuses one that skips ahead, naming the one expected', async () => {
    const store = openStore();
    const { id } = await store.start({ mimeType: MIME });
    await store.appendChunk(id, 0, chunk(0), 1000);
    await store.appendChunk(id, 1, chunk(1), 2000);
    const again = await store.appendChunk(id, 1, chunk(2), 2000);
    expect(again).toMatchObject({ chunks: 2, bytes: chunk(0).length + chunk(1).length });
    expect(readFileSync(store.audioPath(id)).equals(Buffer.concat([chunk(0), chunk(1)]))).toBe(true);

    const gap = await rejection(store.appendChunk(id, 3, chunk(3), 4000));
    expect(gap.code).toBe('chunk_gap');
    expect(gap.expectedSeq).toBe(2);
    expect(gap.message).toContain('chunk 2');
    expect((await store.get(id))?.chunks).toBe(2);
  });

  it('serialises concurrent calls; a chunk that overtakes its predecessor is refused, not misplaced', async () => {
    const store = openStore();
    const { id } = await store.start({ mimeType: MIME });
    // In order but not awaited one by one: the queue writes them in call order.
    const metas = await Promise.all(chunks.slice(0, 3).map((c, i) => store.appendChunk(id, i, c, (i + 1) * 1000)));
    expect(metas.map((m) => m.chunks)).toEqual([1, 2, 3]);
    // Seq 4 arrives before seq 3: 4 is refused (the caller resends it), 3 is written.
    const [four, three] = await Promise.allSettled([
      store.appendChunk(id, 4, chunk(4), 5000),
      store.appendChunk(id, 3, chunk(3), 4000),
    ]);
    expect(four.status).toBe('rejected');
    expect(four.status === 'rejected' && (four.reason as Refusal).code).toBe('chunk_gap');
    expect(three.status).toBe('fulfilled');
    await store.appendChunk(id, 4, chunk(4), 5000);
    expect(readFileSync(store.audioPath(id)).equals(raw)).toBe(true);
  });

  it('drops bytes of a failed write before the resent chunk lands', async () => {
    const store = openStore();
    const { id } = await store.start({ mimeType: MIME });
    await store.appendChunk(id, 0, chunk(0), 1000);
    appendFileSync(store.audioPath(id), chunk(1).subarray(0, 100));
    const meta = await store.appendChunk(id, 1, chunk(1), 2000);
    expect(readFileSync(store.audioPath(id)).equals(Buffer.concat([chunk(0), chunk(1)]))).toBe(true);
    expect(meta.bytes).toBe(chunk(0).length + chunk(1).length);
  });

  it('refuses bad chunks: too large, not bytes, a first chunk without a WebM header', async () => {
    const store = openStore();
    const { id } = await store.start({ mimeType: MIME });
    const big = await rejection(store.appendChunk(id, 0, new Uint8Array(1024 * 1024 + 1)));
    expect(big.code).toBe('bad_chunk');
    expect(big.message).toContain('at most 1048576 bytes');
    expect((await rejection(store.appendChunk(id, 0, 'text' as unknown as Uint8Array))).code).toBe('bad_chunk');
    expect((await rejection(store.appendChunk(id, -1, chunk(0)))).code).toBe('bad_chunk');
    expect((await rejection(store.appendChunk(id, 0, chunk(1)))).code).toBe('bad_chunk');
    expect(statSync(store.audioPath(id)).size).toBe(0);
  });

  it('takes a WebM header that comes over several chunks, as Chromium can hand over its first byte alone', async () => {
    const store = openStore();
    const { id } = await store.start({ mimeType: MIME });
    const whole = chunk(0);
    await store.appendChunk(id, 0, whole.subarray(0, 1), 1000);
    await store.appendChunk(id, 1, whole.subarray(1, 3), 1000);
    const meta = await store.appendChunk(id, 2, whole.subarray(3), 1000);
    expect(meta).toMatchObject({ chunks: 3, bytes: whole.length });
    expect(readFileSync(store.audioPath(id)).equals(Buffer.from(whole))).toBe(true);

    // A first byte of the header and then something else is still no header.
    const other = (await store.start({ mimeType: MIME })).id;
    await store.appendChunk(other, 0, whole.subarray(0, 1), 1000);
    const wrong = await rejection(store.appendChunk(other, 1, chunk(1), 2000));
    expect(wrong.code).toBe('bad_chunk');
    expect(wrong.message).toBe('The first audio of this recording does not start with a WebM header.');
    expect(statSync(store.audioPath(other)).size).toBe(1);
  });

  it('refuses ids that are not its own, so no path leaves its folder', async () => {
    const store = openStore();
    const { id } = await store.start({ mimeType: MIME });
    const bad = [
      '../x',
      '',
      'x'.repeat(5000),
      `${id}/../../x`,
      `../${id}`,
      '..',
      `${id}\0`,
      'C:\\Windows',
      undefined as unknown as string,
    ];
    for (const b of bad) {
      expect(() => store.audioPath(b)).toThrow(Refusal);
      for (const call of [
        store.get(b),
        store.appendChunk(b, 0, chunk(0)),
        store.finish(b),
        store.pause(b),
        store.update(b, { label: 'x' }),
        store.delete(b),
      ]) {
        expect((await rejection(call)).code).toBe('bad_id');
      }
    }
    expect(readdirSync(folder)).toEqual(['recordings']);
    expect(readdirSync(dir)).toEqual([id]);
  });

  it('answers not_found for a well-formed id it does not have', async () => {
    const store = openStore();
    expect(await store.get('2026-01-01T00-00-00Z-abcdef')).toBeNull();
    expect((await rejection(store.appendChunk('2026-01-01T00-00-00Z-abcdef', 0, chunk(0)))).code).toBe('not_found');
    expect(await store.list()).toEqual([]);
  });

  it('pauses and resumes, keeps chunks that arrive while paused, and refuses audio after finish', async () => {
    const store = openStore();
    const { id } = await store.start({ mimeType: MIME });
    await store.appendChunk(id, 0, chunk(0), 1000);
    expect((await store.pause(id)).state).toBe('paused');
    expect((await store.appendChunk(id, 1, chunk(1), 2000)).chunks).toBe(2);
    expect((await store.resume(id)).state).toBe('recording');
    await store.finish(id);
    const late = await rejection(store.appendChunk(id, 2, chunk(2), 3000));
    expect(late.code).toBe('bad_state');
    expect((await rejection(store.pause(id))).code).toBe('bad_state');
    expect((await rejection(store.resume(id))).code).toBe('bad_state');
    // A repeated stop answers the finished recording unchanged.
    expect(await store.finish(id)).toEqual(await store.get(id));
  });

  it('updates the label and template in any state', async () => {
    const store = openStore();
    const meta = await recordAll(store, 2);
    await store.finish(meta.id);
    const updated = await store.update(meta.id, { label: 'Bella, vomiting', templateId: 'tpl_2' });
    expect(updated).toMatchObject({ label: 'Bella, vomiting', templateId: 'tpl_2', state: 'finished' });
    expect((await store.update(meta.id, { label: null })).templateId).toBe('tpl_2');
    expect((await rejection(store.update(meta.id, { label: 42 as unknown as string }))).code).toBe('bad_input');
  });

  it("keeps the patient's name and the visit's description, trimmed; blank reads as none", async () => {
    const store = openStore();
    const meta = await store.start({
      mimeType: MIME,
      patientName: '  Bella  ',
      description: ' Vomiting since Tuesday ',
    });
    expect(meta).toMatchObject({ patientName: 'Bella', description: 'Vomiting since Tuesday', label: null });
    expect(JSON.parse(readFileSync(join(dir, meta.id, 'meta.json'), 'utf8'))).toMatchObject({
      patientName: 'Bella',
      description: 'Vomiting since Tuesday',
    });
    expect(await store.update(meta.id, { patientName: 'Bella Smith' })).toMatchObject({
      patientName: 'Bella Smith',
      description: 'Vomiting since Tuesday',
    });
    expect(await store.update(meta.id, { description: '   ' })).toMatchObject({
      patientName: 'Bella Smith',
      description: null,
    });
    expect(await store.update(meta.id, { patientName: ' ' })).toMatchObject({ patientName: null });
    expect((await rejection(store.update(meta.id, { patientName: 'x'.repeat(201) }))).code).toBe('bad_input');
    expect((await rejection(store.update(meta.id, { description: 'x'.repeat(2001) }))).code).toBe('bad_input');
    expect((await rejection(store.start({ mimeType: MIME, patientName: 7 as unknown as string }))).code).toBe(
      'bad_input',
    );
  });

  it('reads a meta.json written before the patient was asked for: name and description are null, nothing is lost', async () => {
    const store = openStore();
    const meta = await store.finish((await recordAll(store, 2)).id);
    const file = join(dir, meta.id, 'meta.json');
    const old = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    delete old['patientName'];
    delete old['description'];
    writeFileSync(file, JSON.stringify(old));
    const read = await store.get(meta.id);
    expect(read).toMatchObject({
      id: meta.id,
      state: 'finished',
      label: 'Bella',
      patientName: null,
      description: null,
      bytes: meta.bytes,
    });
    expect((await store.list()).map((m) => m.id)).toEqual([meta.id]);
    // A member of the wrong type reads as none too, rather than hiding the recording.
    writeFileSync(file, JSON.stringify({ ...old, patientName: 12 }));
    expect(await store.get(meta.id)).toMatchObject({ id: meta.id, patientName: null });
    expect(await store.update(meta.id, { patientName: 'Bella' })).toMatchObject({
      patientName: 'Bella',
      label: 'Bella',
    });
  });

  it("dates a recording by this computer's calendar, not UTC's", () => {
    const zone = process.env['TZ'];
    try {
      // 23:30 UTC on 31 December is already 1 January in Auckland, and still 31 December in New York.
      process.env['TZ'] = 'Pacific/Auckland';
      expect(localDate('2026-12-31T23:30:00.000Z')).toBe('2027-01-01');
      process.env['TZ'] = 'America/New_York';
      expect(localDate('2026-12-31T23:30:00.000Z')).toBe('2026-12-31');
      expect(localDate('2027-01-01T03:30:00.000Z')).toBe('2026-12-31');
      process.env['TZ'] = 'UTC';
      expect(localDate('2027-01-01T03:30:00.000Z')).toBe('2027-01-01');
    } finally {
      if (zone === undefined) delete process.env['TZ'];
      else process.env['TZ'] = zone;
    }
  });

  it('finishes and keeps the audio untouched when the Duration cannot be written', async () => {
    const store = openStore();
    const { id } = await store.start({ mimeType: MIME });
    const headOnly = raw.subarray(0, rawHeadSize);
    await store.appendChunk(id, 0, headOnly, 800);
    const done = await store.finish(id, { durationMs: 1234 });
    expect(done).toMatchObject({ state: 'finished', durationFixed: false, durationMs: 1234, bytes: headOnly.length });
    expect(readFileSync(store.audioPath(id)).equals(headOnly)).toBe(true);
  });

  it('lists newest first and deletes a recording with its folder', async () => {
    const store = openStore();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await store.start({ mimeType: MIME, label: `r${i}` })).id);
      advance(1500);
    }
    mkdirSync(join(dir, 'not-a-recording'));
    expect((await store.list()).map((m) => m.id)).toEqual([...ids].reverse());
    const [first, second, third] = ids as [string, string, string];
    await store.delete(second);
    expect(existsSync(join(dir, second))).toBe(false);
    expect(await store.get(second)).toBeNull();
    expect((await store.list()).map((m) => m.id)).toEqual([third, first]);
    await store.delete(second);
  });
});
