// The two ways a job waits: until something holds (a sign-in, its owner, its turn), and for a
// time (a backoff, the next poll) that a retry by hand or a cancel cuts short.
import { setTimeout as sleep } from 'node:timers/promises';

import type { Live } from './live.ts';

export class Waits {
  /** Jobs waiting for their turn or for a sign-in: each looks again whenever a job or the session changes. */
  private readonly waiters = new Set<() => void>();
  private readonly wakers = new Map<Live, () => void>();

  /**
   * Resolves once `ready()` holds, or the job is cancelled; looked at again whenever a job
   * changes or the session does. One set of callbacks, not a listener on 'job' or on the
   * session per waiting job: a morning of consults queued while signed out, or of documents
   * waiting their turn, would pass EventEmitter's limit and warn of a leak.
   */
  async until(ready: () => boolean, signal: AbortSignal): Promise<void> {
    if (ready()) return;
    await new Promise<void>((resolve) => {
      const check = () => {
        if (!signal.aborted && !ready()) return;
        this.waiters.delete(check);
        signal.removeEventListener('abort', check);
        resolve();
      };
      this.waiters.add(check);
      signal.addEventListener('abort', check, { once: true });
    });
  }

  /** Something changed (a job, the session, an owner): every `until` looks again. */
  lookAgain(): void {
    for (const check of [...this.waiters]) check();
  }

  /** Sleeps, but wakes early on a retry by hand or when the job is cancelled. */
  async pause(live: Live, ms: number, signal: AbortSignal): Promise<void> {
    const early = new AbortController();
    this.wakers.set(live, () => early.abort());
    try {
      await sleep(ms, undefined, { signal: AbortSignal.any([signal, early.signal]) });
    } catch {
      // woken or cancelled; the loop looks at the signal
    } finally {
      this.wakers.delete(live);
    }
  }

  /** Ends the job's pause now (a retry by hand of a job waiting out a backoff). */
  wake(live: Live): void {
    this.wakers.get(live)?.();
  }
}
