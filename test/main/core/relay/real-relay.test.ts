// Two exam-room PCs on the clinic relay itself (src/webhook-receiver, relay on), started in this
// process against the sandbox, which delivers its signed `scribe` events to the relay's address
// as registered with PUT /webhook/update. PC A's note is fetched within a second of its
// delivery with one look past the first; PC B lists Bella's note under Bella; the relay closed
// mid-consult hands PC A's next note back to the learned polling. PC B's list, read before PC A's
// consult, gets the note under Bella's visit from the relay's event alone, without a Refresh.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COLLEAGUE_ACCOUNT, type Sandbox } from '../../../../src/sandbox/index.ts';
import type { WebhookReceiver } from '../../../../src/webhook-receiver/receiver.ts';
import { clinicOnRelay, closeClinic, pcOnRelay } from './support.ts';
import { firstTemplateId, recordThrough, until, waitForJob } from '../../../support/core.ts';
import { list, refresh } from '../clinic/support.ts';
import type { ClinicView } from '../../../../src/shared/clinic.ts';
import { closedAfterEach, ok } from '../support.ts';

let sandbox: Sandbox;
let relay: WebhookReceiver;
const received: { scribeId: string; status: string; at: number }[] = [];
const atEnd = closedAfterEach();

beforeAll(async () => {
  ({ sandbox, relay } = await clinicOnRelay(
    { scribeSeconds: 1.5 },
    {
      onEvent: (e) => {
        const p = e.payload as { public_id: string; status: string };
        received.push({ scribeId: p.public_id, status: p.status, at: Date.now() });
      },
    },
  ));
}, 30_000);
// The second test closes the relay already.
afterAll(() => closeClinic({ sandbox, relay }));

const pc = (vet: { email: string; password: string }) => pcOnRelay(sandbox, relay, vet, atEnd);

describe('two exam rooms on the clinic relay', () => {
  it("fetches PC A's note within a second of its delivery; PC B lists it under Bella", async () => {
    const a = await pc(sandbox.demo);
    const b = await pc(COLLEAGUE_ACCOUNT);
    const id = await recordThrough(a.h, 'Bella', 'Vomiting since this morning');
    await ok(a.h['consults:submit']({ id, templateId: await firstTemplateId(a.core) }));
    const job = await waitForJob(a.core, id, (j) => j.state === 'completed' || j.state === 'failed', 20_000);
    expect(job.state).toBe('completed');
    const { scribeIds, recordingSessionIds } = a.core.pipeline.serviceIds(id);
    const [scribeId] = scribeIds;
    const [recordingSessionId] = recordingSessionIds;
    const delivered = received.find((r) => r.scribeId === scribeId && r.status === 'scribed');
    expect(delivered).toBeDefined();
    expect(Date.parse(job.completedAt ?? '') - (delivered?.at ?? 0)).toBeLessThan(1000);
    expect(a.core.pipeline.counters.polls).toBeLessThanOrEqual(2);

    const listed = (await refresh(b.h)).consults.filter(
      (c) => c.scribeId === scribeId || c.recordingSessionId === recordingSessionId,
    );
    expect(listed).toMatchObject([{ scribeId, recordingSessionId, patientName: 'Bella' }]);
  });

  it("lists PC A's note under Bella's visit on PC B as the relay tells it, with no Refresh on PC B", async () => {
    const b = await pc(COLLEAGUE_ACCOUNT);
    // PC B's vet opened the clinic's list before PC A's consult began: the note is not in it.
    const before = await refresh(b.h);
    const told: ClinicView[] = [];
    b.core.on('clinic:changed', (view) => told.push(view));
    const a = await pc(sandbox.demo);
    const id = await recordThrough(a.h, 'Bella', 'Limping on the left fore');
    await ok(a.h['consults:submit']({ id, templateId: await firstTemplateId(a.core) }));
    const job = await waitForJob(a.core, id, (j) => j.state === 'completed' || j.state === 'failed', 20_000);
    expect(job.state).toBe('completed');
    const [scribeId] = a.core.pipeline.serviceIds(id).scribeIds;
    const [recordingSessionId] = a.core.pipeline.serviceIds(id).recordingSessionIds;
    expect(before.consults.some((c) => c.scribeId === scribeId || c.recordingSessionId === recordingSessionId)).toBe(
      false,
    );

    const ofBella = (view: ClinicView) =>
      view.consults.filter((c) => c.scribeId === scribeId || c.recordingSessionId === recordingSessionId);
    // The window is told, so it shows the note without asking.
    await until(() => told.some((view) => ofBella(view)[0]?.scribeId === scribeId), 10_000);
    const expected = [{ scribeId, recordingSessionId, patientName: 'Bella', description: 'Limping on the left fore' }];
    expect(ofBella(told.at(-1) as ClinicView)).toMatchObject(expected);
    // And the list it gets next has it too.
    expect(ofBella(await list(b.h))).toMatchObject(expected);
  });

  it('goes back to the learned polling when the relay is closed mid-consult', async () => {
    const a = await pc(sandbox.demo);
    const id = await recordThrough(a.h, 'Milo');
    await ok(a.h['consults:submit']({ id, templateId: await firstTemplateId(a.core) }));
    await until(() => a.core.pipeline.info(id)?.state === 'scribe_requested', 20_000);
    await relay.close();
    await until(() => a.core.relay.status().state === 'unreachable', 5_000);
    const job = await waitForJob(a.core, id, (j) => j.state === 'completed' || j.state === 'failed', 20_000);
    expect(job.state).toBe('completed');
    expect(a.core.pipeline.counters.polls).toBeGreaterThan(2);
  });
});
