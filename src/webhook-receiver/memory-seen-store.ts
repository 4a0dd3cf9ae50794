// Handled deliveries kept in this process only: a restart forgets them, so a retry that arrives
// after a restart is handled again. For a receiver run without a folder or a database.
import { DEFAULT_REMEMBER_MS, PURGE_EVERY_MS, type Claim, type SeenStore } from './seen-store.ts';

export class MemorySeenStore implements SeenStore {
  readonly where = 'memory (forgotten when the receiver stops)';
  private readonly keys = new Map<string, number>();
  private readonly rememberMs: number;
  private purgedAt = 0;

  constructor(rememberMs = DEFAULT_REMEMBER_MS) {
    this.rememberMs = rememberMs;
  }

  has(key: string, now = Date.now()): boolean {
    const at = this.keys.get(key);
    return at !== undefined && at >= now - this.rememberMs;
  }

  add(key: string, now = Date.now()): void {
    this.keys.delete(key);
    this.keys.set(key, now);
    if (now - this.purgedAt < PURGE_EVERY_MS) return;
    this.purgedAt = now;
    // Insertion order is age order (a key added again moves to the end), so stop at the first young one.
    for (const [k, at] of this.keys) {
      if (at >= now - this.rememberMs) break;
      this.keys.delete(k);
    }
  }

  async claim(key: string, now: number): Promise<Claim | null> {
    if (this.has(key, now)) return null;
    return { commit: async () => this.add(key, now), release: async () => {} };
  }

  async close(): Promise<void> {}
}
