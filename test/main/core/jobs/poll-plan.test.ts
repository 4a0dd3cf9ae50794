// The poll plan of a scribe job (src/main/core/jobs/poll-plan.ts): what it learns of the
// service's time per audio minute (per template, per service, kept on disk), how it adapts when
// the service slows down, and the looks it makes around the expected finish — simulated on a
// clock of numbers, so nothing here waits.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  FIRST_GUESS_MS_PER_MINUTE,
  nextPollDelay,
  PollPlan,
  type Expectation,
} from '../../../../src/main/core/jobs/poll-plan.ts';

const S = 'https://scribe.example/api';
const T = 'soap';

/** Looks from the request (t = 0) until the note, ready at `readyMs`, is seen: how many, and how late. */
function simulate(e: Expectation, readyMs: number): { looks: number; lagMs: number; perMinute: number } {
  let t = 0;
  let looks = 0;
  while (t < readyMs) {
    const delay = nextPollDelay(t, e);
    expect(delay, `delay at ${t} ms`).toBeGreaterThan(0);
    t += delay;
    looks += 1;
    if (looks > 10_000) throw new Error('endless');
  }
  return { looks, lagMs: t - readyMs, perMinute: looks / (t / 60_000) };
}

async function learned(plan: PollPlan, samples: number[], template = T, service = S): Promise<void> {
  for (const ms of samples) await plan.learn(service, template, 1, ms);
}

describe('PollPlan', () => {
  it('guesses before it has learned anything, and says so', () => {
    const e = new PollPlan(null).expect(S, T, 0.1);
    expect(e.learned).toBe(false);
    expect(e.expectedMs).toBe(FIRST_GUESS_MS_PER_MINUTE);
    // Longer recordings are expected to take longer.
    expect(new PollPlan(null).expect(S, T, 10).expectedMs).toBe(FIRST_GUESS_MS_PER_MINUTE * 10);
  });

  it('learns the time per audio minute of a template, and scales it by the length of the recording', async () => {
    const plan = new PollPlan(null);
    // 40 s for a 2-minute recording, 60 s for 3 minutes: 20 s per minute.
    await plan.learn(S, T, 2, 40_000);
    await plan.learn(S, T, 3, 60_000);
    await plan.learn(S, T, 4, 80_000);
    const e = plan.expect(S, T, 5);
    expect(e.learned).toBe(true);
    expect(e.expectedMs).toBe(100_000);
    expect(e.spreadMs).toBeGreaterThanOrEqual(2000);
    expect(e.spreadMs).toBeLessThan(20_000);
  });

  it('keeps services and templates apart; a new template borrows from the service, a new service guesses', async () => {
    const plan = new PollPlan(null);
    await learned(plan, [10_000, 10_000, 10_000], 'soap');
    await learned(plan, [50_000, 50_000, 50_000], 'discharge');
    expect(plan.expect(S, 'soap', 1).expectedMs).toBe(10_000);
    expect(plan.expect(S, 'discharge', 1).expectedMs).toBe(50_000);
    const borrowed = plan.expect(S, 'referral', 1);
    expect(borrowed.learned).toBe(true);
    expect(borrowed.expectedMs).toBeGreaterThanOrEqual(10_000);
    expect(borrowed.expectedMs).toBeLessThanOrEqual(50_000);
    expect(plan.expect('https://other.example', 'soap', 1).learned).toBe(false);
  });

  it('is not moved by one note that took ten times as long', async () => {
    const plan = new PollPlan(null);
    await learned(plan, [30_000, 31_000, 29_000, 30_000]);
    await plan.learn(S, T, 1, 300_000);
    expect(plan.expect(S, T, 1).expectedMs).toBeGreaterThanOrEqual(29_000);
    expect(plan.expect(S, T, 1).expectedMs).toBeLessThanOrEqual(31_000);
  });

  it('adapts within two consults when the service slows down, and back again when it recovers', async () => {
    const plan = new PollPlan(null);
    await learned(plan, [30_000, 30_000, 30_000, 30_000, 30_000]);
    await plan.learn(S, T, 1, 90_000);
    expect(plan.expect(S, T, 1).expectedMs).toBe(30_000);
    await plan.learn(S, T, 1, 90_000);
    expect(plan.expect(S, T, 1).expectedMs).toBe(90_000);
    await plan.learn(S, T, 1, 90_000);
    expect(plan.expect(S, T, 1).expectedMs).toBe(90_000);
    await learned(plan, [30_000, 30_000]);
    expect(plan.expect(S, T, 1).expectedMs).toBe(30_000);
  });

  it('keeps what it learned on disk per service, written whole, and starts again from a bad file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vet-scribe-plan-'));
    const file = join(dir, 'poll-plan.json');
    const plan = new PollPlan(file);
    await learned(plan, [20_000, 22_000, 21_000]);
    await plan.learn('https://b.example', T, 1, 70_000);
    expect(readdirSync(dir)).toEqual(['poll-plan.json']);
    const again = new PollPlan(file);
    await again.load();
    expect(again.expect(S, T, 1)).toEqual(plan.expect(S, T, 1));
    expect(again.expect('https://b.example', T, 1).expectedMs).toBe(70_000);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { services: Record<string, Record<string, number[]>> };
    expect(saved.services[S]?.[T]).toEqual([20_000, 22_000, 21_000]);

    writeFileSync(file, '{ not json');
    const fresh = new PollPlan(file);
    await fresh.load();
    expect(fresh.expect(S, T, 1).learned).toBe(false);
    writeFileSync(file, JSON.stringify({ version: 1, services: { [S]: { [T]: [-5, 'x', 40_000] } } }));
    const cleaned = new PollPlan(file);
    await cleaned.load();
    expect(cleaned.expect(S, T, 1).expectedMs).toBe(40_000);
  });

  it('never keeps more than the latest few notes per template', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vet-scribe-plan-'));
    const file = join(dir, 'poll-plan.json');
    const plan = new PollPlan(file);
    await learned(
      plan,
      Array.from({ length: 40 }, (_, i) => 10_000 + i),
    );
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { services: Record<string, Record<string, number[]>> };
    expect(saved.services[S]?.[T]?.length).toBe(5);
  });
});

describe('nextPollDelay', () => {
  it('polls sparsely before the expected finish, densely around it, and less and less after it', () => {
    const e: Expectation = { expectedMs: 60_000, spreadMs: 3000, learned: true };
    const early = nextPollDelay(0, e);
    const near = nextPollDelay(58_000, e);
    const late = [70_000, 100_000, 200_000, 600_000].map((t) => nextPollDelay(t, e));
    expect(early).toBeGreaterThanOrEqual(5000);
    expect(near).toBeLessThanOrEqual(1500);
    expect(late[0]).toBeLessThan(late[2]!);
    for (const d of late) expect(d).toBeLessThanOrEqual(15_000);
    // Before the window it never overshoots its start.
    expect(nextPollDelay(55_000, e)).toBe(2000);
  });

  it('sees a note that comes when expected within a second and a half (4 s for a long one), at no more than 10 looks a minute', () => {
    for (const expectedMs of [20_000, 45_000, 60_000, 120_000, 600_000]) {
      const e: Expectation = { expectedMs, spreadMs: Math.max(2000, expectedMs * 0.05), learned: true };
      for (const readyMs of [expectedMs - e.spreadMs / 2, expectedMs, expectedMs + e.spreadMs / 2]) {
        const run = simulate(e, readyMs);
        expect(run.lagMs, `${expectedMs} ms, ready at ${readyMs}`).toBeLessThanOrEqual(
          expectedMs <= 60_000 ? 1500 : 4000,
        );
        expect(run.perMinute, `${expectedMs} ms, ready at ${readyMs}`).toBeLessThanOrEqual(
          expectedMs < 30_000 ? 20 : 10,
        );
      }
    }
  });

  it('still sees a note far later than expected, without spending more looks a minute', () => {
    const e: Expectation = { expectedMs: 30_000, spreadMs: 2000, learned: true };
    for (const readyMs of [60_000, 300_000, 3_600_000]) {
      const run = simulate(e, readyMs);
      expect(run.lagMs).toBeLessThanOrEqual(15_000);
      expect(run.perMinute).toBeLessThanOrEqual(10);
    }
  });

  it('sees a note that comes early soon after', () => {
    const e: Expectation = { expectedMs: 60_000, spreadMs: 3000, learned: true };
    expect(simulate(e, 20_000).lagMs).toBeLessThanOrEqual(20_000);
    expect(simulate(e, 45_000).lagMs).toBeLessThanOrEqual(8000);
  });
});
