// An edit of a note, announced through the clinic relay itself (src/webhook-receiver, relay on)
// between two exam-room PCs on the real engine: the service's API cannot change a note, so PC A,
// where it was edited, says so (its name, the vet, when; never the text) once the vet saved, and
// PC B says it over the service's original. A PC that subscribes after the edit still hears it;
// the edit names the vet who made it even when the next vet switched in before it went.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { createHandlers, type HandlerTable } from '../../../../src/main/core/ipc-handlers.ts';
import { COLLEAGUE_ACCOUNT, type Sandbox } from '../../../../src/sandbox/index.ts';
import { findClinicNote, type ClinicNote } from '../../../../src/shared/clinic.ts';
import type { WebhookReceiver } from '../../../../src/webhook-receiver/receiver.ts';
import { firstTemplateId, recordThrough, startCoreAgainst, tempDir, until, waitForJob } from '../../../support/core.ts';
import { signIn } from '../../../support/http.ts';
import { subscribe } from '../../../webhook-receiver/subscriber.ts';
import { list, refresh } from '../clinic/support.ts';
import { closedAfterEach, ok } from '../support.ts';
import { clinicOnRelay, closeClinic } from './support.ts';

const DEBOUNCE_MS = 400;
let sandbox: Sandbox;
let relay: WebhookReceiver;
const atEnd = closedAfterEach();

beforeAll(async () => {
  ({ sandbox, relay } = await clinicOnRelay({ scribeSeconds: 0.5 }));
}, 30_000);
// The last test closes the relay already.
afterAll(() => closeClinic({ sandbox, relay }));

async function pc(vet: { email: string; password: string }, computerName: string, dataDir?: string) {
  const core: AppCore = await startCoreAgainst(sandbox, {
    relay: { heartbeatMs: 200, backoff: { baseMs: 50, capMs: 300 }, computerName, editDebounceMs: DEBOUNCE_MS },
    pipeline: { relaySafetyNetMs: 60_000, pollDelay: () => 300 },
    ...(dataDir ? { dataDir } : {}),
  });
  let stopped = false;
  const stop = async () => {
    if (!stopped) await core.stop();
    stopped = true;
  };
  atEnd(stop);
  await core.appSettings.update({ relayUrl: relay.url });
  await core.session.signIn(vet.email, vet.password);
  await until(() => ['connected', 'unreachable'].includes(core.relay.status().state), 10_000);
  return { core, h: createHandlers(core), stop };
}

/** A consult of `patient` on `room`, its note written; its id and the note's scribe. */
async function consult(room: { core: AppCore; h: HandlerTable }, patient: string) {
  const id = await recordThrough(room.h, patient, 'Vomiting since this morning');
  await ok(room.h['consults:submit']({ id, templateId: await firstTemplateId(room.core) }));
  const job = await waitForJob(room.core, id, (j) => j.state === 'completed' || j.state === 'failed', 20_000);
  expect(job.state).toBe('completed');
  const [scribeId] = room.core.pipeline.serviceIds(id).scribeIds;
  if (scribeId === undefined) throw new Error('no scribe');
  return { id, scribeId };
}

/** The note of scribe `scribeId` as PC B's window reads it (clinic:note), once its list has it. */
async function clinicNote(h: HandlerTable, scribeId: string): Promise<ClinicNote> {
  const row = findClinicNote((await refresh(h)).consults, scribeId);
  if (!row) throw new Error(`note ${scribeId} is not in the clinic's list`);
  return ok(h['clinic:note']({ key: row.key }));
}

/** Reads the note until it says it was edited elsewhere (the announcement travels on its own). */
async function editedNote(h: HandlerTable, scribeId: string): Promise<ClinicNote> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const note = await clinicNote(h, scribeId);
    if (note.editedElsewhere || Date.now() > deadline) return note;
    await sleep(100);
  }
}

describe('an edit announced through the clinic relay', () => {
  it('is sent once the vet saves (not for each draft, once for saves close together), and a PC that subscribes later says who edited it, where and when', async () => {
    const a = await pc(sandbox.demo, 'Exam room 1');
    // The relay as any other PC of the clinic hears it.
    const ear = await subscribe(relay.url, (await signIn(sandbox)).access);
    const edits = () => ear.events.filter((e) => e.event === 'edit').map((e) => e.data as Record<string, unknown>);
    const { id, scribeId } = await consult(a, 'Bella');

    // Typing keeps drafts: nothing is announced for them.
    for (const text of ['Plan\nMeloxicam', 'Plan\nMeloxicam 0.1 mg/kg', 'Plan\nMeloxicam 0.1 mg/kg PO SID'])
      await ok(a.h['consults:saveDraft']({ id, text }));
    await sleep(DEBOUNCE_MS * 2);
    expect(edits()).toEqual([]);

    const before = Date.now();
    for (const text of ['Plan\nMeloxicam 0.1 mg/kg PO SID', 'Plan\nMeloxicam 0.1 mg/kg PO SID for 5 days'])
      await ok(a.h['consults:saveNote']({ id, text }));
    await until(() => edits().length > 0, 10_000);
    await sleep(DEBOUNCE_MS * 2);
    expect(edits()).toEqual([
      { public_id: scribeId, room: 'Exam room 1', editor: 'Dr. Demo Vet', edited_at: expect.any(String) },
    ]);
    const at = Date.parse(String(edits()[0]?.edited_at));
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    expect(JSON.stringify(ear.events)).not.toMatch(/Meloxicam/);

    // PC B was off when it was announced: the relay keeps it, and PC B says it over the original.
    const b = await pc(COLLEAGUE_ACCOUNT, 'Exam room 2');
    const note = await editedNote(b.h, scribeId);
    expect(note.editedElsewhere).toEqual({ room: 'Exam room 1', by: 'Dr. Demo Vet', at: edits()[0]?.edited_at });
    expect(note.note).not.toMatch(/for 5 days/);
  });

  it('names the vet who made the edit when the next vet has switched in before it was announced', async () => {
    const a = await pc(sandbox.demo, 'Exam room 1');
    const b = await pc(COLLEAGUE_ACCOUNT, 'Exam room 2');
    const { id, scribeId } = await consult(a, 'Luna');
    expect((await clinicNote(b.h, scribeId)).editedElsewhere).toBeNull();

    await ok(a.h['consults:saveNote']({ id, text: 'Plan\nMaropitant 1 mg/kg SC once.' }));
    // Switch user before the announcement went: the colleague signs in on PC A.
    await ok(a.h['session:switchUser'](undefined));
    await ok(a.h['session:signIn'](COLLEAGUE_ACCOUNT));
    const note = await editedNote(b.h, scribeId);
    expect(note.editedElsewhere).toMatchObject({ room: 'Exam room 1', by: 'Dr. Demo Vet' });
  });

  it("announces the edit under this computer's name from Settings, from the next save on; a bad name saves nothing and says why", async () => {
    // Given no name, the engine uses its host name ('vm' stands in for it here).
    const a = await pc(sandbox.demo, 'vm');
    const ear = await subscribe(relay.url, (await signIn(sandbox)).access);
    const { id, scribeId } = await consult(a, 'Milo');
    const rooms = () =>
      ear.events
        .filter((e) => e.event === 'edit' && (e.data as Record<string, unknown>).public_id === scribeId)
        .map((e) => (e.data as Record<string, unknown>).room);
    expect(a.core.settings.get().computerName).toBe('');

    await ok(a.h['consults:saveNote']({ id, text: 'Plan\nRecheck in 3 days.' }));
    await until(() => rooms().length === 1, 10_000);
    expect(rooms()).toEqual(['vm']);

    // Named in Settings (trimmed): the next save goes out under it; nothing else changed.
    const before = a.core.settings.get();
    const after = await ok(a.h['settings:update']({ computerName: '  Exam room 1  ' }));
    expect(after.computerName).toBe('Exam room 1');
    expect(a.core.settings.get()).toEqual({ ...before, computerName: 'Exam room 1' });
    await ok(a.h['consults:saveNote']({ id, text: 'Plan\nRecheck in 5 days.' }));
    await until(() => rooms().length === 2, 10_000);
    expect(rooms()).toEqual(['vm', 'Exam room 1']);

    // Too long, or with a line break, in a change with another setting: refused, named,
    // and nothing of the change is saved.
    const kept = a.core.settings.get();
    for (const [computerName, why] of [
      ['x'.repeat(41), /computerName:? must be at most 40 characters/],
      ['Exam\nroom 1', /computerName:? must be printable characters only: no line breaks/],
    ] as const) {
      const refused = await a.h['settings:update']({ computerName, askPetOwnerConsent: !kept.askPetOwnerConsent });
      expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
      expect(JSON.stringify(refused)).toMatch(why);
      expect(a.core.settings.get()).toEqual(kept);
    }

    // Emptied, the host name is used again.
    await ok(a.h['settings:update']({ computerName: '   ' }));
    expect(a.core.settings.get().computerName).toBe('');
    await ok(a.h['consults:saveNote']({ id, text: 'Plan\nRecheck in 7 days.' }));
    await until(() => rooms().length === 3, 10_000);
    expect(rooms()).toEqual(['vm', 'Exam room 1', 'vm']);
  });

  it('keeps what PC B heard on its disk: restarted while the relay is down, it still says it', async () => {
    const a = await pc(sandbox.demo, 'Exam room 1');
    const dataDir = tempDir();
    const b = await pc(COLLEAGUE_ACCOUNT, 'Exam room 2', dataDir);
    const { id, scribeId } = await consult(a, 'Otis');
    await ok(a.h['consults:saveNote']({ id, text: 'Plan\nRecheck in 7 days.' }));
    const heard = (await editedNote(b.h, scribeId)).editedElsewhere;
    expect(heard).toMatchObject({ room: 'Exam room 1', by: 'Dr. Demo Vet' });
    await b.stop();
    await relay.close();
    // The relay is gone (and would have forgotten it in memory): PC B starts again on its folder.
    const again = await pc(COLLEAGUE_ACCOUNT, 'Exam room 2', dataDir);
    const row = findClinicNote((await list(again.h)).consults, scribeId);
    expect(row).toBeDefined();
    const note = await ok(again.h['clinic:note']({ key: row!.key }));
    expect(note.editedElsewhere).toEqual(heard);
  });
});
