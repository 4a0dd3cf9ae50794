// The app's side of the clinic relay, on the real engine over real HTTP: the sandbox delivers its
// signed `scribe` events to a relay built to the relay's protocol (relay-double.ts), and the
// engine subscribes with the signed-in vet's token. A written note is fetched at once with one
// GET /scribe/get while polling is a slow safety net; a relay that drops or goes quiet hands the
// note back to the learned polling at once; a drop resumes with Last-Event-ID, no gap, nothing
// twice; a lapsed token subscribes again with a refreshed one; another clinic's vet is refused;
// the clinic's list puts a note of another room under its patient with the relay's links.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { createHandlers } from '../../../../src/main/core/ipc-handlers.ts';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.ts';
import { COLLEAGUE_ACCOUNT, OTHER_ACCOUNT } from '../../../../src/sandbox/state.ts';
import type { RelayStatus } from '../../../../src/shared/relay.ts';
import { firstTemplateId, recordThrough, startCoreAgainst, until, waitForJob } from '../../../support/core.ts';
import { closedAfterEach, ok } from '../support.ts';
import { refresh } from '../clinic/support.ts';
import { startRelayDouble, type RelayDouble } from './relay-double.ts';

const HEARTBEAT_MS = 200;
let sandbox: Sandbox;
let relay: RelayDouble;
const atEnd = closedAfterEach();

beforeAll(async () => {
  let scribeUrl = '';
  let secret: string | null = null;
  relay = await startRelayDouble({
    scribeUrl: () => scribeUrl,
    webhookSecret: () => secret,
    heartbeatMs: HEARTBEAT_MS,
  });
  sandbox = await startSandbox({ scribeSeconds: 1.5, rateLimitPerMinute: 0, webhookUrl: `${relay.url}/` });
  scribeUrl = sandbox.urls.scribe_url;
  secret = sandbox.webhookSecret;
});
afterAll(async () => {
  await sandbox.close();
  await relay.close();
});

/**
 * An exam-room computer with the relay set, the demo vet signed in; polling fast unless the relay
 * is live. `heartbeatMs`: the silence it allows the relay (two of them) before it looks itself.
 */
async function room(
  vet: { email: string; password: string } = sandbox.demo,
  relayUrl = relay.url,
  heartbeatMs = HEARTBEAT_MS,
) {
  const core: AppCore = await startCoreAgainst(sandbox, {
    relay: { heartbeatMs, backoff: { baseMs: 50, capMs: 300 } },
    pipeline: { relaySafetyNetMs: 60_000, pollDelay: () => 300 },
  });
  atEnd(() => core.stop());
  const states: RelayStatus[] = [];
  core.on('relay:changed', (s) => states.push(s));
  await core.appSettings.update({ relayUrl });
  await core.session.signIn(vet.email, vet.password);
  return { core, h: createHandlers(core), states };
}

const relayState = (core: AppCore) => core.relay.status().state;

describe('the clinic relay, in the app', () => {
  it('fetches a note the relay announces at once, with one GET /scribe/get, polling only as a safety net meanwhile', async () => {
    // The relay's 200 ms heartbeats, allowed 2 s of silence: a machine too busy to read two of
    // them in time would hand the note to polling, which is another test's case.
    const { core, h, states } = await room(sandbox.demo, relay.url, 2_000);
    await until(() => relayState(core) === 'connected', 10_000);
    expect(states.at(-1)).toMatchObject({ state: 'connected', address: relay.url });
    expect(await ok(h['relay:status'](undefined))).toMatchObject({ state: 'connected' });

    const id = await recordThrough(h, 'Bella', 'Coughing for three days');
    await ok(h['consults:submit']({ id, templateId: await firstTemplateId(core) }));
    await until(() => core.pipeline.info(id)?.state === 'scribe_requested', 20_000);
    const job = await waitForJob(core, id, (j) => j.state === 'completed' || j.state === 'failed', 20_000);
    expect(job.state).toBe('completed');
    const [scribeId] = core.pipeline.serviceIds(id).scribeIds;
    const scribed = relay.events.find((e) => e.public_id === scribeId && e.status === 'scribed');
    expect(scribed).toBeDefined();
    // Within a second of the relay getting the delivery, on a busy machine too.
    expect(Date.parse(job.completedAt ?? '') - Date.parse(scribed?.at ?? '')).toBeLessThan(1000);
    // The announced look only: none at the scribe request (the relay announces every note), none in between.
    expect(core.pipeline.counters.polls).toBe(1);
    expect(core.pipeline.counters.statusPages).toBe(0);
  });

  it('looks on the usual plan when a note the relay announced is not there yet', async () => {
    const { core, h } = await room();
    await until(() => relayState(core) === 'connected', 10_000);
    const id = await recordThrough(h, 'Oscar');
    await ok(h['consults:submit']({ id, templateId: await firstTemplateId(core) }));
    await until(() => core.pipeline.serviceIds(id).scribeIds.size === 1, 20_000);
    const [scribeId] = core.pipeline.serviceIds(id).scribeIds;
    // Announced written before the service has written it (a relay ahead of the service's own answer).
    relay.add({ public_id: scribeId ?? '', recording_session_public_id: null, status: 'scribed' });
    // The service's own delivery, when it comes, is not passed on: only polling can find the note.
    relay.mute = true;
    try {
      const job = await waitForJob(core, id, (j) => j.state === 'completed' || j.state === 'failed', 20_000);
      expect(job.state).toBe('completed');
      // Not left to the 60 s safety net: the look it caused found nothing, and the plan's looks found the note.
      expect(core.pipeline.counters.polls).toBeGreaterThan(2);
    } finally {
      relay.mute = false;
    }
  });

  it('hands a note back to the usual polling at once when the relay drops, and resumes after the last event with no gap', async () => {
    const { core, h } = await room();
    await until(() => relayState(core) === 'connected', 10_000);
    const id = await recordThrough(h, 'Milo');
    await ok(h['consults:submit']({ id, templateId: await firstTemplateId(core) }));
    await until(() => core.pipeline.info(id)?.state === 'scribe_requested', 20_000);
    // The relay dies before the note is written and comes back silent: polling finds the note.
    relay.silent = true;
    relay.dropAll();
    await until(() => relayState(core) === 'unreachable', 5_000);
    const job = await waitForJob(core, id, (j) => j.state === 'completed', 20_000);
    expect(job.state).toBe('completed');
    expect(core.pipeline.counters.polls).toBeGreaterThan(2);
    relay.silent = false;
    // Back: the subscription resumes after the last event it had (Last-Event-ID), and what came
    // meanwhile arrives once.
    await until(() => relayState(core) === 'connected', 10_000);
    const heard: number[] = [];
    core.relay.on('event', (e) => heard.push(e.id));
    // Heard as it happens: with a 50 ms backoff the drop and the new subscription can both fall
    // between two looks at the state.
    let dropped = false;
    core.relay.on('status', (s) => (dropped ||= s.state !== 'connected'));
    relay.dropAll();
    await until(() => dropped, 5_000);
    const missed = relay.add({
      public_id: 'elsewhere-1',
      recording_session_public_id: 'rs-elsewhere',
      status: 'scribing',
    });
    await until(() => relayState(core) === 'connected' && heard.includes(missed.id), 10_000);
    const last = relay.subscriptions.at(-1);
    expect(Number(last?.lastEventId)).toBe(missed.id - 1);
    relay.add({ public_id: 'elsewhere-1', recording_session_public_id: 'rs-elsewhere', status: 'scribed' });
    await until(() => heard.length === 2, 5_000);
    expect(heard).toEqual([missed.id, missed.id + 1]);
  });

  it('counts a relay that accepts and never speaks as not reachable within two heartbeats', async () => {
    relay.silent = true;
    try {
      const started = Date.now();
      const { core } = await room();
      await until(() => relayState(core) === 'unreachable', 5_000);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(core.relay.status()).toMatchObject({ message: expect.stringMatching(/did not answer|nothing/) });
    } finally {
      relay.silent = false;
    }
  });

  it('hands a note back to the usual polling when a connected relay goes quiet, its connection still open', async () => {
    const { core, h } = await room();
    await until(() => relayState(core) === 'connected', 10_000);
    const id = await recordThrough(h, 'Luna');
    await ok(h['consults:submit']({ id, templateId: await firstTemplateId(core) }));
    await until(() => core.pipeline.info(id)?.state === 'scribe_requested', 20_000);
    // No more keep-alives, and no more events: the stream stays open with no one behind it.
    relay.silent = true;
    relay.mute = true;
    try {
      const quietAt = Date.now();
      await until(() => relayState(core) === 'unreachable', 5_000);
      expect(Date.now() - quietAt).toBeLessThan(2 * HEARTBEAT_MS + 2_000);
      const job = await waitForJob(core, id, (j) => j.state === 'completed' || j.state === 'failed', 20_000);
      expect(job.state).toBe('completed');
      // Found by polling: the relay passed nothing on.
      expect(core.pipeline.counters.polls).toBeGreaterThan(2);
    } finally {
      relay.silent = false;
      relay.mute = false;
    }
  });

  it('subscribes again with a refreshed token when the relay says the token lapsed', async () => {
    const { core } = await room();
    await until(() => relayState(core) === 'connected', 10_000);
    const before = relay.subscriptions.length;
    const first = relay.subscriptions.at(-1)?.authorization;
    relay.expireAll();
    await until(() => relay.subscriptions.length > before && relayState(core) === 'connected', 10_000);
    const again = relay.subscriptions.at(-1);
    expect(again?.status).toBe(200);
    expect(again?.authorization).not.toBe(first);
    expect(again?.authorization).toMatch(/^Bearer .+/);
  });

  it('does not refresh in a loop when the relay says every token has lapsed', async () => {
    const { core } = await room();
    await until(() => relayState(core) === 'connected', 10_000);
    relay.expireAtOnce = true;
    try {
      const before = relay.subscriptions.length;
      relay.expireAll();
      await new Promise((r) => setTimeout(r, 1500));
      // Backoff from the second lapse on (50 ms doubling to 300 ms here): a handful, not hundreds.
      const made = relay.subscriptions.length - before;
      expect(made).toBeGreaterThanOrEqual(2);
      expect(made).toBeLessThan(20);
    } finally {
      relay.expireAtOnce = false;
    }
  });

  it("says plainly when the relay refuses another clinic's vet, and is off without an address", async () => {
    // The relay serves the demo vet's clinic (its first subscriber's, or the tests before).
    const first = await room();
    await until(() => relayState(first.core) === 'connected', 10_000);
    const other = await room(OTHER_ACCOUNT);
    await until(() => relayState(other.core) === 'refused', 10_000);
    expect(other.core.relay.status()).toMatchObject({ state: 'refused', message: 'Refused (forbidden).' });
    await other.core.appSettings.update({ relayUrl: '' });
    await until(() => relayState(other.core) === 'off', 5_000);
    const bad = await other.h['settings:update']({ relayUrl: 'http://relay.clinic.example:8080/' });
    expect(bad.ok).toBe(false);
  });

  it("lists a note of another room under its patient and visit with the relay's links", async () => {
    // Exam room 1 records Bella; the office, with the relay set, lists the clinic's consults.
    const room1 = await room();
    const bella = await recordThrough(room1.h, 'Bella', 'Limping on the left hind leg');
    await ok(room1.h['consults:submit']({ id: bella, templateId: await firstTemplateId(room1.core) }));
    expect((await waitForJob(room1.core, bella, (j) => j.state === 'completed' || j.state === 'failed')).state).toBe(
      'completed',
    );
    const { scribeIds, recordingSessionIds } = room1.core.pipeline.serviceIds(bella);
    const [scribeId] = scribeIds;
    const [recordingSessionId] = recordingSessionIds;
    await until(() => relay.events.some((e) => e.public_id === scribeId && e.status === 'scribed'), 10_000);

    // Without a relay the service's lists cannot say which visit the note is of.
    const alone = await room(COLLEAGUE_ACCOUNT, '');
    // (The note is offered on the visit's row as one that could be its own, its patient not named.)
    const visits = (await refresh(alone.h)).consults.filter((c) => c.recordingSessionId === recordingSessionId);
    expect(visits).toMatchObject([{ scribeId: null, patientName: 'Bella' }]);
    const unpaired = (visits[0]?.candidates ?? []).filter((c) => c.scribeId === scribeId);
    expect(unpaired).toMatchObject([{ recordingSessionId: null, patientName: null }]);

    const office = await room(COLLEAGUE_ACCOUNT);
    const listed = (await refresh(office.h)).consults;
    const note = listed.filter((c) => c.scribeId === scribeId || c.recordingSessionId === recordingSessionId);
    expect(note).toMatchObject([
      { scribeId, recordingSessionId, patientName: 'Bella', description: 'Limping on the left hind leg' },
    ]);
  });
});
