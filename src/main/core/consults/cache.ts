// Every consult's recording as the window gets it, kept in memory: read from disk at start and
// updated by whatever writes a recording's meta (a chunk, a claim, a rename), so listing
// thousands of consults reads no file. Whether the recorder is busy is read from here too.
import { randomUUID } from 'node:crypto';
import type { ConsultInfo, ConsultsRevision, RecordingInfo } from '../../../shared/ipc.ts';
import type { RecorderActivity } from '../../../shared/desktop.ts';
import type { JobInfo } from '../../../shared/jobs.ts';
import type { RecordingMeta, RecordingStore } from '../recordings/index.ts';
import type { Emit } from '../ports.ts';

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
  private readonly metas = new Map<string, RecordingInfo>();
  private readonly options: ConsultCacheOptions;
  /** This engine, told apart from one started before or after it. */
  private readonly engine = randomUUID();
  /** Changes made to the list since start (see `revision`). */
  private changes = 0;

  constructor(options: ConsultCacheOptions) {
    this.options = options;
  }

  /** At start: every recording on disk, before anything is announced. */
  load(metas: readonly RecordingMeta[]): void {
    for (const meta of metas) this.metas.set(meta.id, toRecordingInfo(meta));
  }

  remember(meta: RecordingMeta): RecordingInfo {
    const before = this.metas.get(meta.id)?.state;
    // Called for every chunk: the recorder's activity is looked at again only when a state changed.
    const was = before === meta.state ? null : this.activity();
    const info = toRecordingInfo(meta);
    this.metas.set(info.id, info);
    // A chunk alone changes nothing the list shows.
    if (before !== meta.state) {
      if (this.options.announce) this.options.announce(info);
      else this.changed();
    }
    if (was !== null) {
      const now = this.activity();
      if (now !== was) this.options.emit('recorder:activity', { activity: now });
    }
    return info;
  }

  forget(id: string): void {
    const was = this.activity();
    this.metas.delete(id);
    this.options.emit('consult:removed', { id });
    const now = this.activity();
    if (now !== was) this.options.emit('recorder:activity', { activity: now });
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
    for (const meta of this.metas.values()) {
      if (meta.state === 'recording') return 'recording';
      if (meta.state === 'paused') activity = 'paused';
    }
    return activity;
  }

  consult(id: string): ConsultInfo | null {
    const recording = this.metas.get(id);
    return recording ? { recording, job: this.options.job(id) } : null;
  }

  /** Every consult on this computer, whoever's, newest first. */
  all(): ConsultInfo[] {
    return [...this.metas.values()]
      .sort((a, b) => b.startedAt.localeCompare(a.startedAt))
      .map((recording) => ({ recording, job: this.options.job(recording.id) }));
  }

  /**
   * Runs `fn` with a recording's info: at once from the cache, or after reading it from disk
   * for one made outside the handlers (then with the job's latest snapshot, never a stale one).
   */
  withRecording(id: string, fn: (recording: RecordingInfo) => void): void {
    const cached = this.metas.get(id);
    if (cached) {
      fn(cached);
      return;
    }
    void this.options.recordings
      .get(id)
      .catch(() => null)
      .then((meta) => {
        if (meta) fn(this.metas.get(id) ?? this.remember(meta));
      });
  }
}
