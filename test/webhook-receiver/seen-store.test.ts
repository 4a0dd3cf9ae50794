// What the receiver remembers and for how long: a week by default, far beyond the sender's
// retries, in the node:sqlite file and in memory; a replay inside that memory is a duplicate.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemorySeenStore } from '../../src/webhook-receiver/memory-seen-store.ts';
import { DEFAULT_REMEMBER_MS, MIN_REMEMBER_MS, RETRY_WINDOW_MS } from '../../src/webhook-receiver/seen-store.ts';
import { SqliteSeenStore } from '../../src/webhook-receiver/sqlite-seen-store.ts';
import { deliver, published, receiver } from './support.ts';

const DAY = 24 * 3_600_000;

describe('webhook receiver seen store', () => {
  it('remembers a delivery for a week by default, far beyond the retries, and forgets it after, in the file and in memory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vet-scribe-webhooks-'));
    expect(RETRY_WINDOW_MS).toBe(201 * 60_000);
    expect(MIN_REMEMBER_MS).toBeGreaterThan(RETRY_WINDOW_MS);
    expect(DEFAULT_REMEMBER_MS).toBe(7 * 24 * 3_600_000);
    const t0 = 1_750_000_000_000;
    const store = new SqliteSeenStore(dir, { now: t0 });
    store.add('old', t0);
    store.add('young', t0 + DEFAULT_REMEMBER_MS - 1);
    // The last retry can come as late as the window's end: still a repeat then, and long after.
    expect(store.has('old', t0 + RETRY_WINDOW_MS)).toBe(true);
    expect(await store.claim('old', t0 + 3 * 24 * 3_600_000)).toBeNull();
    expect(store.has('old', t0 + DEFAULT_REMEMBER_MS + 1)).toBe(false);
    await store.close();
    // Reopening later drops what is past keeping from the file itself.
    const reopened = new SqliteSeenStore(dir, { now: t0 + DEFAULT_REMEMBER_MS + 1 });
    expect(reopened.size()).toBe(1);
    expect(reopened.has('young', t0 + DEFAULT_REMEMBER_MS + 1)).toBe(true);
    await reopened.close();

    const memory = new MemorySeenStore();
    memory.add('old', t0);
    expect(memory.has('old', t0 + RETRY_WINDOW_MS)).toBe(true);
    expect(memory.has('old', t0 + DEFAULT_REMEMBER_MS + 1)).toBe(false);
    // A shorter memory is honoured, by both.
    const brief = new MemorySeenStore(MIN_REMEMBER_MS);
    brief.add('k', t0);
    expect(brief.has('k', t0 + MIN_REMEMBER_MS + 1)).toBe(false);
  });

  it('recognises a replay long after the old 4 h 21 min memory, and forgets only after the configured one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vet-scribe-webhooks-'));
    const t0 = Date.parse('2026-03-02T08:00:00Z');
    let clock = t0;
    const r = await receiver({ dataDir: dir, now: () => clock });
    const raw = published('sc-replayed');
    expect((await deliver(r.url, raw)).json['duplicate']).toBe(false);
    clock = t0 + (4 * 60 + 21 + 1) * 60_000;
    expect((await deliver(r.url, raw)).json).toEqual({ received: true, duplicate: true });
    clock = t0 + 6 * DAY;
    expect((await deliver(r.url, raw)).json).toEqual({ received: true, duplicate: true });
    // Past the memory the published payload cannot be told from a new one (README, "Replays").
    clock = t0 + 7 * DAY + 60_000;
    expect((await deliver(r.url, raw)).json).toEqual({ received: true, duplicate: false });
    expect(r.lines).toHaveLength(2);

    let later = t0;
    const short = await receiver({ rememberMs: MIN_REMEMBER_MS, now: () => later });
    expect((await deliver(short.url, raw)).json['duplicate']).toBe(false);
    later = t0 + MIN_REMEMBER_MS - 60_000;
    expect((await deliver(short.url, raw)).json['duplicate']).toBe(true);
    later = t0 + MIN_REMEMBER_MS + 60_000;
    expect((await deliver(short.url, raw)).json['duplicate']).toBe(false);
  });
});
