// What the receiver has handled, so a repeated delivery is answered 200 and not handled twice.
// Published payloads carry no event id (SERVICE.md), so a delivery is known by its event id when
// it has one, else by (public_id, status): the service sends one event per status of a scribe.
// Kept in node:sqlite (one file) when a folder is given, so a retry after a restart is still
// recognised; in memory otherwise.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';

/** The sender's last retry comes 1 + 5 + 15 + 60 + 120 minutes after the first try (SPEC 8). */
export const RETRY_WINDOW_MS = (1 + 5 + 15 + 60 + 120) * 60_000;

/**
 * How long a handled delivery is remembered. A key older than the whole retry window can never be
 * sent again, so keeping it longer only grows the file. The hour beyond the window covers what
 * the schedule does not count: the time each attempt itself takes before the next delay starts,
 * a sender whose queue runs late, and a clock here that differs from the sender's.
 */
export const KEEP_SEEN_MS = RETRY_WINDOW_MS + 60 * 60_000;

/** Old keys are dropped at most this often, and when a store is opened. */
const PURGE_EVERY_MS = 60_000;

export const SEEN_FILE = 'webhook-seen.sqlite';

export interface SeenStore {
  readonly where: string;
  has(key: string, now?: number): boolean;
  /** Called once the event was handled: a crash before this lets the retry through. */
  add(key: string, now?: number): void;
  close(): void;
}

/** The key of a delivery, or null when nothing in it identifies it. */
export function deliveryKey(payload: Record<string, unknown>): string | null {
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);
  const eventId = text(payload['event_id']);
  if (eventId !== null) return `event:${eventId}`;
  const publicId = text(payload['public_id']);
  const status = text(payload['status']);
  return publicId !== null && status !== null ? `scribe:${publicId}:${status}` : null;
}

export class MemorySeenStore implements SeenStore {
  readonly where = 'memory (forgotten when the receiver stops)';
  private readonly keys = new Map<string, number>();
  private purgedAt = 0;
  has(key: string, now = Date.now()): boolean {
    const at = this.keys.get(key);
    return at !== undefined && at >= now - KEEP_SEEN_MS;
  }
  add(key: string, now = Date.now()): void {
    this.keys.delete(key);
    this.keys.set(key, now);
    if (now - this.purgedAt < PURGE_EVERY_MS) return;
    this.purgedAt = now;
    // Insertion order is age order (a key added again moves to the end), so stop at the first young one.
    for (const [k, at] of this.keys) {
      if (at >= now - KEEP_SEEN_MS) break;
      this.keys.delete(k);
    }
  }
  close(): void {}
}

export class SqliteSeenStore implements SeenStore {
  readonly where: string;
  private readonly db: DatabaseSync;
  private purgedAt = 0;
  constructor(dir: string, now = Date.now()) {
    const file = join(dir, SEEN_FILE);
    let db: DatabaseSync | undefined;
    try {
      mkdirSync(dir, { recursive: true });
      // Loaded only when a folder is given, so a receiver kept in memory never touches node:sqlite
      // (and the command can quiet its ExperimentalWarning first: quietSqliteWarning).
      const { DatabaseSync: Database } = process.getBuiltinModule('node:sqlite');
      db = new Database(file);
      db.exec('PRAGMA journal_mode = WAL; CREATE TABLE IF NOT EXISTS seen (key TEXT PRIMARY KEY, at INTEGER NOT NULL)');
    } catch (e) {
      db?.close();
      throw new Error(`cannot keep deliveries in the folder ${dir}: ${(e as Error).message}`, { cause: e });
    }
    this.db = db;
    this.where = file;
    this.purge(now);
  }
  has(key: string, now = Date.now()): boolean {
    return this.db.prepare('SELECT 1 FROM seen WHERE key = ? AND at >= ?').get(key, now - KEEP_SEEN_MS) !== undefined;
  }
  add(key: string, now = Date.now()): void {
    this.db.prepare('INSERT OR REPLACE INTO seen (key, at) VALUES (?, ?)').run(key, now);
    if (now - this.purgedAt >= PURGE_EVERY_MS) this.purge(now);
  }
  /** How many keys the file holds (for tests and inspection). */
  size(): number {
    const row = this.db.prepare('SELECT count(*) AS n FROM seen').get() as { n: number } | undefined;
    return row?.n ?? 0;
  }
  close(): void {
    this.db.close();
  }
  private purge(now: number): void {
    this.purgedAt = now;
    this.db.prepare('DELETE FROM seen WHERE at < ?').run(now - KEEP_SEEN_MS);
  }
}

/**
 * Node 22 marks node:sqlite experimental and prints a warning on stderr when it is first used.
 * The command's output is read by people and scripts, so that one warning is left out; every
 * other warning is still printed as Node would.
 */
export function quietSqliteWarning(): void {
  const others = process.listeners('warning');
  process.removeAllListeners('warning');
  process.on('warning', (warning) => {
    if (warning.name === 'ExperimentalWarning' && /sqlite/i.test(warning.message)) return;
    if (others.length > 0) for (const listener of others) listener(warning);
    else process.stderr.write(`(node:${process.pid}) ${warning.name}: ${warning.message}\n`);
  });
}
