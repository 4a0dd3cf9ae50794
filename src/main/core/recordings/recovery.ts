// A recording cut short by a crash, found at launch: leftovers of a half-done atomic write are
// removed, the WebM gets its Duration where the audio allows, and the recording becomes
// `recovered`. A folder whose meta.json is missing or damaged but whose audio is there gets a
// meta rebuilt from the audio file and the folder's name.
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { readJson } from '../atomic-file.ts';
import { fixWebmDuration } from '../webm-duration.ts';
import { audioSize } from './chunk-writer.ts';
import { READ_AT_ONCE } from './folders.ts';
import { parseMeta, type RecordingMeta } from './meta.ts';

const LEFTOVER = /^(audio\.webm|meta\.json)\..+\.tmp$/;

/**
 * Runs `recover` for every id, a few at a time, and returns the recordings recovered. One
 * damaged folder must not keep the others from being recovered: its failure is logged.
 */
export async function recoverEach(
  ids: string[],
  log: (line: string) => void,
  recover: (id: string) => Promise<RecordingMeta | null>,
): Promise<RecordingMeta[]> {
  const limit = pLimit(READ_AT_ONCE);
  const recovered = await Promise.all(
    ids.map((id) =>
      limit(async () => {
        try {
          return await recover(id);
        } catch (e) {
          log(`recordings: ${id} could not be recovered: ${(e as Error).message}`);
          return null;
        }
      }),
    ),
  );
  return recovered.filter((m): m is RecordingMeta => m !== null);
}

/** Where one recording lives, and what the store lends recovery to write with. */
export interface RecoveryTarget {
  id: string;
  folder: string;
  audioPath: string;
  metaPath: string;
  now: () => number;
  log: (line: string) => void;
  writeMeta: (meta: RecordingMeta) => Promise<void>;
}

/** The recording recovered now; null when it needs none (ended already) or has nothing to recover. */
export async function recoverOne(t: RecoveryTarget): Promise<RecordingMeta | null> {
  const { id, folder } = t;
  for (const name of await readdir(folder)) if (LEFTOVER.test(name)) await rm(join(folder, name), { force: true });
  let meta: RecordingMeta | null;
  try {
    meta = parseMeta(await readJson(t.metaPath), id);
  } catch {
    meta = null;
  }
  const audio = await stat(t.audioPath).catch(() => null);
  if (meta === null && audio === null) return null;
  if (meta !== null && (meta.state === 'finished' || meta.state === 'recovered')) return null;
  if (meta === null) t.log(`recordings: ${id} has audio but no readable meta.json; rebuilding it from the audio`);

  const fix = audio !== null && audio.size > 0 ? await fixWebmDuration(t.audioPath) : null;
  const base = meta ?? {
    id,
    // The id is the start time (`2026-11-21T10-15-02Z-ab12cd`).
    startedAt: `${id.slice(0, 10)}T${id.slice(11, 19).replace(/-/g, ':')}.000Z`,
    updatedAt: (audio?.mtime ?? new Date(t.now())).toISOString(),
    finishedAt: null,
    durationMs: 0,
    mimeType:
      fix?.codecId === 'A_OPUS' ? 'audio/webm;codecs=opus' : fix?.codecId ? 'audio/webm' : 'application/octet-stream',
    label: null,
    patientName: null,
    description: null,
    templateId: null,
    state: 'recovered' as const,
    bytes: 0,
    chunks: 0,
    durationFixed: null,
    owner: null,
    consentAt: null,
    listName: null,
  };
  const next: RecordingMeta = {
    ...base,
    state: 'recovered',
    durationMs: Math.round(fix?.durationMs ?? base.durationMs),
    bytes: await audioSize(t.audioPath),
    durationFixed: fix?.fixed ?? false,
    updatedAt: new Date(t.now()).toISOString(),
  };
  await t.writeMeta(next);
  return next;
}
