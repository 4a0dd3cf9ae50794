// Handled deliveries kept in one node:sqlite file, so that a retry after a restart is still
// recognised. One receiver only: claims are taken one key at a time within its process
// (key-queue.ts), which a second process opening the same file would not see.
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { makePrivateFile, makePrivateFolder } from './private-files.ts';
import { Listeners, type RelayEvent, type RelayEventInput, type RelayFeed } from './relay-feed.ts';
import { DEFAULT_REMEMBER_MS, PURGE_EVERY_MS, type Claim, type SeenStore } from './seen-store.ts';

export const SEEN_FILE = 'webhook-seen.sqlite';

export class SqliteSeenStore implements SeenStore {
  readonly where: string;
  private readonly db: DatabaseSync;
  private readonly rememberMs: number;
  private purgedAt = 0;
  private readonly listeners = new Listeners();

  constructor(dir: string, options: { rememberMs?: number; now?: number } = {}) {
    this.rememberMs = options.rememberMs ?? DEFAULT_REMEMBER_MS;
    const file = join(dir, SEEN_FILE);
    let db: DatabaseSync | undefined;
    try {
      makePrivateFolder(dir);
      makePrivateFile(file, `${file}-wal`, `${file}-shm`);
      // Loaded only when a folder is given, so a receiver kept in memory never touches node:sqlite
      // (and the command can quiet its ExperimentalWarning first: quiet-sqlite-warning.ts).
      const { DatabaseSync: Database } = process.getBuiltinModule('node:sqlite');
      db = new Database(file);
      // AUTOINCREMENT: an id is never given twice, even after the newest events were purged, so a
      // subscriber's Last-Event-ID never names a later event than it saw.
      db.exec(`PRAGMA journal_mode = WAL;
        CREATE TABLE IF NOT EXISTS seen (key TEXT PRIMARY KEY, at INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS relay_events (id INTEGER PRIMARY KEY AUTOINCREMENT, public_id TEXT NOT NULL,
          recording_session_public_id TEXT, status TEXT NOT NULL, at TEXT NOT NULL, kept_at INTEGER NOT NULL)`);
    } catch (e) {
      db?.close();
      throw new Error(`cannot keep deliveries in the folder ${dir}: ${(e as Error).message}`, { cause: e });
    }
    this.db = db;
    this.where = file;
    this.purge(options.now ?? Date.now());
  }

  has(key: string, now = Date.now()): boolean {
    return (
      this.db.prepare('SELECT 1 FROM seen WHERE key = ? AND at >= ?').get(key, now - this.rememberMs) !== undefined
    );
  }

  add(key: string, now = Date.now()): void {
    this.db.prepare('INSERT OR REPLACE INTO seen (key, at) VALUES (?, ?)').run(key, now);
    if (now - this.purgedAt >= PURGE_EVERY_MS) this.purge(now);
  }

  async claim(key: string, now: number): Promise<Claim | null> {
    if (this.has(key, now)) return null;
    return {
      commit: async (relay) => {
        if (!relay) return this.add(key, now);
        // The record and the event together or neither, so a delivery is relayed exactly when it is remembered.
        this.db.exec('BEGIN');
        let event: RelayEvent;
        try {
          this.add(key, now);
          event = this.insertEvent(relay, now);
          this.db.exec('COMMIT');
        } catch (e) {
          this.db.exec('ROLLBACK');
          throw e;
        }
        this.listeners.emit(event);
      },
      release: async () => {},
    };
  }

  private insertEvent(input: RelayEventInput, now: number): RelayEvent {
    const row = this.db
      .prepare(
        'INSERT INTO relay_events (public_id, recording_session_public_id, status, at, kept_at) VALUES (?, ?, ?, ?, ?) RETURNING id',
      )
      .get(input.public_id, input.recording_session_public_id, input.status, input.at, now) as { id: number };
    return { id: Number(row.id), ...input };
  }

  async openFeed(): Promise<RelayFeed> {
    return {
      after: async (id, limit) =>
        (
          this.db
            .prepare(
              'SELECT id, public_id, recording_session_public_id, status, at FROM relay_events WHERE id > ? ORDER BY id LIMIT ?',
            )
            .all(id, limit) as unknown as RelayEvent[]
        ).map((row) => ({ ...row, id: Number(row.id) })),
      lastId: async () => {
        // The sequence, not max(id): it still counts events the purge removed.
        const row = this.db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'relay_events'").get() as
          { seq: number } | undefined;
        return Number(row?.seq ?? 0);
      },
      listen: (listener) => this.listeners.add(listener),
    };
  }

  /** How many keys the file holds (for tests and inspection). */
  size(): number {
    const row = this.db.prepare('SELECT count(*) AS n FROM seen').get() as { n: number } | undefined;
    return row?.n ?? 0;
  }

  async close(): Promise<void> {
    this.db.close();
  }

  private purge(now: number): void {
    this.purgedAt = now;
    this.db.prepare('DELETE FROM seen WHERE at < ?').run(now - this.rememberMs);
    this.db.prepare('DELETE FROM relay_events WHERE kept_at < ?').run(now - this.rememberMs);
  }
}
