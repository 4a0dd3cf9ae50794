// Copies of one delivery that reach one receiver together are handled one after the other: the
// copy learns the first's outcome, and is never answered "duplicate" before the first succeeded.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { deliver, expectError, published, receiver, type Answer } from './support.ts';

describe('webhook receiver: copies arriving together', () => {
  it('a copy that arrives while the first is being handled waits: when the first fails, the copy is handled', async () => {
    let calls = 0;
    const handled: string[] = [];
    const r = await receiver({
      onEvent: async (e) => {
        calls += 1;
        if (calls === 1) {
          await sleep(300);
          throw new Error('database down');
        }
        handled.push(String((e.payload as { public_id: string }).public_id));
      },
    });
    const raw = published('sc-twin');
    const answers = await Promise.all([deliver(r.url, raw), deliver(r.url, raw)]);
    answers.sort((a, b) => a.status - b.status);
    // Answering the copy "duplicate" would have lost the event: the sender stops retrying it.
    expect(answers[0]?.json).toEqual({ received: true, duplicate: false });
    expectError(answers[1] as Answer, 500, 'handler_failed');
    expect(handled).toEqual(['sc-twin']);
    expect(r.lines).toHaveLength(1);
    // The failed copy's retry finds it handled.
    expect((await deliver(r.url, raw)).json).toEqual({ received: true, duplicate: true });
    expect(handled).toHaveLength(1);
  });

  it('a copy of a delivery still being handled is answered 200 only once the first has succeeded', async () => {
    let finishedAt = 0;
    const r = await receiver({
      onEvent: async () => {
        await sleep(300);
        finishedAt = Date.now();
      },
    });
    const raw = published('sc-slow');
    const answeredAt = async (answer: Promise<Answer>) => ({ ...(await answer), at: Date.now() });
    const answers = await Promise.all([answeredAt(deliver(r.url, raw)), answeredAt(deliver(r.url, raw))]);
    expect(answers.map((a) => a.json['duplicate']).sort()).toEqual([false, true]);
    expect(finishedAt).toBeGreaterThan(0);
    for (const a of answers) expect(a.at).toBeGreaterThanOrEqual(finishedAt);
    expect(r.lines).toHaveLength(1);
  });

  it('a copy kept waiting too long is answered 503, so the sender retries it, and the retry is a duplicate', async () => {
    const r = await receiver({ waitMs: 200, onEvent: () => sleep(1_500) });
    const raw = published('sc-long');
    const answers = await Promise.all([deliver(r.url, raw), deliver(r.url, raw)]);
    answers.sort((a, b) => a.status - b.status);
    expect(answers[0]?.json).toEqual({ received: true, duplicate: false });
    expectError(answers[1] as Answer, 503, 'in_progress');
    expect(answers[1]?.headers['retry-after']).toBe('60');
    expect((await deliver(r.url, raw)).json).toEqual({ received: true, duplicate: true });
    expect(r.lines).toHaveLength(1);
  });
});
