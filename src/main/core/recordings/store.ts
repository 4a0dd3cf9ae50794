// The durable store of consult recordings: `<dir>/<id>/audio.webm` and `<dir>/<id>/meta.json`.
// The renderer's MediaRecorder hands over one chunk a second; each is appended and fdatasync'd
// before the call answers (chunk-writer.ts), then meta.json is replaced atomically, so a crash
// at any moment leaves every acknowledged chunk on disk and a meta that is at most one chunk
// behind the audio. At launch, what a crash cut short is recovered (recovery.ts).
// Calls for one recording run one after the other (a queue per id), whatever IPC does.
import { access, copyFile, link, mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import pLimit from 'p-limit';
import type { ConsultOwner } from '../../../shared/ipc.ts';
import { readJson, writeJsonAtomic, KeyedQueue, Refusal } from '../platform/index.ts';
import { fixWebmDuration, syncDir } from './webm-duration.ts';
import { appendBytes, audioSize, checkChunk, chunkFailure, createAudio, isNextChunk } from './chunk-writer.ts';
import { guard } from './errors.ts';
import {
  AUDIO,
  checkId,
  folderOf,
  META,
  newFolder,
  petId,
  READ_AT_ONCE,
  recordingFolders,
  recordingIds,
  stagingOf,
} from './folders.ts';
import {
  checkMimeType,
  checkTexts,
  cleanText,
  isWebm,
  newMeta,
  parseMeta,
  patched,
  type MetaPatch,
  type RecordingMeta,
  type RecordingState,
  type StartInput,
} from './meta.ts';
import { openEach, openOne, type OpenedAll } from './recovery.ts';
import { readIndex, writeIndex, type IndexedJobs } from './consult-index.ts';

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

const newestFirst = (a: RecordingMeta, b: RecordingMeta): number =>
  a.startedAt === b.startedAt ? b.id.localeCompare(a.id) : b.startedAt.localeCompare(a.startedAt);

export class RecordingStore {
  private readonly dir: string;
  /** The consults' index (consult-index.ts) a start reads instead of every folder; none: every folder is read. */
  private readonly indexFile: string | null;
  private readonly now: () => number;
  private readonly log: (line: string) => void;
  private readonly queue = new KeyedQueue();
  /**
   * Each recording's meta as last written or read here. Everything this store writes passes
   * through it, so what it says of a consult (its owner above all) is what is on disk.
   */
  private readonly metas = new Map<string, RecordingMeta>();
  /**
   * Told of every meta written (a chunk, a claim, a rename), with the one it replaced (none for
   * a recording just made), and of every recording deleted.
   */
  onChange?: (meta: RecordingMeta, before: RecordingMeta | undefined) => void;
  onDelete?: (id: string) => void;

  constructor(opts: { dir: string; indexFile?: string; now?: () => number; log?: (line: string) => void }) {
    this.dir = opts.dir;
    this.indexFile = opts.indexFile ?? null;
    this.now = opts.now ?? Date.now;
    this.log = opts.log ?? (() => {});
  }

  audioPath(id: string): string {
    return join(this.folder(id), AUDIO);
  }

  async start(input: StartInput): Promise<RecordingMeta> {
    checkMimeType(input.mimeType);
    checkTexts(input);
    const at = this.now();
    return guard(async () => {
      const id = await newFolder(this.dir, at);
      await createAudio(this.audioPath(id));
      const meta = newMeta(id, new Date(at).toISOString(), input);
      await this.writeMeta(meta);
      await syncDir(this.dir);
      return meta;
    });
  }

  async appendChunk(id: string, seq: number, data: Uint8Array, elapsedMs?: number): Promise<RecordingMeta> {
    checkId(id);
    checkChunk(seq, data, elapsedMs);
    return this.serial(id, async () => {
      const meta = await this.load(id);
      if (!isNextChunk(meta, seq, data)) return meta;
      try {
        const bytes = await appendBytes(this.audioPath(id), meta.bytes, data);
        const chunks = meta.chunks + 1;
        const next: RecordingMeta = {
          ...meta,
          bytes,
          chunks,
          durationMs: Math.round(elapsedMs ?? chunks * 1000),
          updatedAt: new Date(this.now()).toISOString(),
        };
        await this.writeMeta(next);
        return next;
      } catch (e) {
        throw chunkFailure(e);
      }
    });
  }

  /**
   * Makes `owner` the consult's owner: a vet takes a consult recorded with no one signed in (or
   * under another service) as theirs. Whether they may is the access gate's to say
   * (consult-gate.ts); this only writes it, in the one place the gate reads.
   */
  async claim(id: string, owner: ConsultOwner): Promise<RecordingMeta> {
    return this.serial(id, async () => {
      const meta = await this.load(id);
      if (meta.owner?.userId === owner.userId && meta.owner.service === owner.service) return meta;
      const next: RecordingMeta = { ...meta, owner, updatedAt: new Date(this.now()).toISOString() };
      await this.writeMeta(next);
      return next;
    });
  }

  async pause(id: string): Promise<RecordingMeta> {
    return this.transition(id, 'paused', ['recording', 'paused']);
  }

  async resume(id: string): Promise<RecordingMeta> {
    return this.transition(id, 'recording', ['recording', 'paused']);
  }

  async update(id: string, patch: MetaPatch): Promise<RecordingMeta> {
    checkId(id);
    checkTexts(patch);
    return this.serial(id, async () => {
      const next = patched(await this.load(id), patch, new Date(this.now()).toISOString());
      await this.writeMeta(next);
      return next;
    });
  }

  /**
   * Ends a recording (or accepts a recovered one): writes the WebM Duration and takes the length
   * from the audio itself. If the Duration cannot be written (a damaged tail), the audio is kept
   * exactly as it is and the recording still finishes, with `durationFixed: false`. Finishing a
   * finished recording answers it unchanged, so a repeated stop is harmless.
   */
  async finish(id: string, input: { durationMs?: number } = {}): Promise<RecordingMeta> {
    checkId(id);
    return this.serial(id, async () => {
      const meta = await this.load(id);
      if (meta.state === 'finished') return meta;
      let durationMs =
        input.durationMs !== undefined && Number.isFinite(input.durationMs) && input.durationMs >= 0
          ? input.durationMs
          : meta.durationMs;
      let durationFixed = meta.durationFixed ?? false;
      if (!(meta.state === 'recovered' && meta.durationFixed === true) && meta.bytes > 0 && isWebm(meta.mimeType)) {
        const fix = await fixWebmDuration(this.audioPath(id));
        if (!fix.fixed)
          this.log(
            `recordings: Duration of ${id} not written (${fix.reason ?? 'unknown'}); the audio is kept as recorded`,
          );
        durationMs = fix.durationMs ?? durationMs;
        durationFixed = fix.fixed;
      }
      const iso = new Date(this.now()).toISOString();
      const next: RecordingMeta = {
        ...meta,
        state: 'finished',
        finishedAt: iso,
        updatedAt: iso,
        durationMs: Math.round(durationMs),
        bytes: await audioSize(this.audioPath(id)),
        durationFixed,
      };
      await this.writeMeta(next);
      return next;
    });
  }

  /**
   * Ids for the `count` other pets of the visit recorded in `visitId`, derived from it
   * (`petId`) and free on disk, to be journaled before any pet is made.
   */
  async petIds(visitId: string, count: number): Promise<string[]> {
    checkId(visitId);
    return guard(async () => {
      const ids: string[] = [];
      for (let n = 0; n < count; n++) {
        for (let salt = 0; ; salt++) {
          const id = petId(visitId, n, salt);
          if (id === visitId || ids.includes(id)) continue;
          if (!(await exists(this.folder(id))) && !(await exists(stagingOf(this.dir, id)))) {
            ids.push(id);
            break;
          }
        }
      }
      return ids;
    });
  }

  /**
   * Another pet of the same visit, as the recording `input.id` (chosen by `petIds` and journaled
   * first): its audio is the finished recording's own (a hard link, or a copy where the disk
   * cannot link), under the pet's name and the visit's id. The rest (owner, template,
   * description, times) is the visit's. A finished recording's audio is never written again, so
   * the two names of one file cannot drift apart; deleting one consult leaves the other's audio
   * whole. Made once: asked again (after a kill or a full disk), it answers the pet made before.
   * The folder is put together aside and takes its name in one rename, so a pet either is there
   * whole or not at all.
   */
  async addPet(
    sourceId: string,
    input: { id: string; patientName: string | null; visitId: string },
  ): Promise<RecordingMeta> {
    checkId(sourceId);
    checkId(input.id);
    checkId(input.visitId);
    checkTexts({ patientName: input.patientName });
    return this.serial(sourceId, async () => {
      const made = await this.read(input.id);
      if (made) {
        if (made.visitId !== input.visitId)
          throw new Refusal('bad_state', 'Another consult already has the id chosen for this pet.');
        return made;
      }
      const source = await this.load(sourceId);
      if (source.state !== 'finished' && source.state !== 'recovered')
        throw new Refusal('bad_state', 'Another pet can be added to a recording only once it has stopped.');
      const staging = stagingOf(this.dir, input.id);
      try {
        // What a try cut short left is put together again from the start.
        await rm(staging, { recursive: true, force: true });
        await mkdir(staging);
        await link(this.audioPath(sourceId), join(staging, AUDIO)).catch(() =>
          copyFile(this.audioPath(sourceId), join(staging, AUDIO)),
        );
        const { pets: _named, split: _split, ...visit } = source;
        const meta: RecordingMeta = {
          ...visit,
          id: input.id,
          patientName: cleanText(input.patientName),
          visitId: input.visitId,
          listName: null,
          updatedAt: new Date(this.now()).toISOString(),
        };
        await writeJsonAtomic(join(staging, META), meta);
        await rename(staging, this.folder(input.id));
        await syncDir(this.dir);
        const before = this.metas.get(meta.id);
        this.metas.set(meta.id, meta);
        this.onChange?.(meta, before);
        return meta;
      } catch (e) {
        // Half made (a full disk): nothing of it is left to be taken for a consult.
        await rm(staging, { recursive: true, force: true }).catch(() => undefined);
        throw e;
      }
    });
  }

  /** The recording, or null when there is none (or its meta.json is unreadable). */
  async get(id: string): Promise<RecordingMeta | null> {
    checkId(id);
    return guard(() => this.read(id));
  }

  /** All recordings, newest first. */
  async list(): Promise<RecordingMeta[]> {
    return guard(async () => {
      // A few files at a time rather than one after another: a clinic's years of consults are
      // read at every launch, before the window opens.
      const limit = pLimit(READ_AT_ONCE);
      const ids = await recordingIds(this.dir);
      const metas = (await Promise.all(ids.map((id) => limit(() => this.read(id))))).filter(
        (m): m is RecordingMeta => m !== null,
      );
      return metas.sort(newestFirst);
    });
  }

  /**
   * At launch, in one pass that reads each folder once: every recording still `recording` or
   * `paused` was cut short by a crash and becomes `recovered`, with its Duration written where
   * the audio allows. A folder whose meta.json is missing or damaged but whose audio is there is
   * recovered too, its meta rebuilt from the file. Returns every recording, newest first, those
   * recovered now, and the names in each folder.
   */
  async open(): Promise<OpenedAll> {
    const { ids, staging } = await guard(() => recordingFolders(this.dir));
    // A pet's folder a kill left half put together is no consult: its visit makes it again whole.
    for (const name of staging) await rm(join(this.dir, name), { recursive: true, force: true }).catch(() => undefined);
    // What the consults' index still holds is taken from it; every other folder is read.
    const index = this.indexFile ? await readIndex(this.indexFile, this.log) : null;
    const indexed = new Map<string, IndexedJobs>();
    const fromIndex: RecordingMeta[] = [];
    const toRead: string[] = [];
    for (const id of ids) {
      const kept = index?.trusted(id, this.folder(id));
      if (!kept) {
        toRead.push(id);
        continue;
      }
      this.metas.set(id, kept.meta);
      fromIndex.push(kept.meta);
      indexed.set(id, kept.jobs);
    }
    if (index && toRead.length > 0)
      this.log(
        `recordings: ${toRead.length} of ${ids.length} consults read from their folders, the rest from the index`,
      );
    const { all, recovered, listing } = await openEach(
      toRead,
      this.log,
      (id) =>
        this.serial(id, () =>
          openOne({
            id,
            folder: this.folder(id),
            audioPath: this.audioPath(id),
            metaPath: this.metaPath(id),
            now: this.now,
            log: this.log,
            writeMeta: (meta) => this.writeMeta(meta),
            read: (meta) => this.metas.set(id, meta),
          }),
        ),
      (id) => this.read(id),
    );
    return { all: [...fromIndex, ...all].sort(newestFirst), recovered, listing, indexed };
  }

  /**
   * Writes the consults' index (consult-index.ts) of every recording this store knows, with each
   * consult's job and documents as `jobs` answers them. Answers how many consults it holds.
   */
  async saveIndex(jobs: (id: string) => IndexedJobs): Promise<number> {
    const file = this.indexFile;
    if (!file) return 0;
    const folders = [...this.metas.keys()].map((id): [string, string] => [id, this.folder(id)]);
    return guard(() => writeIndex(file, folders, (id) => this.metas.get(id), jobs));
  }

  /** The recordings cut short by a crash, recovered now (`open` without the list). */
  async recoverUnfinished(): Promise<RecordingMeta[]> {
    return (await this.open()).recovered;
  }

  async delete(id: string): Promise<void> {
    checkId(id);
    await this.serial(id, () => rm(this.folder(id), { recursive: true, force: true }));
    this.metas.delete(id);
    this.onDelete?.(id);
  }

  /** The recording's meta as this store last wrote or read it; undefined for one it does not know. */
  peek(id: string): RecordingMeta | undefined {
    return this.metas.get(id);
  }

  private async writeMeta(meta: RecordingMeta): Promise<void> {
    await writeJsonAtomic(this.metaPath(meta.id), meta);
    const before = this.metas.get(meta.id);
    this.metas.set(meta.id, meta);
    this.onChange?.(meta, before);
  }

  /**
   * Every recording this store knows: after `open`, every one on disk, each as last written or
   * read. The engine's one in-memory copy of the recordings: the consults list reads it here.
   */
  known(): IterableIterator<RecordingMeta> {
    return this.metas.values();
  }

  /** How many recordings this store knows. */
  count(): number {
    return this.metas.size;
  }

  private async transition(id: string, to: RecordingState, from: RecordingState[]): Promise<RecordingMeta> {
    checkId(id);
    return this.serial(id, async () => {
      const meta = await this.load(id);
      if (meta.state === to) return meta;
      if (!from.includes(meta.state))
        throw new Refusal(
          'bad_state',
          `This recording is ${meta.state}; it cannot be ${to === 'paused' ? 'paused' : 'resumed'}.`,
        );
      const next: RecordingMeta = { ...meta, state: to, updatedAt: new Date(this.now()).toISOString() };
      await this.writeMeta(next);
      return next;
    });
  }

  private async read(id: string): Promise<RecordingMeta | null> {
    let raw: unknown;
    try {
      raw = await readJson(this.metaPath(id));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
      this.log(`recordings: meta.json of ${id} is unreadable: ${(e as Error).message}`);
      return null;
    }
    if (raw === null) return null;
    const meta = parseMeta(raw, id);
    if (!meta) this.log(`recordings: meta.json of ${id} has an unknown shape`);
    else this.metas.set(id, meta);
    return meta;
  }

  private async load(id: string): Promise<RecordingMeta> {
    const meta = await this.read(id);
    if (!meta) throw new Refusal('not_found', 'That recording is not on this computer.');
    return meta;
  }

  private folder(id: string): string {
    return folderOf(this.dir, id);
  }

  private metaPath(id: string): string {
    return join(this.folder(id), META);
  }

  /** Runs calls for one recording one after the other, in the order they were made; a failed call does not hold up the next. */
  private serial<T>(id: string, task: () => Promise<T>): Promise<T> {
    return this.queue.run(id, () => guard(task));
  }
}
