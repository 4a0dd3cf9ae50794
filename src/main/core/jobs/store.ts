// The job store: every consult's job and its further documents, as loaded from their files and
// saved back (one write after another per job), and the snapshots the window is sent of them.
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import pLimit from 'p-limit';

import { readJson, writeJsonAtomic, Refusal } from '../platform/index.ts';
import { READ_AT_ONCE, type IndexedJobs, type RecordingMeta } from '../recordings/index.ts';
import type { ResolvedOptions } from './options.ts';
import { newLive, type Live } from './live.ts';
import { jobRecordSchema, TERMINAL, type DocumentInfo, type JobInfo, type JobRecord } from './record.ts';

// In each recording's folder: the consult's job, and a folder of its further documents.
const JOB_FILE = 'job.json';
const DOCUMENTS = 'documents';

export class JobStore {
  /** Each consult's job, in the order of its recordings. */
  readonly jobs = new Map<string, Live>();
  /** Each consult's further documents, oldest first. */
  readonly documents = new Map<string, Live[]>();

  private readonly options: ResolvedOptions;
  /** Hears of every change: the consult's snapshot (null for a document whose consult has gone). */
  private readonly published: (consult: JobInfo | null) => void;

  constructor(options: ResolvedOptions, published: (consult: JobInfo | null) => void) {
    this.options = options;
    this.published = published;
  }

  path(recordingId: string, documentId: string | null = null): string {
    const folder = dirname(this.options.recordings.audioPath(recordingId));
    return documentId === null ? join(folder, JOB_FILE) : join(folder, DOCUMENTS, `${documentId}.json`);
  }

  /** The folder of a consult's further documents. */
  documentsFolder(recordingId: string): string {
    return dirname(this.path(recordingId, 'x'));
  }

  /** Every job: the consults' and their documents'. */
  allLive(): Live[] {
    return [...this.jobs.values(), ...[...this.documents.values()].flat()];
  }

  /** The consult's job and its documents. */
  consultAndDocuments(recordingId: string): Live[] {
    const job = this.jobs.get(recordingId);
    return [...(job ? [job] : []), ...(this.documents.get(recordingId) ?? [])];
  }

  /** The consult's job a document belongs to, or the job itself. */
  consultOf(live: Live): Live | undefined {
    return live.record.documentId === null ? live : this.jobs.get(live.record.recordingId);
  }

  find(recordingId: string, documentId: string | null): Live {
    if (!this.jobs.has(recordingId)) throw new Refusal('not_found', 'That consult has not been sent to be scribed.');
    const live =
      documentId === null
        ? this.jobs.get(recordingId)
        : this.documents.get(recordingId)?.find((d) => d.record.documentId === documentId);
    if (!live) throw new Refusal('not_found', 'That document is not part of this consult.');
    return live;
  }

  /**
   * Loads every job of the recordings given, a few files at a time: years of consults are read
   * before the window opens. With the names in each folder as launch listed them, a file that
   * is not there is not asked for (most consults have no further documents).
   */
  async load(
    metas: readonly RecordingMeta[],
    listing?: ReadonlyMap<string, readonly string[]>,
    indexed?: ReadonlyMap<string, IndexedJobs>,
  ): Promise<void> {
    const limit = pLimit(READ_AT_ONCE);
    const loaded = await Promise.all(
      metas.map((meta) => {
        const kept = indexed?.get(meta.id);
        const fromIndex = kept && this.fromIndex(meta.id, kept);
        // An entry the index holds but that does not read as a job is read from its files instead.
        return fromIndex !== undefined ? fromIndex : limit(() => this.loadJob(meta.id, listing?.get(meta.id)));
      }),
    );
    for (const [i, job] of loaded.entries()) {
      if (!job) continue;
      const id = metas[i]!.id;
      this.jobs.set(id, job.live);
      if (job.documents.length) this.documents.set(id, job.documents);
    }
  }

  /**
   * A consult's job and documents as the consults' index holds them, checked as a file of theirs
   * is; undefined when they do not read as one (the files are read then).
   */
  private fromIndex(recordingId: string, kept: IndexedJobs): { live: Live; documents: Live[] } | null | undefined {
    if (kept.job === null) return null;
    const job = jobRecordSchema.safeParse(kept.job);
    if (!job.success || job.data.recordingId !== recordingId || job.data.documentId !== null) return undefined;
    const documents: Live[] = [];
    for (const raw of kept.documents) {
      const doc = jobRecordSchema.safeParse(raw);
      if (!doc.success || doc.data.documentId === null || doc.data.recordingId !== recordingId) return undefined;
      documents.push(newLive(doc.data));
    }
    return { live: newLive(job.data), documents };
  }

  /** A consult's job and documents as the consults' index keeps them: their records as last written. */
  indexed(recordingId: string): IndexedJobs {
    return {
      job: this.jobs.get(recordingId)?.record ?? null,
      documents: (this.documents.get(recordingId) ?? []).map((d) => d.record),
    };
  }

  private async loadJob(
    recordingId: string,
    names?: readonly string[],
  ): Promise<{ live: Live; documents: Live[] } | null> {
    if (names && !names.includes(JOB_FILE)) return null;
    let raw: unknown;
    try {
      raw = await readJson(this.path(recordingId));
    } catch (e) {
      this.options.log?.(
        `pipeline: job of ${recordingId} is unreadable (${(e as Error).message}); the recording is kept`,
      );
      return null;
    }
    if (raw === null) return null;
    const parsed = jobRecordSchema.safeParse(raw);
    if (!parsed.success) {
      this.options.log?.(`pipeline: job of ${recordingId} has an unknown shape; the recording is kept`);
      return null;
    }
    const documents = names && !names.includes(DOCUMENTS) ? [] : await this.loadDocuments(recordingId);
    return { live: newLive(parsed.data), documents };
  }

  private async loadDocuments(recordingId: string): Promise<Live[]> {
    const folder = this.documentsFolder(recordingId);
    const names = await readdir(folder).catch(() => [] as string[]);
    const docs: Live[] = [];
    for (const name of names.filter((n) => n.endsWith('.json'))) {
      const parsed = jobRecordSchema.safeParse(await readJson(join(folder, name)).catch(() => undefined));
      if (parsed.success && parsed.data.documentId !== null && parsed.data.recordingId === recordingId)
        docs.push(newLive(parsed.data));
      else this.options.log?.(`pipeline: a document of ${recordingId} is unreadable; it is left where it is`);
    }
    return docs.sort((a, b) => a.record.createdAt.localeCompare(b.record.createdAt));
  }

  async save(live: Live, patch: Partial<JobRecord>): Promise<void> {
    live.record = { ...live.record, ...patch, updatedAt: new Date(this.options.now()).toISOString() };
    await this.write(live);
    this.publish(live);
  }

  /** Writes the record as it is, telling no one (a new job before it is noted as sent). */
  write(live: Live): Promise<void> {
    // Two saves at once (a note edit while the retention sweep runs) must not finish their
    // renames in the wrong order: each write waits for the one before and writes the record as
    // it is by then.
    const write = live.writes
      .catch(() => undefined)
      .then(() => writeJsonAtomic(this.path(live.record.recordingId, live.record.documentId), live.record));
    live.writes = write;
    return write;
  }

  /** Tells of a change of the job (progress no more often than `progressThrottleMs`). */
  publish(live: Live, { progressOnly = false } = {}): void {
    const now = this.options.now();
    if (progressOnly && now - live.lastProgressAt < this.options.progressThrottleMs) return;
    live.lastProgressAt = now;
    // A document is part of its consult: the consult's snapshot carries it.
    const consult = this.consultOf(live);
    this.published(consult ? this.snapshot(consult) : null);
  }

  snapshot(live: Live): JobInfo {
    const r = live.record;
    return {
      recordingId: r.recordingId,
      templateId: r.templateId,
      state: r.state,
      // 'turn' is a document's wait only: a consult's note never waits for another.
      waitingFor: TERMINAL.has(r.state) || live.waitingFor === 'turn' ? null : live.waitingFor,
      waitingReason: TERMINAL.has(r.state) || live.waitingFor !== 'network' ? null : live.waitingReason,
      askedBy: r.actor && { userId: r.actor.userId, name: r.actor.name, email: r.actor.email },
      bytesSent: live.bytesSent,
      bytesTotal: r.bytesTotal,
      serviceStatus: r.serviceStatus,
      error: r.error,
      nextRetryAt: live.nextRetryAt,
      hasNote: r.note !== null,
      edited: r.editedNote !== null,
      overdue: this.msUntilOverdue(r) === 0,
      audioDeleted: r.audioDeletedAt !== null,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      completedAt: r.completedAt,
      documents: (this.documents.get(r.recordingId) ?? []).map((d) => this.documentSnapshot(d)),
    };
  }

  documentSnapshot(live: Live): DocumentInfo {
    const r = live.record;
    return {
      id: r.documentId ?? '',
      name: r.documentName,
      templateId: r.templateId,
      state: r.state,
      waitingFor: TERMINAL.has(r.state) ? null : live.waitingFor,
      askedBy: r.actor && { userId: r.actor.userId, name: r.actor.name, email: r.actor.email },
      serviceStatus: r.serviceStatus,
      error: r.error,
      hasNote: r.note !== null,
      edited: r.editedNote !== null,
      overdue: this.msUntilOverdue(r) === 0,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      completedAt: r.completedAt,
    };
  }

  /**
   * Time left before a scribe job counts as overdue: 0 once it is, Infinity for a job not
   * waiting on the service. The clock starts at the scribe request (a resend of the same request
   * keeps it; Ask again starts it anew).
   */
  msUntilOverdue(r: JobRecord): number {
    if (r.state !== 'scribe_requested' || r.scribeRequestSentAt === null) return Infinity;
    const since = Date.parse(r.scribeRequestSentAt);
    if (!Number.isFinite(since)) return Infinity;
    return Math.max(0, since + this.options.overdueMinutes() * 60_000 - this.options.now());
  }
}
