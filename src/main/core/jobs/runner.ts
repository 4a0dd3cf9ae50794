// The runner: one loop per job that runs its steps (steps.ts) until it has its note or has
// failed. It owns time: a document waits its turn, a job waits for a sign-in, its owner or a
// claim, passing faults are retried with capped exponential backoff and full jitter (honouring
// Retry-After), an expired or unreachable upload address is asked for again, and a note later
// than the app waits (Settings) is announced once and polled slowly after that. Any other
// refusal stops the job with the service's own message and keeps the audio for a retry by hand.
import { backoffDelay, Refusal } from '../platform/index.ts';
import { isNetworkSetupFailure, ServiceError } from '../service/index.ts';
import { SignedOutError, type SessionState } from '../sign-in/index.ts';
import type { JobsContext, JobRunner } from './context.ts';
import { itsTurn } from './documents.ts';
import { cancel, type Live } from './live.ts';
import { TERMINAL } from './record.ts';
import { NotOwnerError, senderOf, senderSignedIn } from './sender.ts';
import { STEPS } from './steps.ts';

/** How many times in a row an upload address may turn out expired before the job gives up. */
const MAX_URL_RENEWALS = 3;

const BAD_SIGNATURE =
  'The storage service refused the upload address as wrongly signed (SignatureDoesNotMatch); ' +
  'the audio is kept on this computer, and Retry asks the service for a new address.';

/** One run's counts: they start again when the job is set going again. */
interface Tries {
  /** Failures in a row, for the backoff. */
  attempt: number;
  polls: number;
  /** Upload addresses asked for again in a row. */
  renewals: number;
  /**
   * Failed attempts to reach the upload address: they keep their backoff across the renewals
   * they cause, so a storage host that stays unreachable is not hammered.
   */
  unreachableUploads: number;
}

export class Runner implements JobRunner {
  private stopped = false;
  private readonly context: JobsContext;

  constructor(context: JobsContext) {
    this.context = context;
  }

  /** Sets the consult's job going, and its documents. */
  kick(id: string): void {
    for (const live of this.context.store.consultAndDocuments(id)) this.kickLive(live);
  }

  kickLive(live: Live): void {
    if (live.running || this.stopped || TERMINAL.has(live.record.state)) return;
    const controller = new AbortController();
    live.controller = controller;
    live.running = this.run(live, controller.signal).finally(() => {
      live.running = null;
      live.controller = null;
    });
  }

  /** Another account signed in, or the session ended or began: jobs look again at whose they are. */
  sessionChanged(state: SessionState): void {
    const { store, options } = this.context;
    // A consult of the account before that is on its way stops where it is (an upload is given
    // up, to be sent again) and waits for its owner's sign-in.
    const me = state.user?.id ?? null;
    for (const live of store.allLive()) {
      // Whose sign-in it goes with: the owner's, or that of the vet who asked for it.
      const owner = senderOf(this.context, live.record);
      if (owner === null || me === null || owner === me || !live.controller || live.waitingFor === 'owner') continue;
      // One whose owner switched user goes on with their background sign-in.
      if (options.background?.has(owner)) continue;
      void cancel(live).then(() => this.kickLive(live));
    }
    if (state.signedIn) for (const id of store.jobs.keys()) this.kick(id);
    this.context.waits.lookAgain();
  }

  /** Stops every loop (quitting, or tests); jobs resume from their files at the next init. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.context.store.allLive().map(cancel));
  }

  /** Resolves when every job has finished (completed or failed). For tests and tools. */
  async settled(): Promise<void> {
    for (;;) {
      const running = this.context.store
        .allLive()
        .map((l) => l.running)
        .filter((p): p is Promise<void> => p !== null);
      if (running.length === 0) return;
      await Promise.all(running.map((p) => p.catch(() => {})));
    }
  }

  private async run(live: Live, signal: AbortSignal): Promise<void> {
    const { store, waits, options } = this.context;
    const tries: Tries = { attempt: 0, polls: 0, renewals: 0, unreachableUploads: 0 };
    while (!signal.aborted && !TERMINAL.has(live.record.state)) {
      if (live.record.documentId !== null && live.record.state === 'uploaded' && !itsTurn(store, live)) {
        await this.waitFor(live, 'turn', () => itsTurn(store, live), signal);
        continue;
      }
      try {
        const before = live.record.state as keyof typeof STEPS;
        const goOn = await STEPS[before].run(this.context, live, signal);
        if (!goOn) {
          this.clearWaiting(live);
          const untilOverdue = store.msUntilOverdue(live.record);
          if (untilOverdue === 0) this.announceOverdue(live);
          // Quick looks while a note is expected, a look at the moment it becomes overdue (so
          // the vet is told on time), and slow looks after that.
          const delay =
            untilOverdue === 0
              ? options.slowPollMs
              : Math.min(this.context.polling.delay(live, tries.polls++), untilOverdue + 1);
          await waits.pause(live, delay, signal);
        }
        if (live.record.state === 'uploaded') tries.unreachableUploads = 0;
        // The backoff counts failures in a row: a good answer (a poll that finds the note not
        // ready yet included) ends the run, so one bad minute early in a long scribing job does
        // not leave every later hiccup waiting the full cap.
        tries.attempt = 0;
        if (live.record.state !== before && live.record.state !== 'recording_session_created') tries.renewals = 0;
        this.clearWaiting(live);
        live.nextRetryAt = null;
      } catch (e) {
        if (signal.aborted) return;
        if (!(await this.recover(live, e, tries, signal))) await this.fail(live, e);
      }
    }
  }

  /** After a step threw: waits or asks again and resolves true, or resolves false for a failure that stops the job. */
  private async recover(live: Live, e: unknown, tries: Tries, signal: AbortSignal): Promise<boolean> {
    const { store, options, counters } = this.context;
    const id = live.record.recordingId;
    // Whose it is is read again at every look: a claim, or its owner's sign-in, sets it going.
    if (e instanceof NotOwnerError)
      return this.waitFor(
        live,
        e.unclaimed ? 'claim' : 'owner',
        () => senderSignedIn(this.context, live.record),
        signal,
      );
    // What a vet asked for waits for that vet's sign-in (in front, or kept in the background),
    // whoever else signs in meanwhile.
    const actor = live.record.actor;
    if (actor && e instanceof SignedOutError)
      return this.waitFor(live, 'owner', () => options.actors.signedIn(actor), signal);
    if (e instanceof SignedOutError)
      return this.waitFor(live, 'sign-in', () => options.session.state().signedIn, signal);
    if (!(e instanceof ServiceError)) return false;
    const state = live.record.state;
    if (e.kind === 'http' && state === 'upload_url' && isExpiredUploadUrl(e) && tries.renewals < MAX_URL_RENEWALS) {
      tries.renewals += 1;
      counters.uploadUrlRenewals += 1;
      await store.save(live, { state: 'recording_session_created', upload: null });
      return true;
    }
    if (
      e.status === 409 &&
      state === 'uploaded' &&
      live.record.documentId === null &&
      tries.renewals < MAX_URL_RENEWALS
    ) {
      // The service has no file for the key: upload it again rather than give up.
      tries.renewals += 1;
      await store.save(live, { state: 'recording_session_created', upload: null, scribeRequestSentAt: null });
      return true;
    }
    if (!e.transient && e.kind !== 'aborted') return false;
    // An upload address that cannot be reached at all may point at a host that has gone
    // (a restarted service on a new port, a moved bucket): the next try asks a fresh one,
    // which also shows whether the service itself is reachable.
    const renewAddress = e.kind === 'network' && state === 'upload_url';
    if (renewAddress) tries.attempt = Math.max(tries.attempt, tries.unreachableUploads++);
    const delay = backoffDelay(tries.attempt++, options.backoff, e.retryAfterMs);
    counters.transientRetries += 1;
    live.waitingFor = e.kind === 'http' ? 'service' : 'network';
    live.waitingReason = isNetworkSetupFailure(e) ? e.message : null;
    live.nextRetryAt = options.now() + delay;
    live.bytesSent = state === 'upload_url' ? 0 : live.bytesSent;
    options.log?.(`pipeline: ${id} ${state}: ${e.message} (retry in ${delay} ms)`);
    store.publish(live);
    await this.context.waits.pause(live, delay, signal);
    if (renewAddress && !signal.aborted && live.record.state === 'upload_url') {
      counters.uploadUrlRenewals += 1;
      await store.save(live, { state: 'recording_session_created', upload: null });
    }
    return true;
  }

  /** Says what the job waits for, waits until `ready()` holds (or the job is cancelled), then says it no longer waits. */
  private async waitFor(
    live: Live,
    what: NonNullable<Live['waitingFor']>,
    ready: () => boolean,
    signal: AbortSignal,
  ): Promise<true> {
    live.waitingFor = what;
    this.context.store.publish(live);
    await this.context.waits.until(ready, signal);
    this.clearWaiting(live);
    return true;
  }

  /**
   * The job no longer waits: said at once (a job event), so a window does not go on showing
   * "Waiting for … to sign in" while the job is moving again and no state has changed yet.
   */
  private clearWaiting(live: Live): void {
    if (live.waitingFor === null) return;
    live.waitingFor = null;
    live.waitingReason = null;
    this.context.store.publish(live);
  }

  private announceOverdue(live: Live): void {
    if (live.overdueAnnounced) return;
    const { store, options } = this.context;
    live.overdueAnnounced = true;
    options.log?.(
      `pipeline: ${live.record.recordingId}: no note after ${formatMinutes(options.overdueMinutes())}; polling slowly`,
    );
    store.publish(live);
    // A late document is announced as its consult's, by the consult's snapshot (the window finds the document in it).
    const consult = store.consultOf(live);
    if (consult) this.context.emit('overdue', store.snapshot(consult));
  }

  private async fail(live: Live, e: unknown): Promise<void> {
    const error =
      e instanceof ServiceError && e.code === 'SignatureDoesNotMatch'
        ? { message: BAD_SIGNATURE, code: e.code, status: e.status ?? null }
        : e instanceof ServiceError
          ? { message: e.message, code: e.code ?? null, status: e.status ?? null }
          : e instanceof Refusal
            ? { message: e.message, code: e.code, status: null }
            : { message: (e as Error).message || String(e), code: null, status: null };
    this.context.options.log?.(`pipeline: ${live.record.recordingId} failed at ${live.record.state}: ${error.message}`);
    await this.context.store.save(live, { state: 'failed', failedAt: live.record.state, error });
  }
}

/** A refused or expired address (AccessDenied, or a 403 without a code) is asked for again; a bad signature is not. */
function isExpiredUploadUrl(e: ServiceError): boolean {
  if (e.code === 'SignatureDoesNotMatch') return false;
  return e.status === 403 || e.code === 'AccessDenied' || e.code === 'upload_url_expired';
}

export function formatMinutes(minutes: number): string {
  if (minutes >= 1 && Number.isInteger(minutes)) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `${Math.round(minutes * 60)} seconds`;
}
