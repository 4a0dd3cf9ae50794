// Every consult as the window gets it, read from the engine's one in-memory copy of the
// recordings (the recording store's, which every write of a meta passes through) and the jobs
// (the pipeline's): listing thousands of consults reads no file, and there is no second copy to
// fall out of step. The store tells this module of every meta it writes (`remember`), which is
// where a consult made or moved to another state is announced. Whether the recorder is busy is
// read from here too.
import { randomUUID } from 'node:crypto';
import type { ConsultInfo, ConsultsRevision, RecordingInfo } from '../../../shared/ipc.ts';
import type { RecorderActivity } from '../../../shared/desktop.ts';
import type { JobInfo } from '../../../shared/jobs.ts';
import type { RecordingMeta, RecordingStore } from '../recordings/index.ts';
import type { Emit } from '../platform/index.ts';
import { consultInfo } from './stage.ts';

/** The one mapping of a recording's meta to what crosses IPC. */
export function toRecordingInfo(meta: RecordingMeta): RecordingInfo {
  return {
    id: meta.id,
    startedAt: meta.startedAt,
    finishedAt: meta.finishedAt,
    durationMs: meta.durationMs,
    mimeType: meta.mimeType,
    label: meta.label,
    patientName: meta.patientName,
    description: meta.description,
    templateId: meta.templateId,
    state: meta.state,
    bytes: meta.bytes,
    recordedBy: meta.owner,
    consentAt: meta.consentAt,
    listName: meta.listName,
    visitId: meta.visitId ?? null,
  };
}

export interface ConsultCacheOptions {
  recordings: RecordingStore;
  /** The consult's job, if it has one. */
  job: (id: string) => JobInfo | null;
  emit: Emit;
  /**
   * A consult made, or its state moved (started, paused, stopped): told to the window as its
   * `consult:changed`, to whom may see it. Without it, the window's copy is marked as missing a
   * change, and read again whole when the Consults view opens.
   */
  announce?: (recording: RecordingInfo) => void;
}

export class ConsultCache {
  private readonly options: ConsultCacheOptions;
  /** This engine, told apart from one started before or after it. */
  private readonly engine = randomUUID();
  /** Changes made to the list since start (see `revision`). */
  private changes = 0;
  /** The recordings' ids newest first, kept until one is made or deleted (a start time never changes). */
  private order: string[] | null = null;
  /** The recorder's activity as last told (`recorder:activity`), worked out again when a state moves. */
  private lastActivity: RecorderActivity = 'idle';

  constructor(options: ConsultCacheOptions) {
    this.options = options;
  }

  /** At start, once the store has read every recording: the recorder's activity, before anything is announced. */
  loaded(): void {
    this.lastActivity = this.activity();
  }

  /**
   * A meta the store wrote, with the one it replaced: a consult made or its state moved is
   * announced, and the tray told when the recorder's activity changed. A chunk alone changes
   * nothing the list shows.
   */
  remember(meta: RecordingMeta, before: RecordingMeta | undefined): void {
    if (!before) this.order = null;
    if (before?.state === meta.state) return;
    const info = toRecordingInfo(meta);
    if (this.options.announce) this.options.announce(info);
    else this.changed();
    this.activityMayHaveMoved();
  }

  /** A recording deleted from the store: the window is told, and the tray. */
  forget(id: string): void {
    this.order = null;
    this.options.emit('consult:removed', { id });
    this.activityMayHaveMoved();
  }

  private activityMayHaveMoved(): void {
    const now = this.activity();
    if (now === this.lastActivity) return;
    this.lastActivity = now;
    this.options.emit('recorder:activity', { activity: now });
  }

  /**
   * One change to the list: each `consult:changed` and `consult:removed` sent, a sign-in
   * changed, a change not announced. The window counts the events it hears; a count that
   * differs means it missed one.
   */
  changed(): void {
    this.changes++;
  }

  /** Which engine this is and how many changes it has made to the list (`consults:revision`). */
  revision(): ConsultsRevision {
    return { engine: this.engine, revision: this.changes };
  }

  /** Whether a consult is being recorded (or paused) now, for the tray and the updater. */
  activity(): RecorderActivity {
    let activity: RecorderActivity = 'idle';
    for (const meta of this.options.recordings.known()) {
      if (meta.state === 'recording') return 'recording';
      if (meta.state === 'paused') activity = 'paused';
    }
    return activity;
  }

  /** The recording as the window gets it, or null for one not on this computer. */
  recording(id: string): RecordingInfo | null {
    const meta = this.options.recordings.peek(id);
    return meta ? toRecordingInfo(meta) : null;
  }

  consult(id: string): ConsultInfo | null {
    const recording = this.recording(id);
    return recording ? consultInfo(recording, this.options.job(id)) : null;
  }

  /** Every consult on this computer, whoever's, newest first. */
  all(): ConsultInfo[] {
    return this.newestFirst().map((meta) => consultInfo(toRecordingInfo(meta), this.options.job(meta.id)));
  }

  /**
   * Every recording's meta, newest first, as the store holds it now: what a search reads, without
   * making each consult's answer for the window (its job, its stage) for thousands of consults.
   */
  newestFirst(): RecordingMeta[] {
    const { recordings } = this.options;
    if (!this.order || this.order.length !== recordings.count())
      this.order = [...recordings.known()]
        .sort((a, b) => b.startedAt.localeCompare(a.startedAt))
        .map((meta) => meta.id);
    return this.order.flatMap((id) => recordings.peek(id) ?? []);
  }

  /** Runs `fn` with a recording's info (see `withRecording`). */
  withRecording(id: string, fn: (recording: RecordingInfo) => void): void {
    withRecording(this.options.recordings, id, fn);
  }
}

/**
 * Runs `fn` with a recording's info: at once from the store's copy, or after reading it from disk
 * for one the store has not read yet (then with the job's latest snapshot, never a stale one).
 */
export function withRecording(
  recordings: Pick<RecordingStore, 'peek' | 'get'>,
  id: string,
  fn: (recording: RecordingInfo) => void,
): void {
  const known = recordings.peek(id);
  if (known) {
    fn(toRecordingInfo(known));
    return;
  }
  void recordings
    .get(id)
    .catch(() => null)
    .then((meta) => {
      if (meta) fn(toRecordingInfo(meta));
    });
}
