// What a job costs in status requests with the clinic relay live, on the app's own poll plan (no
// fixed schedule): the relay (src/webhook-receiver, relay on, started in this process) announces
// the note when the sandbox's signed `scribed` delivery reaches it, so the job asks for it once,
// when announced, and makes no look at the scribe request, even before the plan has learned
// anything of this service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { createHandlers } from '../../../../src/main/core/ipc-handlers.ts';
import type { Sandbox } from '../../../../src/sandbox/index.ts';
import type { WebhookReceiver } from '../../../../src/webhook-receiver/receiver.ts';
import { clinicOnRelay, closeClinic } from '../relay/support.ts';
import { firstTemplateId, recordThrough, startCoreAgainst, until, waitForJob } from '../../../support/core.ts';
import { closedAfterEach, ok } from '../support.ts';

let sandbox: Sandbox;
let relay: WebhookReceiver;
const atEnd = closedAfterEach();

beforeAll(async () => {
  ({ sandbox, relay } = await clinicOnRelay({ scribeSeconds: 1.5 }));
}, 30_000);
afterAll(() => closeClinic({ sandbox, relay }));

describe('status requests with the clinic relay live', () => {
  it('asks for a note once, when the relay announces it, with no look at the scribe request', async () => {
    // The app's pipeline defaults: the learned plan from its first guess, the 60 s safety net.
    const core: AppCore = await startCoreAgainst(sandbox, { relay: { heartbeatMs: 200 } });
    atEnd(() => core.stop());
    await core.appSettings.update({ relayUrl: relay.url });
    await core.session.signIn(sandbox.demo.email, sandbox.demo.password);
    await until(() => core.relay.status().state === 'connected', 10_000);
    const h = createHandlers(core);
    const templateId = await firstTemplateId(core);

    for (const patient of ['Bella', 'Milo']) {
      const id = await recordThrough(h, patient);
      await ok(h['consults:submit']({ id, templateId }));
      const job = await waitForJob(core, id, (j) => j.state === 'completed' || j.state === 'failed', 20_000);
      expect(job.state).toBe('completed');
    }
    // The first consult on the plan's first guess, the second on what it learned: one
    // GET /scribe/get each, none of the status board's pages.
    expect(core.relay.status().state).toBe('connected');
    expect(core.pipeline.counters.polls).toBe(2);
    expect(core.pipeline.counters.statusPages).toBe(0);
  });
});
