// How a job waiting for its note looks at the service: what it expects (poll-plan.ts, from what
// this service took for notes of this template and length), when it looks next, and what it
// learns when the note comes. The look itself goes through the status board (status-board.ts)
// when the account has several jobs in flight.
import { pollDelay as firstSchedule } from '../platform/index.ts';
import type { JobsContext, JobPolling } from './context.ts';
import type { Live } from './live.ts';
import { nextPollDelay, PollPlan, worthALook, type Expectation } from './poll-plan.ts';
import { StatusBoard } from './status-board.ts';

interface Watch {
  scribeId: string;
  audioMinutes: number;
  expectation: Expectation;
  /** The last look that found the note not ready yet (ms since the epoch). */
  lastNotReadyAt: number | null;
  /** Whether the first look was made (or left out). */
  looked: boolean;
}

export class Polling implements JobPolling {
  readonly plan: PollPlan;
  readonly board: StatusBoard | null;
  private readonly context: JobsContext;
  private readonly watches = new WeakMap<Live, Watch>();
  /** Whether the clinic relay is live now (relay.ts): a written note is announced by it. */
  private relayLive = false;
  /**
   * Scribe ids the relay said are written (or failed), with when: the job's next look goes
   * straight to its GET /scribe/get. Kept by id, not by job, because the event may come while
   * the job is between its request and saving the id the answer gave.
   */
  private readonly written = new Map<string, number>();
  /** Jobs whose announced note was not there yet at the look it caused: they look on the learned plan. */
  private readonly announcedEarly = new WeakSet<Live>();

  constructor(context: JobsContext, planFile: string | null, useBoard: boolean) {
    this.context = context;
    this.plan = new PollPlan(planFile);
    this.board = useBoard ? new StatusBoard(context) : null;
  }

  /** Before a look: what the job expects, worked out once per scribe request. */
  async prepare(live: Live): Promise<void> {
    const scribeId = live.record.scribeId ?? '';
    if (this.watches.get(live)?.scribeId === scribeId) return;
    await this.plan.load();
    const meta = await this.context.options.recordings.get(live.record.recordingId).catch(() => null);
    const audioMinutes = (meta?.durationMs ?? 0) / 60_000;
    const expectation = this.plan.expect(this.context.options.serviceKey(), live.record.templateId, audioMinutes);
    this.watches.set(live, { scribeId, audioMinutes, expectation, lastNotReadyAt: null, looked: false });
  }

  /** The relay is live (true) or lost (false); whether it was live before. */
  setRelayLive(live: boolean): boolean {
    const was = this.relayLive;
    this.relayLive = live;
    return was;
  }

  /** The relay says this scribe's note is written (or failed) at `at`: its job looks at once. */
  announce(scribeId: string, at: number): void {
    this.written.set(scribeId, at);
    // A bound on what is kept for scribes this computer does not wait for (the clinic's other rooms).
    if (this.written.size > 1000) this.written.delete(this.written.keys().next().value as string);
  }

  /** Whether the relay announced this job's note: its look is one GET /scribe/get, now. */
  announced(live: Live): boolean {
    return live.record.scribeId !== null && this.written.has(live.record.scribeId);
  }

  /** The announced look was made: what the relay said is used once. */
  looked(live: Live, found: boolean): number | null {
    const id = live.record.scribeId ?? '';
    const at = this.written.get(id) ?? null;
    this.written.delete(id);
    if (!found) this.announcedEarly.add(live);
    return at;
  }

  /**
   * Whether the job's first look can wait: the runner looks at once after the scribe request,
   * when no note can be ready yet; with the plan, that look is left out and the next one is
   * the plan's. A fixed schedule (tests) looks at once as before. With the clinic relay live the
   * look at once is left out whatever the plan knows: the relay announces the note when it is
   * written, even at once, so that look would cost a status request for nothing.
   */
  skipLook(live: Live): boolean {
    const { options } = this.context;
    const watch = this.watches.get(live);
    const sentAt = sentAtOf(live);
    if (this.announced(live)) return false;
    if (this.relayLive && watch && !watch.looked) {
      // Nothing is learned from the request's time here: with the relay, the plan learns from
      // the relay's time of the delivery, and a note the safety net finds teaches nothing.
      watch.looked = true;
      return true;
    }
    if (options.pollDelay || !watch || watch.looked || !watch.expectation.learned || sentAt === null) return false;
    watch.looked = true;
    if (worthALook(options.now() - sentAt, watch.expectation)) return false;
    // Not ready when it was asked for: what the next look finds is learned from then.
    watch.lastNotReadyAt = sentAt;
    return true;
  }

  /** Whether the job is known to have been waiting (a look found no note, or none could be there). */
  seenWaiting(live: Live): boolean {
    return (this.watches.get(live)?.lastNotReadyAt ?? null) !== null;
  }

  notReady(live: Live): void {
    const watch = this.watches.get(live);
    if (watch) watch.lastNotReadyAt = this.context.options.now();
  }

  /** The wait before the next look: the plan's, unless the pipeline was given a fixed schedule. */
  delay(live: Live, pollsSoFar: number): number {
    const { options } = this.context;
    // Announced while the last look was on its way: the look that fetches it, now.
    if (this.announced(live)) return 0;
    const usual = this.usualDelay(live, pollsSoFar);
    // With the relay live the note is announced when written: polling is only a safety net, for
    // a delivery the service never made. A note the relay announced that was not there yet at
    // once is looked for as usual.
    if (this.relayLive && !this.announcedEarly.has(live)) return Math.max(usual, options.relaySafetyNetMs);
    return usual;
  }

  private usualDelay(live: Live, pollsSoFar: number): number {
    const { options } = this.context;
    if (options.pollDelay) return options.pollDelay(pollsSoFar);
    const watch = this.watches.get(live);
    const sentAt = sentAtOf(live);
    // Before this service has written a note the app knows of, it looks as it always has:
    // quick at first, when short notes finish, then slower.
    if (!watch || sentAt === null || !watch.expectation.learned) return firstSchedule(pollsSoFar);
    return nextPollDelay(options.now() - sentAt, watch.expectation);
  }

  /**
   * The note came: the time it took is learned, from when the service says it changed (the
   * list's `updated_at`) when that is plausible, else halfway between the last look that found it
   * not ready and this one. A job resumed after a restart, with no look before, teaches nothing.
   */
  async ready(live: Live, serviceSaysAt: number | null): Promise<void> {
    const watch = this.watches.get(live);
    const sentAt = sentAtOf(live);
    if (!watch || sentAt === null) return;
    const now = this.context.options.now();
    let at: number | null = null;
    if (serviceSaysAt !== null && serviceSaysAt >= sentAt && serviceSaysAt <= now) at = serviceSaysAt;
    else if (watch.lastNotReadyAt !== null) at = (watch.lastNotReadyAt + now) / 2;
    this.watches.delete(live);
    if (at === null) return;
    try {
      await this.plan.learn(this.context.options.serviceKey(), live.record.templateId, watch.audioMinutes, at - sentAt);
    } catch (e) {
      // What was learned stays in memory; the note itself is already kept.
      this.context.options.log?.(`pipeline: the poll plan could not be saved: ${(e as Error).message}`);
    }
  }
}

function sentAtOf(live: Live): number | null {
  const sent = live.record.scribeRequestSentAt;
  const at = sent === null ? Number.NaN : Date.parse(sent);
  return Number.isFinite(at) ? at : null;
}
