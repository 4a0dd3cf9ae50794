// What the receiver has handled, so that a repeated delivery is answered 200 and not handled
// twice. A receiver keeps it in memory or in one node:sqlite file (open-seen-store.ts picks).

/**
 * The sender tries a delivery at most six times, waiting 1, 5, 15, 60 and then 120 minutes
 * after each failed attempt: its last attempt starts 201 minutes after the first, later still
 * by the time the attempts themselves take.
 */
export const RETRY_WINDOW_MS = (1 + 5 + 15 + 60 + 120) * 60_000;

/**
 * How long a handled delivery is remembered. A key older than the whole retry window can never be
 * sent again, so keeping it longer only grows the file. The hour beyond the window covers what
 * the schedule does not count: the time each attempt itself takes before the next delay starts,
 * a sender whose queue runs late, and a clock here that differs from the sender's.
 */
export const KEEP_SEEN_MS = RETRY_WINDOW_MS + 60 * 60_000;

/** How long a copy waits for another copy of its delivery being handled, by default. */
export const DEFAULT_WAIT_MS = 10_000;

/** Old keys are dropped at most this often. */
export const PURGE_EVERY_MS = 60_000;

/** A delivery claimed for handling; exactly one of its methods is called. */
export interface Claim {
  /** It was handled: remember it, so that every later copy is a duplicate. */
  commit(): Promise<void>;
  /** Its handling failed: forget the claim, so that the next copy or retry is handled. */
  release(): Promise<void>;
}

export interface SeenStore {
  readonly where: string;
  /**
   * Null when the key was handled within the memory, else the claim to handle it. The receiver
   * claims one key at a time (key-queue.ts), so a store need not make claims of a key wait.
   */
  claim(key: string, now: number): Promise<Claim | null>;
  close(): Promise<void>;
}
