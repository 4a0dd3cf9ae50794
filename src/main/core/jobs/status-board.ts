// The status of every scribe job in flight from one request. When an account has two or more
// consults waiting for their notes, one `GET /scribe/all` read (newest first, more pages only
// until every job in flight has been seen, and never more than a few) tells all their statuses,
// and `GET /scribe/get/{id}` is asked only for a note the list shows written (or failed), or for
// a job the list does not show. A read made a moment ago answers the next look too, and a job
// it shows written is woken to fetch its note at once. Each account's jobs are listed with that
// account's own sign-in: jobs of different accounts are never listed together.
//
// The list is a saving, never a need: a service without it (404), a read that fails, or a list
// paged in a way that does not show a job, and the jobs are asked for one by one as before.
import { scribeStatusKind } from '../../../shared/service/index.ts';
import { ServiceError } from '../service/index.ts';
import { SignedOutError } from '../sign-in/index.ts';
import type { JobsContext, ScribeStatusItem } from './context.ts';
import type { Live } from './live.ts';
import { NotOwnerError, senderOf, withToken } from './sender.ts';

/** A read this recent answers another job's look without a new request. */
export const FRESH_MS = 1000;
/** Items per page: the service's largest (jobs in flight are the newest, so they come first). */
export const PAGE_LIMIT = 100;
/** Pages read at most per look: past them, a job not yet seen is asked for by itself. */
export const MAX_PAGES = 3;
/** After the list is missing (404) the account's jobs are asked for one by one for this long. */
const MISSING_PAUSE_MS = 30 * 60_000;
/** After a read that failed, or a page that looked wrong, for this long. */
const FAILED_PAUSE_MS = 60_000;

/**
 * How recent a read is, and how long a pause lasts, are real time: a monotonic clock, not the
 * pipeline's `now` (which a clinic's clock change, or a test, may move or hold still; a held
 * clock would make one read answer for ever).
 */
const elapsed = (): number => performance.now();

interface Read {
  /** performance.now() when it was read. */
  at: number;
  items: Map<string, ScribeStatusItem>;
}

export class StatusBoard {
  private readonly context: JobsContext;
  /** Per account: its last read, and the read under way. */
  private readonly reads = new Map<string, Read>();
  private readonly pending = new Map<string, Promise<Read | null>>();
  /** Per account: until when the list is not asked. */
  private readonly pausedUntil = new Map<string, number>();

  constructor(context: JobsContext) {
    this.context = context;
  }

  /**
   * What the list says of this job's scribe, or null: ask `GET /scribe/get/{id}`. Throws only
   * what a call with the owner's sign-in throws (signed out, not the owner, cancelled).
   */
  async look(live: Live, signal: AbortSignal): Promise<ScribeStatusItem | null> {
    const scribeId = live.record.scribeId;
    // Whose sign-in the job goes with: its owner's, or the vet's who asked for it.
    const owner = senderOf(this.context, live.record);
    if (scribeId === null || owner === null) return null;
    const peers = this.inFlight(owner);
    // Alone, a look by itself costs the same one request, and brings the note when it is written.
    if (peers.length < 2) return null;
    const now = elapsed();
    if ((this.pausedUntil.get(owner) ?? 0) > now) return null;
    const recent = this.reads.get(owner);
    if (recent && now - recent.at <= FRESH_MS && recent.items.has(scribeId)) return recent.items.get(scribeId) ?? null;
    let read = this.pending.get(owner);
    if (!read) {
      read = this.read(live, owner, peers, signal).finally(() => this.pending.delete(owner));
      this.pending.set(owner, read);
    }
    const got = await read;
    if (signal.aborted) throw signal.reason;
    return got?.items.get(scribeId) ?? null;
  }

  /** The jobs of this account waiting at the service for their notes. */
  private inFlight(owner: string): Live[] {
    const { store } = this.context;
    return store
      .allLive()
      .filter(
        (l) =>
          l.record.state === 'scribe_requested' &&
          l.record.scribeId !== null &&
          l.running !== null &&
          senderOf(this.context, l.record) === owner,
      );
  }

  private async read(live: Live, owner: string, peers: Live[], signal: AbortSignal): Promise<Read | null> {
    const { options, counters } = this.context;
    const wanted = new Set(peers.map((l) => l.record.scribeId as string));
    const items = new Map<string, ScribeStatusItem>();
    try {
      for (let page = 1; page <= MAX_PAGES; page++) {
        counters.statusPages += 1;
        const answer = await withToken(this.context, live.record, signal, (t, s) =>
          options.client.scribeList(t, page, PAGE_LIMIT, s),
        );
        let fresh = 0;
        for (const item of answer.items) {
          // An item without a status says nothing of its job: that job is asked for by itself.
          if (item.status === null || items.has(item.id)) continue;
          const at = item.updatedAt === null ? Number.NaN : Date.parse(item.updatedAt);
          items.set(item.id, { id: item.id, status: item.status, updatedAt: Number.isFinite(at) ? at : null });
          fresh += 1;
        }
        if ([...wanted].every((id) => items.has(id))) break;
        // An empty page, or one that only repeats what came before, ends the reading: the
        // jobs not seen are asked for one by one.
        if (answer.hasNext !== true || fresh === 0) break;
      }
    } catch (e) {
      // Whose sign-in to use, and a cancel, are the runner's to handle; anything else falls back.
      if (signal.aborted || e instanceof NotOwnerError || e instanceof SignedOutError) throw e;
      const missing = e instanceof ServiceError && (e.status === 404 || e.status === 405);
      this.pausedUntil.set(owner, elapsed() + (missing ? MISSING_PAUSE_MS : FAILED_PAUSE_MS));
      options.log?.(`pipeline: the list of scribe jobs could not be read (${(e as Error).message}); asking each job`);
      return null;
    }
    const read: Read = { at: elapsed(), items };
    this.reads.set(owner, read);
    // A job the list shows finished looks now rather than at its next turn.
    for (const peer of peers) {
      const item = peer === live ? undefined : items.get(peer.record.scribeId as string);
      const kind = item ? scribeStatusKind(item.status) : null;
      if (kind === 'completed' || kind === 'failed') this.context.waits.wake(peer);
    }
    return read;
  }
}
