// What the receiver has handled, so a repeated delivery is answered 200 and not handled twice.
// Published payloads carry no event id (SERVICE.md), so a delivery is known by its event id when
// it has one, else by (public_id, status): the service sends one event per status of a scribe.
// Kept in node:sqlite (one file) when a folder is given, so a retry after a restart is still
// recognised; in memory otherwise.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/**
 * The sender retries for 1 + 5 + 15 + 60 + 120 minutes after the first try (SPEC 8), then never
 * again; a day covers that with room for a receiver that was down, and keeps the file small.
 */
export const KEEP_SEEN_MS = 24 * 3600_000;

export interface SeenStore {
  readonly where: string;
  has(key: string): boolean;
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
  has(key: string): boolean {
    return this.keys.has(key);
  }
  add(key: string, now = Date.now()): void {
    this.keys.set(key, now);
    if (this.keys.size % 1000 === 0) for (const [k, at] of this.keys) if (at < now - KEEP_SEEN_MS) this.keys.delete(k);
  }
  close(): void {}
}

export class SqliteSeenStore implements SeenStore {
  readonly where: string;
  private readonly db: DatabaseSync;
  private added = 0;
  constructor(dir: string) {
    const file = join(dir, 'webhook-seen.sqlite');
    try {
      mkdirSync(dir, { recursive: true });
      this.db = new DatabaseSync(file);
      this.db.exec('PRAGMA journal_mode = WAL; CREATE TABLE IF NOT EXISTS seen (key TEXT PRIMARY KEY, at INTEGER NOT NULL)');
    } catch (e) {
      throw new Error(`cannot keep deliveries in ${dir}: ${(e as Error).message}`, { cause: e });
    }
    this.where = file;
  }
  has(key: string): boolean {
    return this.db.prepare('SELECT 1 FROM seen WHERE key = ?').get(key) !== undefined;
  }
  add(key: string, now = Date.now()): void {
    this.db.prepare('INSERT OR REPLACE INTO seen (key, at) VALUES (?, ?)').run(key, now);
    this.added += 1;
    if (this.added % 100 === 1) this.db.prepare('DELETE FROM seen WHERE at < ?').run(now - KEEP_SEEN_MS);
  }
  close(): void {
    this.db.close();
  }
}
