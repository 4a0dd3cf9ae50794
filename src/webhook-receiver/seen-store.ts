// What the receiver has handled, so that a repeated delivery is answered 200 and not handled
// twice. One receiver keeps it in memory or in one node:sqlite file; several receivers behind
// one load balancer share it in PostgreSQL (open-seen-store.ts picks). The same store keeps the
// relay's events (relay-feed.ts), written with the record of the delivery they came from.
import type { RelayEventInput, RelayFeed } from './relay-feed.ts';

/**
 * The sender tries a delivery at most six times, waiting 1, 5, 15, 60 and then 120 minutes
 * after each failed attempt: its last attempt starts 201 minutes after the first, later still
 * by the time the attempts themselves take.
 */
export const RETRY_WINDOW_MS = (1 + 5 + 15 + 60 + 120) * 60_000;

/**
 * The shortest memory a receiver accepts: the retry window and an hour for what the schedule
 * does not count (each attempt's own duration, a sender running late, clocks that differ).
 * Any shorter, and a late retry of a handled delivery would be handled again.
 */
export const MIN_REMEMBER_MS = RETRY_WINDOW_MS + 60 * 60_000;

/**
 * How long a handled delivery is remembered by default. The published payload has no id and no
 * timestamp, so a captured delivery replayed after its key is forgotten is handled as new: the
 * longer the memory, the longer that replay is refused. A week covers a sender whose queue
 * stalled over a long weekend, for a few bytes per delivery.
 */
export const DEFAULT_REMEMBER_MS = 7 * 24 * 60 * 60_000;

/** How long a copy waits for another copy of its delivery being handled, by default. */
export const DEFAULT_WAIT_MS = 10_000;

/** Old keys are dropped at most this often. */
export const PURGE_EVERY_MS = 60_000;

/** A delivery claimed for handling; exactly one of its methods is called. */
export interface Claim {
  /**
   * It was handled: remember it, so that every later copy is a duplicate, and keep the relay
   * event it became (when given) with it, so that a delivery is relayed exactly when it is
   * recorded.
   */
  commit(relay?: RelayEventInput | null): Promise<void>;
  /** Its handling failed: forget the claim, so that the next copy or retry is handled. */
  release(): Promise<void>;
}

export interface SeenStore {
  readonly where: string;
  /**
   * Null when the key was handled within the memory, else the claim to handle it. The receiver
   * claims one key at a time in one process (key-queue.ts); a store shared by several processes
   * makes a claim wait while another process holds the same key.
   */
  claim(key: string, now: number): Promise<Claim | null>;
  /** The relay's events; with PostgreSQL, starts listening for those other receivers add. */
  openFeed(): Promise<RelayFeed>;
  close(): Promise<void>;
}

/** Another receiver has held the key for longer than a copy waits: the copy is to be retried. */
export class StoreBusyError extends Error {}
