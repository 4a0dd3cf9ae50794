// A disk that really fills: the engine in a child process under a file-size limit (`ulimit -f`,
// which needs no root), writing real files. A chunk is confirmed only when all of it is on disk;
// the one the disk refused is cut back out, the window gets a sentence and a code of its own,
// and once there is room again the same recording goes on from the last confirmed byte.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecordingStore } from '../../../../src/main/core/recordings/index.ts';
import { tempDir } from '../../../support/core.ts';

const CHILD = join(import.meta.dirname, '../../../support/full-disk-child.ts');

/** Runs the child with files limited to `kib` KiB (bash counts `ulimit -f` in 1024-byte blocks). */
function underLimit(
  kib: number,
  ...args: string[]
): { out: Record<string, unknown>; status: number | null; stderr: string } {
  const run = spawnSync('bash', ['-c', `ulimit -f ${kib} && exec "$0" "$@"`, process.execPath, CHILD, ...args], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  const line = run.stdout.trim().split('\n').at(-1) ?? '';
  if (!line.startsWith('{'))
    throw new Error(
      `the child printed no report (status ${run.status}, signal ${run.signal})\n${run.stdout}\n${run.stderr}`,
    );
  return { out: JSON.parse(line) as Record<string, unknown>, status: run.status, stderr: run.stderr };
}

describe('a disk that fills', () => {
  it('confirms a chunk only when all of it is on disk, cuts back the one refused, says so plainly, and goes on once there is room', async () => {
    const dir = tempDir('vet-scribe-full-');
    // 1,000 KiB: nine chunks of 100,000 bytes fit, the tenth only in part.
    const { out, status } = underLimit(1000, 'record', dir);
    expect(status).toBe(0);
    const { id, confirmed, error } = out as {
      id: string;
      confirmed: number[];
      error: { code: string; message: string };
    };
    expect(confirmed).toEqual(Array.from({ length: 10 }, (_, i) => (i + 1) * 100_000).filter((b) => b <= 1000 * 1024));
    expect(error).toEqual({
      code: 'disk_full',
      message:
        'The disk is full: free some space on this computer. The recording so far is kept, and saving goes on once there is room.',
    });
    // Every confirmed byte is there, and nothing of the refused chunk.
    const audio = join(dir, id, 'audio.webm');
    const last = confirmed.at(-1) ?? 0;
    expect(statSync(audio).size).toBe(last);
    const bytes = readFileSync(audio);
    for (let seq = 0; seq < confirmed.length; seq++)
      expect(bytes[seq * 100_000 + 99_999], `chunk ${seq}`).toBe(seq + 1);
    const meta = JSON.parse(readFileSync(join(dir, id, 'meta.json'), 'utf8')) as { bytes: number; chunks: number };
    expect(meta).toMatchObject({ bytes: last, chunks: confirmed.length });
    expect(readdirSync(join(dir, id)).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    // Room again (no limit here): the refused chunk is sent again and the recording goes on.
    const store = new RecordingStore({ dir });
    const again = await store.appendChunk(
      id,
      confirmed.length,
      new Uint8Array(100_000).fill(confirmed.length + 1),
      10_000,
    );
    expect(again).toMatchObject({ bytes: last + 100_000, chunks: confirmed.length + 1 });
    expect(statSync(audio).size).toBe(last + 100_000);
  });

  it('a settings save on a full disk leaves the saved settings as they were, with no leftover, and says so without a path', () => {
    const dir = tempDir('vet-scribe-full-settings-');
    const before = `${JSON.stringify({ version: 1, retentionDays: 7 })}\n`;
    writeFileSync(join(dir, 'settings.json'), before);
    const { out, status } = underLimit(0, 'settings', dir);
    expect(status).toBe(0);
    expect(out['error']).toEqual({
      code: 'disk_full',
      message: 'The disk is full: free some space on this computer. What was saved before is kept.',
      retryable: true,
    });
    expect(JSON.stringify(out)).not.toContain(dir);
    expect(readFileSync(join(dir, 'settings.json'), 'utf8')).toBe(before);
    expect(readdirSync(dir)).toEqual(['settings.json']);
  });
});
