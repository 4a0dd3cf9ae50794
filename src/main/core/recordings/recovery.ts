// Every recording folder at launch, each read once: leftovers of a half-done atomic write are
// removed and the meta is read; a recording cut short by a crash gets its WebM Duration where
// the audio allows and becomes `recovered`. A folder whose meta.json is missing or damaged but
// whose audio is there gets a meta rebuilt from the audio file and the folder's name. The same
// pass gives the list the window opens on, so a clinic's years of consults are read once, not
// once to recover and again to list.
import { readdir as readdirCallback } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { readJson } from '../platform/index.ts';
import { fixWebmDuration } from './webm-duration.ts';
import { audioSize } from './chunk-writer.ts';
import { AUDIO, META, READ_AT_ONCE } from './folders.ts';
import { parseMeta, type RecordingMeta } from './meta.ts';
import type { IndexedJobs } from './consult-index.ts';

const LEFTOVER = /^(audio\.webm|meta\.json)\..+\.tmp$/;

/** A folder's names, by the callback form: fewer round trips than fs/promises, at every folder of a launch. */
function listFolder(folder: string): Promise<string[]> {
  return new Promise((resolve, reject) => readdirCallback(folder, (e, names) => (e ? reject(e) : resolve(names))));
}

/** One folder as launch found it: its meta (null when there is no recording in it), and whether it was recovered now. */
export interface Opened {
  meta: RecordingMeta | null;
  recovered: boolean;
  /** The names in the folder as launch found them (none known when the folder could not be read). */
  names?: readonly string[];
}

/** What launch found: every recording, those recovered now, and the names in each folder. */
export interface OpenedAll {
  all: RecordingMeta[];
  recovered: RecordingMeta[];
  /** The names in each recording's folder, so the jobs' files are read only where they are. */
  listing: Map<string, readonly string[]>;
  /** The job and documents of each consult taken from the consults' index, whose files are not read. */
  indexed: Map<string, IndexedJobs>;
}

/**
 * Runs `open` for every id, a few at a time, and returns every recording (in no particular
 * order) and those recovered now. One damaged folder must not keep the others from being
 * opened: its failure is logged, and the recording is listed as `fallback` reads it (a recovery
 * that a full disk refused still leaves the recording in the list, to be recovered next time).
 */
export async function openEach(
  ids: string[],
  log: (line: string) => void,
  open: (id: string) => Promise<Opened>,
  fallback: (id: string) => Promise<RecordingMeta | null>,
): Promise<Omit<OpenedAll, 'indexed'>> {
  const limit = pLimit(READ_AT_ONCE);
  const opened = await Promise.all(
    ids.map((id) =>
      limit(async (): Promise<Opened> => {
        try {
          return await open(id);
        } catch (e) {
          log(`recordings: ${id} could not be recovered: ${(e as Error).message}`);
          return { meta: await fallback(id).catch(() => null), recovered: false };
        }
      }),
    ),
  );
  const all: RecordingMeta[] = [];
  const recovered: RecordingMeta[] = [];
  const listing = new Map<string, readonly string[]>();
  for (const o of opened) {
    if (o.meta === null) continue;
    all.push(o.meta);
    if (o.recovered) recovered.push(o.meta);
    if (o.names) listing.set(o.meta.id, o.names);
  }
  return { all, recovered, listing };
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
  /** Told of the meta read from the folder (the store keeps what it read). */
  read: (meta: RecordingMeta) => void;
}

/**
 * One folder at launch, read once: its leftovers removed and its meta read; a recording that
 * ended already is answered as it is, one cut short is recovered now. A folder with neither a
 * readable meta nor audio holds no recording.
 */
export async function openOne(t: RecoveryTarget): Promise<Opened> {
  const { id, folder } = t;
  // The listing says which files are there, so a recording that ended is one more read only.
  const names = await listFolder(folder);
  for (const name of names) if (LEFTOVER.test(name)) await rm(join(folder, name), { force: true });
  let meta: RecordingMeta | null = null;
  if (names.includes(META)) {
    try {
      meta = parseMeta(await readJson(t.metaPath), id);
      if (meta === null) t.log(`recordings: meta.json of ${id} has an unknown shape`);
    } catch (e) {
      t.log(`recordings: meta.json of ${id} is unreadable: ${(e as Error).message}`);
    }
  }
  if (meta !== null && (meta.state === 'finished' || meta.state === 'recovered')) {
    t.read(meta);
    return { meta, recovered: false, names };
  }
  const audio = names.includes(AUDIO) ? await stat(t.audioPath).catch(() => null) : null;
  if (meta === null && audio === null) return { meta: null, recovered: false };
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
  return { meta: next, recovered: true, names };
}
