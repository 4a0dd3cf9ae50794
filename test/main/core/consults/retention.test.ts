// A shorter audio retention asks before it deletes audio already kept: the engine says how many
// recordings a choice would delete now, and "count from today" keeps them until the new period
// has passed since the change. Real consults through the sandbox; the pipeline's clock is moved.
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { createHandlers } from '../../../../src/main/core/ipc-handlers.ts';
import { firstTemplateId, makeRecording, startCore, waitForJob } from '../../../support/core.ts';

const DAY = 24 * 3600 * 1000;
let core: AppCore | null = null;
afterEach(async () => {
  await core?.stop();
  core = null;
});

async function twoFinishedConsults(now: { t: number }) {
  core = await startCore({ pipeline: { now: () => now.t } });
  const demo = core.appInfo().sandbox?.demo;
  if (!demo) throw new Error('no sandbox');
  await core.session.signIn(demo.email, demo.password);
  const template = await firstTemplateId(core);
  const ids: string[] = [];
  for (const name of ['Bella', 'Rex']) {
    const id = await makeRecording(core, null, null, { patientName: name });
    await core.pipeline.submit(id, template);
    ids.push(id);
  }
  for (const id of ids)
    expect((await waitForJob(core, id, (j) => j.state === 'completed' || j.state === 'failed')).state).toBe(
      'completed',
    );
  return { core, h: createHandlers(core), ids };
}

describe('a shorter retention', () => {
  it('says how many recordings it would delete; "count from today" keeps them until the new period has passed since the change', async () => {
    const now = { t: Date.now() };
    const { core: c, h, ids } = await twoFinishedConsults(now);
    expect(await h['settings:retentionPreview']({ retentionDays: 1 })).toEqual({ ok: true, data: { wouldDelete: 0 } });
    now.t += 2 * DAY;
    expect(await h['settings:retentionPreview']({ retentionDays: 1 })).toEqual({ ok: true, data: { wouldDelete: 2 } });
    expect(await h['settings:retentionPreview']({ retentionDays: 30 })).toEqual({ ok: true, data: { wouldDelete: 0 } });
    expect(await h['settings:retentionPreview']({ retentionDays: null })).toEqual({
      ok: true,
      data: { wouldDelete: 0 },
    });

    const changed = await h['settings:update']({
      retentionDays: 1,
      retentionAppliesFrom: new Date(now.t).toISOString(),
    });
    expect(changed.ok).toBe(true);
    for (const id of ids) expect(existsSync(c.recordings.audioPath(id)), id).toBe(true);
    expect(c.cache.all().map((x) => x.job?.audioDeleted)).toEqual([false, false]);

    // A day after the change, the new period has passed: the audio goes, the notes stay.
    now.t += DAY + 1000;
    await c.retention.sweep();
    for (const id of ids) expect(existsSync(c.recordings.audioPath(id)), id).toBe(false);
    expect(c.cache.all().map((x) => x.job?.audioDeleted)).toEqual([true, true]);
    expect(c.cache.all().every((x) => x.job?.hasNote)).toBe(true);
  });

  it('"delete them now" deletes the audio at once', async () => {
    const now = { t: Date.now() };
    const { core: c, h, ids } = await twoFinishedConsults(now);
    now.t += 2 * DAY;
    expect((await h['settings:update']({ retentionDays: 1, retentionAppliesFrom: null })).ok).toBe(true);
    for (const id of ids) expect(existsSync(c.recordings.audioPath(id)), id).toBe(false);
  });
});
