// The audio the recordings' tests feed and measure: the real MediaRecorder chunks of
// test/fixtures/audio/mediarecorder-5s (made by scripts/make-audio-fixtures.ts with Chromium) and
// what ffprobe reads of a file where it is installed. The folder, clock and store each test gets
// are in support.ts.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';

const fixtures = join(import.meta.dirname, '../../../fixtures/audio/mediarecorder-5s');

/** What the fixture's maker measured: the time recorded, the length decoded, and ffprobe's word on the raw file. */
export const manifest = JSON.parse(readFileSync(join(fixtures, 'manifest.json'), 'utf8')) as {
  elapsedMs: number;
  decodedMs: number;
  mimeType: string;
  rawFfprobeDuration: string;
};

/** The chunks as the window hands them over, in order. */
export const chunks = readdirSync(fixtures)
  .filter((f) => f.endsWith('.bin'))
  .sort()
  .map((f) => new Uint8Array(readFileSync(join(fixtures, f))));

/** The chunks one after the other: the file MediaRecorder makes, with no Duration in its head. */
export const raw = Buffer.concat(chunks);

/** Where MediaRecorder's head ends: the first Cluster (ID 1F 43 B6 75). */
export const rawHeadSize = raw.indexOf(Buffer.from([0x1f, 0x43, 0xb6, 0x75]));

export const hasFfprobe = spawnSync('ffprobe', ['-version']).status === 0;

/** ffprobe's container duration in ms: null without ffprobe, NaN for "N/A". */
export function ffprobeMs(file: string): number | null {
  if (!hasFfprobe) return null;
  const r = spawnSync(
    'ffprobe',
    ['-v', 'error', '-show_entries', 'format=duration', '-of', 'default=nw=1:nk=1', file],
    { encoding: 'utf8' },
  );
  return Number.parseFloat(r.stdout.trim()) * 1000;
}

/**
 * The whole fixture's length is in the file: `durationMs` is what its own timestamps give (not
 * what a caller said), and ffprobe, where installed, reads about the time recorded.
 */
export function expectWholeLength(durationMs: number, file: string): void {
  expect(Math.abs(durationMs - manifest.decodedMs)).toBeLessThanOrEqual(20);
  const probed = ffprobeMs(file);
  if (probed !== null) expect(Math.abs(probed - manifest.elapsedMs)).toBeLessThan(500);
}

export const MIME = 'audio/webm;codecs=opus';

/** The fixture's chunk `i`; throws when the fixture has fewer. */
export function chunk(i: number): Uint8Array {
  const c = chunks[i];
  if (!c) throw new Error(`fixture chunk ${i} is missing`);
  return c;
}
