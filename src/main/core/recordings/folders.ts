// Where recordings live: `<dir>/<id>/audio.webm` and `<dir>/<id>/meta.json`, one folder per
// recording, named by its id.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { RecordingError } from './errors.ts';

/** Files read at once at launch: enough to keep the disk busy, far below any open-files limit. */
export const READ_AT_ONCE = 16;

export const AUDIO = 'audio.webm';
export const META = 'meta.json';
// `2026-11-21T10-15-02Z-ab12cd`: sorts by time, safe as a file name on every platform.
const ID_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z-[0-9a-f]{6}$/;

export function checkId(id: unknown): asserts id is string {
  if (typeof id !== 'string' || !ID_PATTERN.test(id)) {
    throw new RecordingError('bad_id', `"${String(id).slice(0, 60)}" is not a recording id.`);
  }
}

/** The recording's folder; refuses an id that is not one (never a path outside `dir`). */
export function folderOf(dir: string, id: string): string {
  checkId(id);
  return join(dir, id);
}

/** The ids of the recording folders in `dir`; none when `dir` does not exist yet. */
export async function recordingIds(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true }))
      .filter((d) => d.isDirectory() && ID_PATTERN.test(d.name))
      .map((d) => d.name);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
}

/** A new, empty recording folder; its id is the start time plus a random suffix. */
export async function newFolder(dir: string, at: number): Promise<string> {
  await mkdir(dir, { recursive: true });
  for (let attempt = 0; ; attempt++) {
    const id = `${new Date(at).toISOString().slice(0, 19).replace(/:/g, '-')}Z-${randomBytes(3).toString('hex')}`;
    try {
      await mkdir(folderOf(dir, id));
      return id;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 5) throw e;
    }
  }
}
