// Handled deliveries kept in this process only: a restart forgets them, so a retry that arrives
// after a restart is handled again. For a receiver run without a folder or a database.
import { Listeners, type RelayEvent, type RelayEventInput, type RelayFeed } from './relay-feed.ts';
import { DEFAULT_REMEMBER_MS, PURGE_EVERY_MS, type Claim, type SeenStore } from './seen-store.ts';

export class MemorySeenStore implements SeenStore {
  readonly where = 'memory (forgotten when the receiver stops)';
  private readonly keys = new Map<string, number>();
  private readonly rememberMs: number;
  private purgedAt = 0;
  // Oldest first, each with the time it was kept, so the purge can stop at the first young one.
  private readonly relayed: { event: RelayEvent; keptAt: number }[] = [];
  private nextId = 1;
  private readonly listeners = new Listeners();

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
    let old = 0;
    while (old < this.relayed.length && (this.relayed[old]?.keptAt ?? now) < now - this.rememberMs) old += 1;
    this.relayed.splice(0, old);
  }

  async claim(key: string, now: number): Promise<Claim | null> {
    if (this.has(key, now)) return null;
    return {
      commit: async (relay) => {
        this.add(key, now);
        if (relay) this.relay(relay, now);
      },
      release: async () => {},
    };
  }

  private relay(input: RelayEventInput, now: number): void {
    const event = { id: this.nextId++, ...input };
    this.relayed.push({ event, keptAt: now });
    this.listeners.emit(event);
  }

  async openFeed(): Promise<RelayFeed> {
    return {
      after: async (id, limit) => {
        // Ids are consecutive from the oldest kept, so the first one above `id` is found by arithmetic.
        const first = this.relayed[0]?.event.id ?? this.nextId;
        const from = Math.max(0, id + 1 - first);
        return this.relayed.slice(from, from + limit).map((kept) => kept.event);
      },
      lastId: async () => this.nextId - 1,
      listen: (listener) => this.listeners.add(listener),
    };
  }

  async close(): Promise<void> {}
}
