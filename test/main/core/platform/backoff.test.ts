// The retry and polling schedules of the pipeline (src/main/core/platform/backoff.ts): capped
// exponential backoff with full jitter, raised to the service's Retry-After (itself capped),
// and the poll schedule of a scribe job: quick at first, then slower, never more than 15 s.
import { describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_BACKOFF, pollDelay } from '../../../../src/main/core/platform/backoff.ts';
import { seededRandom } from '../../../../src/shared/seeded-random.ts';

/** The largest number Math.random() (or any [0, 1) source) can give. */
const ALMOST_ONE = 1 - Number.EPSILON;
const constant = (value: number) => () => value;

describe('backoffDelay', () => {
  const options = { baseMs: 100, capMs: 5000 };
  const ceiling = (attempt: number) => Math.min(options.capMs, options.baseMs * 2 ** attempt);

  it('draws the delay from [0, min(cap, base * 2^attempt)): the random number scales the ceiling of the attempt', () => {
    for (let attempt = 0; attempt <= 12; attempt++) {
      expect(backoffDelay(attempt, { ...options, random: constant(0) }), `attempt ${attempt}, random 0`).toBe(0);
      expect(backoffDelay(attempt, { ...options, random: constant(0.5) }), `attempt ${attempt}, random 0.5`).toBe(
        Math.floor(ceiling(attempt) / 2),
      );
      // Full jitter: the top of the range is never reached.
      expect(backoffDelay(attempt, { ...options, random: constant(ALMOST_ONE) }), `attempt ${attempt}, random ~1`).toBe(
        ceiling(attempt) - 1,
      );
    }
  });

  it('doubles the ceiling with each attempt until the cap, then stays there', () => {
    const tops = Array.from(
      { length: 10 },
      (_, attempt) => backoffDelay(attempt, { ...options, random: constant(ALMOST_ONE) }) + 1,
    );
    expect(tops).toEqual([100, 200, 400, 800, 1600, 3200, 5000, 5000, 5000, 5000]);
    // A huge attempt count neither overflows nor escapes the cap.
    expect(backoffDelay(10_000, { ...options, random: constant(ALMOST_ONE) })).toBe(options.capMs - 1);
    // A negative attempt is the first one.
    expect(backoffDelay(-3, { ...options, random: constant(ALMOST_ONE) })).toBe(99);
  });

  it('stays in range for many draws of a real (seeded) random source, and uses the whole range', () => {
    const random = seededRandom(20261123);
    for (let attempt = 0; attempt <= 8; attempt++) {
      const draws = Array.from({ length: 400 }, () => backoffDelay(attempt, { ...options, random }));
      for (const d of draws) {
        expect(Number.isInteger(d)).toBe(true);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThan(ceiling(attempt));
      }
      // Jitter, not a fixed delay: the draws spread over the lower and the upper half.
      expect(Math.min(...draws)).toBeLessThan(ceiling(attempt) / 4);
      expect(Math.max(...draws)).toBeGreaterThan((ceiling(attempt) * 3) / 4);
    }
  });

  it('uses the defaults (1 s base, 60 s cap) when no options are given', () => {
    expect(DEFAULT_BACKOFF).toMatchObject({ baseMs: 1000, capMs: 60_000 });
    for (let attempt = 0; attempt < 10; attempt++) {
      const d = backoffDelay(attempt);
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThan(Math.min(60_000, 1000 * 2 ** attempt));
    }
  });

  it('waits at least the Retry-After the service gave, even when the jitter drew less', () => {
    const random = constant(0);
    expect(backoffDelay(0, { ...options, random }, 3000)).toBe(3000);
    expect(backoffDelay(5, { ...options, random }, 1234)).toBe(1234);
    // Retry-After above the backoff's own cap still counts (up to five times the cap).
    expect(backoffDelay(0, { ...options, random }, 12_000)).toBe(12_000);
    // Retry-After: 0 is "now": the jitter alone decides.
    expect(backoffDelay(3, { ...options, random: constant(0.5) }, 0)).toBe(400);
  });

  it('keeps the jittered delay when it is longer than the Retry-After', () => {
    // Attempt 6: ceiling 5000, random 0.9 -> 4500, longer than a Retry-After of 1 s.
    expect(backoffDelay(6, { ...options, random: constant(0.9) }, 1000)).toBe(4500);
  });

  it('caps an absurd Retry-After at five times the cap', () => {
    expect(backoffDelay(0, { ...options, random: constant(0) }, 3600_000)).toBe(options.capMs * 5);
    expect(backoffDelay(0, { baseMs: 1000, capMs: 60_000, random: constant(0) }, 24 * 3600_000)).toBe(300_000);
    // Exactly at the cap it is taken as given.
    expect(backoffDelay(0, { ...options, random: constant(0) }, options.capMs * 5)).toBe(options.capMs * 5);
  });
});

describe('pollDelay (the default poll schedule of a scribe job)', () => {
  const schedule = Array.from({ length: 60 }, (_, n) => pollDelay(n));

  it('starts fast: the first polls come within a second or two', () => {
    expect(pollDelay(0)).toBeGreaterThan(0);
    expect(pollDelay(0)).toBeLessThanOrEqual(1000);
    expect(pollDelay(1)).toBeLessThanOrEqual(1000);
    // A short consult (a note ready in ~10 s) is seen within a few polls.
    const firstFive = schedule.slice(0, 5).reduce((a, b) => a + b, 0);
    expect(firstFive).toBeLessThanOrEqual(10_000);
  });

  it('never polls faster later than earlier, and does slow down', () => {
    for (let n = 1; n < schedule.length; n++)
      expect(schedule[n], `poll ${n}`).toBeGreaterThanOrEqual(schedule[n - 1] ?? 0);
    expect(schedule.at(-1)).toBeGreaterThan(schedule[0] ?? 0);
  });

  it('is capped at 15 s, and reaches the cap after a handful of polls and stays there', () => {
    expect(Math.max(...schedule)).toBe(15_000);
    const reached = schedule.indexOf(15_000);
    expect(reached).toBeGreaterThan(0);
    expect(reached).toBeLessThanOrEqual(12);
    for (const n of [reached, 20, 100, 1000, 1_000_000]) expect(pollDelay(n), `poll ${n}`).toBe(15_000);
  });
});
