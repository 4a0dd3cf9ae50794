// Handled deliveries kept in one node:sqlite file, so that a retry after a restart is still
// recognised. One receiver only: claims are taken one key at a time within its process
// (key-queue.ts), which a second process opening the same file would not see.
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { makePrivateFile, makePrivateFolder } from './private-files.ts';
import { DEFAULT_REMEMBER_MS, PURGE_EVERY_MS, type Claim, type SeenStore } from './seen-store.ts';

export const SEEN_FILE = 'webhook-seen.sqlite';

export class SqliteSeenStore implements SeenStore {
  readonly where: string;
  private readonly db: DatabaseSync;
  private readonly rememberMs: number;
  private purgedAt = 0;

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
      db.exec('PRAGMA journal_mode = WAL; CREATE TABLE IF NOT EXISTS seen (key TEXT PRIMARY KEY, at INTEGER NOT NULL)');
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
    return { commit: async () => this.add(key, now), release: async () => {} };
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
  }
}
