// Where handled deliveries are kept: PostgreSQL when several receivers share them, one
// node:sqlite file when one receiver must remember them across restarts, else memory.
import { MemorySeenStore } from './memory-seen-store.ts';
import { openPostgresSeenStore } from './postgres-seen-store.ts';
import type { SeenStore } from './seen-store.ts';
import { SqliteSeenStore } from './sqlite-seen-store.ts';

export interface SeenStoreChoice {
  databaseUrl?: string | null;
  dataDir?: string | null;
  rememberMs?: number;
  waitMs?: number;
  holdLimitMs?: number;
  now?: number;
}

export async function openSeenStore(choice: SeenStoreChoice): Promise<SeenStore> {
  if (choice.databaseUrl && choice.dataDir)
    throw new Error('cannot keep deliveries both in a folder and in a database: give one');
  const { rememberMs, now } = choice;
  if (choice.databaseUrl) {
    return openPostgresSeenStore(choice.databaseUrl, {
      ...(rememberMs !== undefined ? { rememberMs } : {}),
      ...(choice.waitMs !== undefined ? { waitMs: choice.waitMs } : {}),
      ...(choice.holdLimitMs !== undefined ? { holdLimitMs: choice.holdLimitMs } : {}),
      ...(now !== undefined ? { now } : {}),
    });
  }
  if (choice.dataDir)
    return new SqliteSeenStore(choice.dataDir, {
      ...(rememberMs !== undefined ? { rememberMs } : {}),
      ...(now !== undefined ? { now } : {}),
    });
  return new MemorySeenStore(rememberMs);
}
