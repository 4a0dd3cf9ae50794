// A delivery dated before what the receiver remembers is refused as a replay (422), judged by
// the newest date it carries, and only once its signature is good.
import { describe, expect, it } from 'vitest';
import { canonicalJsonFromValue } from '../../src/shared/webhook/index.ts';
import { deliver, expectError, published, receiver } from './support.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('webhook receiver: stale deliveries', () => {
  it('refuses a delivery dated before its memory (422 stale_delivery), judged by the newest date in it', async () => {
    const now = Date.parse('2026-03-10T12:00:00Z');
    const r = await receiver({ now: () => now });
    const eightDaysAgo = new Date(now - 8 * DAY).toISOString();
    const stale = await deliver(r.url, published('sc-old', 'scribed', { timestamp: eightDaysAgo }));
    expectError(stale, 422, 'stale_delivery');
    expect(stale.json['detail']).toBe(
      `the delivery is dated ${eightDaysAgo} (timestamp), older than the 7 d this receiver remembers deliveries for: refused as a replay`,
    );
    // Unix seconds and milliseconds are dates too.
    expectError(
      await deliver(r.url, published('sc-old-2', 'scribed', { sent_at: Math.floor((now - 10 * DAY) / 1000) })),
      422,
      'stale_delivery',
    );
    expectError(
      await deliver(r.url, published('sc-old-3', 'scribed', { updated_at: now - 9 * DAY })),
      422,
      'stale_delivery',
    );
    // Keyless payloads are checked as well.
    expectError(
      await deliver(r.url, canonicalJsonFromValue({ event_type: 'scribe', created_at: eightDaysAgo })),
      422,
      'stale_delivery',
    );
    // A scribe created long ago whose status changed today is a fresh delivery.
    const fresh = published('sc-fresh', 'scribed', {
      created_at: eightDaysAgo,
      updated_at: new Date(now - 2 * HOUR).toISOString(),
    });
    expect((await deliver(r.url, fresh)).json).toEqual({ received: true, duplicate: false });
    // A retry hours after its first try is not stale, and is known as a repeat.
    expect((await deliver(r.url, fresh)).json).toEqual({ received: true, duplicate: true });
    // Dates it cannot read are not judged.
    expect((await deliver(r.url, published('sc-odd', 'scribed', { timestamp: 'yesterday', sent_at: -5 }))).status).toBe(
      200,
    );
    // The signature is checked first: an unsigned stale body learns nothing.
    expectError(
      await deliver(r.url, published('sc-old-4', 'scribed', { timestamp: eightDaysAgo }), 'wrong-secret'),
      403,
      'invalid_signature',
    );
    expect(r.lines).toHaveLength(2);
  });
});
