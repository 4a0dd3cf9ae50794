// Where recordings live: `<dir>/<id>/audio.webm` and `<dir>/<id>/meta.json`, one folder per
// recording, named by its id.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Refusal } from '../platform/index.ts';

/** Files read at once at launch: enough to keep the disk busy, far below any open-files limit. */
export const READ_AT_ONCE = 16;

export const AUDIO = 'audio.webm';
export const META = 'meta.json';
const STAGING = '.making';
// `2026-11-21T10-15-02Z-ab12cd`: sorts by time, safe as a file name on every platform.
const ID_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z-[0-9a-f]{6}$/;

export function checkId(id: unknown): asserts id is string {
  if (typeof id !== 'string' || !ID_PATTERN.test(id)) {
    throw new Refusal('bad_id', `"${String(id).slice(0, 60)}" is not a recording id.`);
  }
}

/** The recording's folder; refuses an id that is not one (never a path outside `dir`). */
export function folderOf(dir: string, id: string): string {
  checkId(id);
  return join(dir, id);
}

/** The ids of the recording folders in `dir`; none when `dir` does not exist yet. */
export async function recordingIds(dir: string): Promise<string[]> {
  return (await recordingFolders(dir)).ids;
}

/**
 * The recording folders in `dir` by id, and the names of the pets' folders a kill left half put
 * together (`stagingOf`), which are made again from the start when their visit is finished.
 */
export async function recordingFolders(dir: string): Promise<{ ids: string[]; staging: string[] }> {
  try {
    const folders = (await readdir(dir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
    return {
      ids: folders.filter((name) => ID_PATTERN.test(name)),
      staging: folders.filter((name) => name.endsWith(STAGING) && ID_PATTERN.test(name.slice(0, -STAGING.length))),
    };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { ids: [], staging: [] };
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

/**
 * The id of the `n`-th other pet of a visit: the visit's start time and a suffix taken from the
 * visit's id, so the split, made again after a kill or a full disk, finds the folders it made
 * instead of making new ones. `salt` moves an id off a folder already taken.
 */
export function petId(visitId: string, n: number, salt = 0): string {
  checkId(visitId);
  const suffix = createHash('sha256').update(`${visitId}/pet/${n}/${salt}`).digest('hex').slice(0, 6);
  return `${visitId.slice(0, 21)}${suffix}`;
}

/**
 * Where a pet's folder is put together before it takes its name in one rename: a folder that is
 * not a recording's (`recordingIds` skips it), so a kill half-way leaves no consult without its
 * audio or meta, and launch recovers nothing from it.
 */
export function stagingOf(dir: string, id: string): string {
  return `${folderOf(dir, id)}${STAGING}`;
}
