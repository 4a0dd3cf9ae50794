// The Duration rewrite on real MediaRecorder output (test/fixtures/audio/mediarecorder-5s, made
// by scripts/make-audio-fixtures.ts with Chromium), checked by ffprobe where it is installed and
// always by reading the rewritten head back.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Decoder } from 'ts-ebml';
import { describe, expect, it } from 'vitest';
import { fixWebmDuration, scanWebm } from '../../../../src/main/core/recordings/webm-duration.ts';
import { seededRandom } from '../../../../src/shared/seeded-random.ts';
import { chunks, expectWholeLength, ffprobeMs, manifest, raw, rawHeadSize } from './audio-fixture.ts';
import { folder, freshFolderEachTest } from './support.ts';

freshFolderEachTest();

/** The Duration element of the file's head, in ms, read back with ts-ebml. */
function headDurationMs(bytes: Buffer): number | null {
  const elements = new Decoder().decode(new Uint8Array(bytes.subarray(0, 4096)).buffer);
  const duration = elements.find((el) => el.name === 'Duration');
  const scale = elements.find((el) => el.name === 'TimestampScale');
  if (!duration || duration.type !== 'f') return null;
  return (duration.value * (scale && scale.type === 'u' ? scale.value : 1e6)) / 1e6;
}

/** Deterministic pseudo-random bytes. */
function seededBytes(seed: number, length: number): Buffer {
  const next = seededRandom(seed);
  return Buffer.from(Array.from({ length }, () => Math.floor(next() * 256)));
}

describe('fixWebmDuration', () => {
  it('the fixture is what MediaRecorder writes: no Duration', () => {
    expect(chunks.length).toBeGreaterThanOrEqual(5);
    expect(rawHeadSize).toBeGreaterThan(0);
    expect(headDurationMs(raw)).toBeNull();
    expect(manifest.rawFfprobeDuration).toBe('N/A');
    const file = join(folder, 'raw.webm');
    writeFileSync(file, raw);
    const probed = ffprobeMs(file);
    if (probed !== null) expect(probed).toBeNaN();
  });

  it('writes the real length into the head and keeps every byte after it', async () => {
    const file = join(folder, 'audio.webm');
    writeFileSync(file, raw);
    const fix = await fixWebmDuration(file);
    expect(fix).toMatchObject({ fixed: true, codecId: 'A_OPUS', reason: null });
    expectWholeLength(fix.durationMs ?? 0, file);

    const out = readFileSync(file);
    expect(headDurationMs(out)).toBeCloseTo(fix.durationMs ?? -1, 0);
    expect(out.subarray(out.length - (raw.length - rawHeadSize)).equals(raw.subarray(rawHeadSize))).toBe(true);
    // The new head is SeekHead + Info + Tracks + a handful of Cues: well under a kilobyte
    // (ts-ebml's own encoder would hand back its whole Buffer pool here).
    expect(out.length - raw.length).toBeGreaterThan(0);
    expect(out.length - raw.length).toBeLessThan(1024);
    // Every cue points at a Cluster of the rewritten file, so players can seek.
    const elements = new Decoder().decode(new Uint8Array(out).buffer);
    const segmentStart = elements.find((el) => el.name === 'Segment')?.dataStart ?? -1;
    const positions = elements.flatMap((el) => (el.name === 'CueClusterPosition' && el.type === 'u' ? [el.value] : []));
    expect(positions.length).toBe(chunks.length);
    for (const p of positions)
      expect(out.subarray(segmentStart + p, segmentStart + p + 4).toString('hex')).toBe('1f43b675');
    const probed = ffprobeMs(file);
    if (probed !== null) expect(Math.abs(probed - (fix.durationMs ?? 0))).toBeLessThan(2);
  });

  it('gives the same result when the file is read in tiny pieces that split elements', async () => {
    const a = join(folder, 'a.webm');
    const b = join(folder, 'b.webm');
    writeFileSync(a, raw);
    writeFileSync(b, raw);
    const big = await fixWebmDuration(a);
    const tiny = await fixWebmDuration(b, 7);
    expect(tiny).toEqual(big);
    expect(readFileSync(b).equals(readFileSync(a))).toBe(true);
  });

  it('is idempotent: fixing a fixed file changes nothing', async () => {
    const file = join(folder, 'audio.webm');
    writeFileSync(file, raw);
    const first = await fixWebmDuration(file);
    const once = readFileSync(file);
    const second = await fixWebmDuration(file);
    expect(second).toEqual(first);
    expect(readFileSync(file).equals(once)).toBe(true);
  });

  it('reads a file whose last chunk was cut in half up to its last complete block', async () => {
    const last = chunks.at(-1) ?? Buffer.alloc(0);
    const truncated = raw.subarray(0, raw.length - Math.ceil(last.length / 2));
    const file = join(folder, 'audio.webm');
    writeFileSync(file, truncated);
    const scan = await scanWebm(file);
    expect(scan.incompleteTail).toBe(true);
    const fix = await fixWebmDuration(file);
    expect(fix.fixed).toBe(true);
    expect(fix.durationMs ?? 0).toBeLessThan(manifest.decodedMs);
    expect(fix.durationMs ?? 0).toBeGreaterThan(manifest.decodedMs - 1000);
    const out = readFileSync(file);
    // The cut block stays in the file: nothing recorded is thrown away.
    expect(out.subarray(out.length - (truncated.length - rawHeadSize)).equals(truncated.subarray(rawHeadSize))).toBe(
      true,
    );
    const probed = ffprobeMs(file);
    if (probed !== null) expect(Math.abs(probed - (fix.durationMs ?? 0))).toBeLessThan(2);
  });

  it('ignores tails of random bytes, and one that claims a block of 4 GiB, and keeps them', async () => {
    // A SimpleBlock ID with an 8-byte size of 2^32: the decoder would wait for it for ever.
    const claim = Buffer.from([0xa3, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00]);
    // Many different garbage tails, the same every run: now and then random bytes parse as
    // known elements, and even as a block of the audio track.
    const tails = Array.from({ length: 150 }, (_, seed) => seededBytes(seed + 1, 200 + ((seed * 7919) % 60_000)));
    for (const tail of [...tails, Buffer.concat([claim, seededBytes(999, 3 * 1024 * 1024)])]) {
      const file = join(folder, 'audio.webm');
      writeFileSync(file, Buffer.concat([raw, tail]));
      const fix = await fixWebmDuration(file);
      expect(fix.fixed).toBe(true);
      expect(Math.abs((fix.durationMs ?? 0) - manifest.decodedMs)).toBeLessThanOrEqual(20);
      expect(readFileSync(file).subarray(-tail.length).equals(tail)).toBe(true);
    }
  });

  it('leaves a file it cannot fix exactly as it was', async () => {
    const cases: Array<[string, Buffer, string]> = [
      ['not-webm.webm', Buffer.from('this is not a WebM file at all'), 'no EBML header and Segment'],
      ['head-only.webm', raw.subarray(0, rawHeadSize), 'no audio cluster'],
    ];
    for (const [name, bytes, reason] of cases) {
      const file = join(folder, name);
      writeFileSync(file, bytes);
      const fix = await fixWebmDuration(file);
      expect(fix).toMatchObject({ fixed: false, durationMs: null, reason });
      expect(readFileSync(file).equals(bytes)).toBe(true);
    }
    expect(readdirSync(folder).sort()).toEqual(['head-only.webm', 'not-webm.webm']);
  });
});
