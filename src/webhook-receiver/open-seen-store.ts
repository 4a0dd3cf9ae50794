// Where handled deliveries are kept: one node:sqlite file when the receiver must remember them
// across restarts, else memory.
import { MemorySeenStore } from './memory-seen-store.ts';
import type { SeenStore } from './seen-store.ts';
import { SqliteSeenStore } from './sqlite-seen-store.ts';

export interface SeenStoreChoice {
  dataDir?: string | null;
  rememberMs?: number;
  now?: number;
}

export async function openSeenStore(choice: SeenStoreChoice): Promise<SeenStore> {
  const { rememberMs, now } = choice;
  if (choice.dataDir) return new SqliteSeenStore(choice.dataDir, { ...(rememberMs !== undefined ? { rememberMs } : {}), ...(now !== undefined ? { now } : {}) });
  return new MemorySeenStore(rememberMs);
}
