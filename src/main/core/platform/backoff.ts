// Capped exponential backoff with full jitter (the delay is drawn uniformly from 0 to the cap
// of the attempt), and the service's Retry-After when it gave one.
export interface BackoffOptions {
  baseMs: number;
  capMs: number;
  random?: () => number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 1000, capMs: 60_000 };

export function backoffDelay(
  attempt: number,
  options: BackoffOptions = DEFAULT_BACKOFF,
  retryAfterMs?: number,
): number {
  const ceiling = Math.min(options.capMs, options.baseMs * 2 ** Math.max(0, attempt));
  const jittered = Math.floor((options.random ?? Math.random)() * ceiling);
  return retryAfterMs !== undefined ? Math.max(jittered, Math.min(retryAfterMs, options.capMs * 5)) : jittered;
}

/**
 * Polling of a scribe job before anything is learned of the service (jobs/poll-plan.ts): quick
 * at first, when most short consults finish, then slower.
 */
export function pollDelay(pollsSoFar: number): number {
  const schedule = [1000, 1000, 2000, 2000, 3000, 5000, 5000, 10_000];
  return schedule[pollsSoFar] ?? 15_000;
}
