// The durable store of consult recordings: `<dir>/<id>/audio.webm` and `<dir>/<id>/meta.json`.
// The renderer's MediaRecorder hands over one chunk a second; each is appended and fdatasync'd
// before the call answers, then meta.json is replaced atomically, so a crash at any moment
// leaves every acknowledged chunk on disk and a meta that is at most one chunk behind the audio.
//
// Chunks must arrive in order: the renderer sends chunk n+1 only after chunk n was answered.
// A resend of a chunk already written is ignored (its answer may have been lost); a chunk that
// skips ahead is refused with the seq that was expected, so the caller resends the missing one.
// Calls for one recording run one after the other (a queue per id), whatever IPC does.
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { MAX_CHUNK_BYTES, type ConsultOwner } from '../../shared/ipc.ts';
import { readJson, writeJsonAtomic } from './atomic-file.ts';
import { diskErrorCode, diskErrorMessage } from './disk-errors.ts';
import { fixWebmDuration, isEbml, syncDir } from './webm-duration.ts';
import pLimit from 'p-limit';

/** Files read at once at launch: enough to keep the disk busy, far below any open-files limit. */
export const READ_AT_ONCE = 16;

export type RecordingState = 'recording' | 'paused' | 'finished' | 'recovered';

export interface RecordingMeta {
  id: string;
  startedAt: string;
  updatedAt: string;
  finishedAt: string | null;
  durationMs: number;
  mimeType: string;
  label: string | null;
  /** The patient spoken of in the audio; the service needs it before the consult is sent. */
  patientName: string | null;
  /** The visit's description, sent with the patient's name; optional. */
  description: string | null;
  templateId: string | null;
  state: RecordingState;
  bytes: number;
  chunks: number;
  /** Whether the WebM got its Duration written; null until the recording ends. */
  durationFixed: boolean | null;
  /** The account signed in when it was recorded; null for older recordings, or none signed in. */
  owner: ConsultOwner | null;
  /** When the vet said the owner consented to the recording (Settings asks at Start); null when not asked. */
  consentAt: string | null;
  /** The name the vet listed the consult under after it was sent (on this computer only); null when not renamed. */
  listName: string | null;
}

export type RecordingErrorCode = 'bad_id' | 'bad_input' | 'not_found' | 'bad_state' | 'bad_chunk' | 'chunk_gap' | 'io' | 'disk_full' | 'read_only';

export class RecordingError extends Error {
  readonly code: RecordingErrorCode;
  /** For `chunk_gap`: the seq the store is waiting for. */
  readonly expectedSeq: number | null;
  constructor(code: RecordingErrorCode, message: string, options?: { cause?: unknown; expectedSeq?: number }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'RecordingError';
    this.code = code;
    this.expectedSeq = options?.expectedSeq ?? null;
  }
}

const AUDIO = 'audio.webm';
const META = 'meta.json';
// `2026-11-21T10-15-02Z-ab12cd`: sorts by time, safe as a file name on every platform.
const ID_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z-[0-9a-f]{6}$/;
const MIME_PATTERN = /^[a-z]+\/[a-z0-9.+-]+(;[\x20-\x7e]*)?$/i;
const LEFTOVER = /^(audio\.webm|meta\.json)\..+\.tmp$/;
const STATES: readonly string[] = ['recording', 'paused', 'finished', 'recovered'];

function isWebm(mimeType: string): boolean {
  return /^(audio|video)\/webm\b/i.test(mimeType);
}

function parseMeta(value: unknown, id: string): RecordingMeta | null {
  if (typeof value !== 'object' || value === null) return null;
  const m = value as Record<string, unknown>;
  const str = (k: string) => typeof m[k] === 'string';
  const strOrNull = (k: string) => m[k] === null || typeof m[k] === 'string';
  const count = (k: string) => typeof m[k] === 'number' && Number.isFinite(m[k]) && m[k] >= 0;
  const ok =
    m['id'] === id &&
    str('startedAt') &&
    str('updatedAt') &&
    strOrNull('finishedAt') &&
    count('durationMs') &&
    str('mimeType') &&
    strOrNull('label') &&
    strOrNull('templateId') &&
    STATES.includes(m['state'] as string) &&
    count('bytes') &&
    count('chunks');
  if (!ok) return null;
  const fixed = m['durationFixed'];
  // Members added after a meta file was written read as null: a recording is never lost over
  // a member it could not have had.
  const text = (k: string) => (typeof m[k] === 'string' ? (m[k] as string) : null);
  return {
    ...(m as unknown as RecordingMeta),
    patientName: text('patientName'),
    description: text('description'),
    consentAt: text('consentAt'),
    listName: text('listName'),
    durationFixed: typeof fixed === 'boolean' ? fixed : null,
    owner: parseOwner(m['owner']),
  };
}

function parseOwner(value: unknown): ConsultOwner | null {
  if (typeof value !== 'object' || value === null) return null;
  const o = value as Record<string, unknown>;
  const ok = ['userId', 'organizationId', 'name', 'email', 'service'].every((k) => typeof o[k] === 'string');
  return ok
    ? { userId: o['userId'] as string, organizationId: o['organizationId'] as string, name: o['name'] as string, email: o['email'] as string, service: o['service'] as string }
    : null;
}

const MAX_NAME = 200;
const MAX_DESCRIPTION = 2000;

function checkTexts(input: { label?: unknown; patientName?: unknown; description?: unknown; templateId?: unknown; listName?: unknown }): void {
  for (const [key, max] of [['label', MAX_NAME], ['listName', MAX_NAME], ['patientName', MAX_NAME], ['templateId', MAX_NAME], ['description', MAX_DESCRIPTION]] as const) {
    const v = input[key];
    if (v !== undefined && v !== null && (typeof v !== 'string' || v.length > max)) {
      throw new RecordingError('bad_input', `${key} must be text of at most ${max} characters, or null.`);
    }
  }
}

/** A name of spaces only is no name: the service would be sent nothing it can use. */
function cleanName(name: string | null | undefined): string | null {
  const trimmed = name?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

function cleanDescription(text: string | null | undefined): string | null {
  const trimmed = text?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/**
 * The recording's calendar day where it was made (`YYYY-MM-DD`, this computer's time zone): a
 * consult at 00:30 belongs to that day, not to the UTC day before.
 */
export function localDate(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export class RecordingStore {
  private readonly dir: string;
  private readonly now: () => number;
  private readonly log: (line: string) => void;
  private readonly queues = new Map<string, Promise<unknown>>();
  /**
   * Each recording's meta as last written or read here. Everything this store writes passes
   * through it, so what it says of a consult (its owner above all) is what is on disk.
   */
  private readonly known = new Map<string, RecordingMeta>();
  /** Told of every meta written (a chunk, a claim, a rename) and of every recording deleted. */
  onChange?: (meta: RecordingMeta) => void;
  onDelete?: (id: string) => void;

  constructor(opts: { dir: string; now?: () => number; log?: (line: string) => void }) {
    this.dir = opts.dir;
    this.now = opts.now ?? Date.now;
    this.log = opts.log ?? (() => {});
  }

  audioPath(id: string): string {
    return join(this.folder(id), AUDIO);
  }

  async start(input: {
    mimeType: string;
    label?: string | null;
    patientName?: string | null;
    description?: string | null;
    templateId?: string | null;
    owner?: ConsultOwner | null;
    /** The owner consented, as the vet confirmed at Start: stamped with the start's time. */
    ownerConsented?: boolean;
  }): Promise<RecordingMeta> {
    const mimeType = input.mimeType;
    if (typeof mimeType !== 'string' || mimeType.length > 200 || !MIME_PATTERN.test(mimeType)) {
      throw new RecordingError('bad_input', `"${String(mimeType).slice(0, 80)}" is not a media type.`);
    }
    checkTexts(input);
    const at = this.now();
    return this.guard(async () => {
      const id = await this.newFolder(at);
      // The empty audio file exists from the start, so a crash before the first chunk still
      // leaves a folder that recovery recognises.
      const audio = await open(this.audioPath(id), 'wx', 0o600);
      try {
        await audio.sync();
      } finally {
        await audio.close();
      }
      const iso = new Date(at).toISOString();
      const meta: RecordingMeta = {
        id,
        startedAt: iso,
        updatedAt: iso,
        finishedAt: null,
        durationMs: 0,
        mimeType,
        label: input.label ?? null,
        patientName: cleanName(input.patientName),
        description: cleanDescription(input.description),
        templateId: input.templateId ?? null,
        state: 'recording',
        bytes: 0,
        chunks: 0,
        durationFixed: null,
        owner: input.owner ?? null,
        consentAt: input.ownerConsented ? iso : null,
        listName: null,
      };
      await this.writeMeta(meta);
      await syncDir(this.dir);
      return meta;
    });
  }

  async appendChunk(id: string, seq: number, data: Uint8Array, elapsedMs?: number): Promise<RecordingMeta> {
    this.checkId(id);
    if (!Number.isSafeInteger(seq) || seq < 0) throw new RecordingError('bad_chunk', `Chunk number ${String(seq)} is not a whole number from 0.`);
    if (!(data instanceof Uint8Array)) throw new RecordingError('bad_chunk', 'A chunk must be bytes.');
    if (data.byteLength > MAX_CHUNK_BYTES) {
      throw new RecordingError('bad_chunk', `Chunk ${seq} is ${data.byteLength} bytes; a chunk may be at most ${MAX_CHUNK_BYTES} bytes.`);
    }
    if (elapsedMs !== undefined && !(Number.isFinite(elapsedMs) && elapsedMs >= 0)) {
      throw new RecordingError('bad_chunk', `Elapsed time ${String(elapsedMs)} is not a length of time.`);
    }
    return this.serial(id, async () => {
      const meta = await this.load(id);
      if (meta.state === 'finished' || meta.state === 'recovered') {
        throw new RecordingError('bad_state', `This recording is ${meta.state}; no more audio can be added to it.`);
      }
      if (seq < meta.chunks) return meta;
      if (seq > meta.chunks) {
        throw new RecordingError('chunk_gap', `Chunk ${seq} arrived before chunk ${meta.chunks}; send chunk ${meta.chunks} first.`, {
          expectedSeq: meta.chunks,
        });
      }
      if (meta.bytes === 0 && data.byteLength > 0 && isWebm(meta.mimeType) && !isEbml(data)) {
        throw new RecordingError('bad_chunk', 'The first audio of this recording does not start with a WebM header.');
      }
      try {
        const bytes = await this.appendBytes(id, meta.bytes, data);
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
        // The chunk is not confirmed: the audio stays as it was at the last confirmed chunk (a
        // retry drops whatever part of this one reached the disk), and the vet is told why.
        const kind = e instanceof RecordingError ? null : diskErrorCode(e);
        if (!kind) throw e;
        throw new RecordingError(kind, diskErrorMessage(kind, 'The recording so far is kept, and saving goes on once there is room.'), { cause: e });
      }
    });
  }

  /**
   * Appends `data` at `at` (the confirmed length) and returns the new length, only once every
   * byte is on disk. A write may take fewer bytes than it was given (a disk nearly full, a file
   * size limit): it is called again for the rest, and a file that does not end up exactly
   * `at + data.byteLength` long is cut back to `at` and refused.
   */
  private async appendBytes(id: string, at: number, data: Uint8Array): Promise<number> {
    const handle = await open(this.audioPath(id), 'r+', 0o600).catch(async (e: unknown) => {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return open(this.audioPath(id), 'w+', 0o600);
      throw e;
    });
    try {
      // Bytes past the last acknowledged chunk belong to a write that failed and is being
      // sent again: drop them, or the file would hold that chunk twice.
      if ((await handle.stat()).size !== at) await handle.truncate(at);
      let written = 0;
      try {
        while (written < data.byteLength) {
          const { bytesWritten } = await handle.write(data, written, data.byteLength - written, at + written);
          if (bytesWritten <= 0) throw Object.assign(new Error('the disk took no more bytes'), { code: 'ENOSPC', syscall: 'write' });
          written += bytesWritten;
        }
        await handle.datasync();
        const size = (await handle.stat()).size;
        if (size !== at + data.byteLength) throw Object.assign(new Error(`the file is ${size} bytes, not ${at + data.byteLength}`), { code: 'EIO', syscall: 'write' });
        return size;
      } catch (e) {
        await handle.truncate(at).catch(() => undefined);
        throw e;
      }
    } finally {
      await handle.close();
    }
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

  async update(
    id: string,
    patch: { label?: string | null; patientName?: string | null; description?: string | null; templateId?: string | null; listName?: string | null },
  ): Promise<RecordingMeta> {
    this.checkId(id);
    checkTexts(patch);
    return this.serial(id, async () => {
      const meta = await this.load(id);
      const next: RecordingMeta = {
        ...meta,
        ...(patch.label !== undefined ? { label: patch.label } : {}),
        ...(patch.patientName !== undefined ? { patientName: cleanName(patch.patientName) } : {}),
        ...(patch.description !== undefined ? { description: cleanDescription(patch.description) } : {}),
        ...(patch.templateId !== undefined ? { templateId: patch.templateId } : {}),
        ...(patch.listName !== undefined ? { listName: cleanName(patch.listName) } : {}),
        updatedAt: new Date(this.now()).toISOString(),
      };
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
    this.checkId(id);
    return this.serial(id, async () => {
      const meta = await this.load(id);
      if (meta.state === 'finished') return meta;
      let durationMs = input.durationMs !== undefined && Number.isFinite(input.durationMs) && input.durationMs >= 0 ? input.durationMs : meta.durationMs;
      let durationFixed = meta.durationFixed ?? false;
      if (!(meta.state === 'recovered' && meta.durationFixed === true) && meta.bytes > 0 && isWebm(meta.mimeType)) {
        const fix = await fixWebmDuration(this.audioPath(id));
        if (!fix.fixed) this.log(`recordings: Duration of ${id} not written (${fix.reason ?? 'unknown'}); the audio is kept as recorded`);
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
        bytes: await this.audioSize(id),
        durationFixed,
      };
      await this.writeMeta(next);
      return next;
    });
  }

  /** The recording, or null when there is none (or its meta.json is unreadable). */
  async get(id: string): Promise<RecordingMeta | null> {
    this.checkId(id);
    return this.guard(() => this.read(id));
  }

  /** All recordings, newest first. */
  async list(): Promise<RecordingMeta[]> {
    return this.guard(async () => {
      // A few files at a time rather than one after another: a clinic's years of consults are
      // read at every launch, before the window opens.
      const limit = pLimit(READ_AT_ONCE);
      const ids = await this.ids();
      const metas = (await Promise.all(ids.map((id) => limit(() => this.read(id))))).filter((m): m is RecordingMeta => m !== null);
      return metas.sort((a, b) => (a.startedAt === b.startedAt ? b.id.localeCompare(a.id) : b.startedAt.localeCompare(a.startedAt)));
    });
  }

  /**
   * At launch: every recording still `recording` or `paused` was cut short by a crash. It
   * becomes `recovered`, with its Duration written where the audio allows. A folder whose
   * meta.json is missing or damaged but whose audio is there is recovered too, its meta rebuilt
   * from the file. Returns the recordings recovered now.
   */
  async recoverUnfinished(): Promise<RecordingMeta[]> {
    const limit = pLimit(READ_AT_ONCE);
    const ids = await this.guard(() => this.ids());
    const recovered = await Promise.all(
      ids.map((id) =>
        limit(async () => {
          try {
            return await this.serial(id, () => this.recoverOne(id));
          } catch (e) {
            // One damaged folder must not keep the others from being recovered.
            this.log(`recordings: ${id} could not be recovered: ${(e as Error).message}`);
            return null;
          }
        }),
      ),
    );
    return recovered.filter((m): m is RecordingMeta => m !== null);
  }

  async delete(id: string): Promise<void> {
    this.checkId(id);
    await this.serial(id, () => rm(this.folder(id), { recursive: true, force: true }));
    this.known.delete(id);
    this.onDelete?.(id);
  }

  /** The recording's meta as this store last wrote or read it; undefined for one it does not know. */
  peek(id: string): RecordingMeta | undefined {
    return this.known.get(id);
  }

  private async writeMeta(meta: RecordingMeta): Promise<void> {
    await writeJsonAtomic(this.metaPath(meta.id), meta);
    this.known.set(meta.id, meta);
    this.onChange?.(meta);
  }

  private async recoverOne(id: string): Promise<RecordingMeta | null> {
    const folder = this.folder(id);
    for (const name of await readdir(folder)) if (LEFTOVER.test(name)) await rm(join(folder, name), { force: true });
    let meta: RecordingMeta | null;
    try {
      meta = parseMeta(await readJson(this.metaPath(id)), id);
    } catch {
      meta = null;
    }
    const audio = await stat(this.audioPath(id)).catch(() => null);
    if (meta === null && audio === null) return null;
    if (meta !== null && (meta.state === 'finished' || meta.state === 'recovered')) return null;
    if (meta === null) this.log(`recordings: ${id} has audio but no readable meta.json; rebuilding it from the audio`);

    const fix = audio !== null && audio.size > 0 ? await fixWebmDuration(this.audioPath(id)) : null;
    const base = meta ?? {
      id,
      startedAt: `${id.slice(0, 10)}T${id.slice(11, 19).replace(/-/g, ':')}.000Z`,
      updatedAt: (audio?.mtime ?? new Date(this.now())).toISOString(),
      finishedAt: null,
      durationMs: 0,
      mimeType: fix?.codecId === 'A_OPUS' ? 'audio/webm;codecs=opus' : fix?.codecId ? 'audio/webm' : 'application/octet-stream',
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
      bytes: await this.audioSize(id),
      durationFixed: fix?.fixed ?? false,
      updatedAt: new Date(this.now()).toISOString(),
    };
    await this.writeMeta(next);
    return next;
  }

  /** A new, empty recording folder; its id is the start time plus a random suffix. */
  private async newFolder(at: number): Promise<string> {
    await mkdir(this.dir, { recursive: true });
    for (let attempt = 0; ; attempt++) {
      const id = `${new Date(at).toISOString().slice(0, 19).replace(/:/g, '-')}Z-${randomBytes(3).toString('hex')}`;
      try {
        await mkdir(this.folder(id));
        return id;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 5) throw e;
      }
    }
  }

  private async transition(id: string, to: RecordingState, from: RecordingState[]): Promise<RecordingMeta> {
    this.checkId(id);
    return this.serial(id, async () => {
      const meta = await this.load(id);
      if (meta.state === to) return meta;
      if (!from.includes(meta.state)) throw new RecordingError('bad_state', `This recording is ${meta.state}; it cannot be ${to === 'paused' ? 'paused' : 'resumed'}.`);
      const next: RecordingMeta = { ...meta, state: to, updatedAt: new Date(this.now()).toISOString() };
      await this.writeMeta(next);
      return next;
    });
  }

  private async ids(): Promise<string[]> {
    try {
      return (await readdir(this.dir, { withFileTypes: true })).filter((d) => d.isDirectory() && ID_PATTERN.test(d.name)).map((d) => d.name);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw e;
    }
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
    else this.known.set(id, meta);
    return meta;
  }

  private async load(id: string): Promise<RecordingMeta> {
    const meta = await this.read(id);
    if (!meta) throw new RecordingError('not_found', 'That recording is not on this computer.');
    return meta;
  }

  private async audioSize(id: string): Promise<number> {
    return (await stat(this.audioPath(id)).catch(() => null))?.size ?? 0;
  }

  private folder(id: string): string {
    this.checkId(id);
    return join(this.dir, id);
  }

  private metaPath(id: string): string {
    return join(this.folder(id), META);
  }

  private checkId(id: unknown): asserts id is string {
    if (typeof id !== 'string' || !ID_PATTERN.test(id)) {
      throw new RecordingError('bad_id', `"${String(id).slice(0, 60)}" is not a recording id.`);
    }
  }

  /** Runs calls for one recording one after the other, in the order they were made. */
  private serial<T>(id: string, task: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(id) ?? Promise.resolve();
    const run = previous.then(() => this.guard(task));
    const tail = run.catch(() => undefined);
    this.queues.set(id, tail);
    void tail.then(() => {
      if (this.queues.get(id) === tail) this.queues.delete(id);
    });
    return run;
  }

  /** File-system failures reach callers as RecordingError 'io', with the cause attached. */
  private async guard<T>(task: () => Promise<T>): Promise<T> {
    try {
      return await task();
    } catch (e) {
      if (e instanceof RecordingError) throw e;
      throw new RecordingError('io', `The recording could not be read or written on disk: ${(e as Error).message}`, { cause: e });
    }
  }
}
