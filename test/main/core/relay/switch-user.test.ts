// A Switch user in the middle of a clinic relay subscription, on the real engine, the sandbox and
// the clinic relay itself: PC B subscribes with the demo vet's sign-in, the colleague switches in,
// and the subscription is made again with theirs. A link the relay passes on after the switch
// reaches the colleague's list (without a Refresh), and nothing the demo vet read on PC B (their
// list, the note they opened) is shown to the colleague.
import { describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import type { HandlerTable } from '../../../../src/main/core/ipc-handlers.ts';
import { COLLEAGUE_ACCOUNT } from '../../../../src/sandbox/index.ts';
import { findClinicNote, type ClinicView } from '../../../../src/shared/clinic.ts';
import type { RelayStatus } from '../../../../src/shared/relay.ts';
import { firstTemplateId, recordThrough, until, waitForJob } from '../../../support/core.ts';
import { list, refresh } from '../clinic/support.ts';
import { closedAfterEach, ok } from '../support.ts';
import { clinicOnRelayForTheFile, pcOnRelay } from './support.ts';

const clinic = clinicOnRelayForTheFile({ scribeSeconds: 0.5 });
const atEnd = closedAfterEach();

const pc = (vet: { email: string; password: string }) => pcOnRelay(clinic.sandbox, clinic.relay, vet, atEnd);

/** A consult of `patient` recorded on `room` until its note is written; its note's scribe and visit. */
async function consult(room: { core: AppCore; h: HandlerTable }, patient: string, description: string) {
  const id = await recordThrough(room.h, patient, description);
  await ok(room.h['consults:submit']({ id, templateId: await firstTemplateId(room.core) }));
  const job = await waitForJob(room.core, id, (j) => j.state === 'completed' || j.state === 'failed', 20_000);
  expect(job.state).toBe('completed');
  const { scribeIds, recordingSessionIds } = room.core.pipeline.serviceIds(id);
  return { scribeId: [...scribeIds][0]!, recordingSessionId: [...recordingSessionIds][0]! };
}

describe('a Switch user in the middle of a relay subscription', () => {
  it("subscribes again as the next vet: links heard after it reach the next vet's list, and nothing of the last vet's is shown", async () => {
    const a = await pc(clinic.sandbox.demo);
    const b = await pc(clinic.sandbox.demo);
    const states: RelayStatus[] = [];
    b.core.on('relay:changed', (s) => states.push(s));

    // The demo vet, on PC B, reads the clinic's list and opens Bella's note.
    const bella = await consult(a, 'Bella', 'Vomiting since this morning');
    const demoList = await refresh(b.h);
    const bellaRow = findClinicNote(demoList.consults, bella.scribeId);
    expect(bellaRow).toBeDefined();
    await ok(b.h['clinic:note']({ key: bellaRow!.key }));
    expect(findClinicNote((await list(b.h)).consults, bella.scribeId)?.noteKept).toBe(true);

    // The colleague switches in: the subscription is dropped and made again with their sign-in.
    await ok(b.h['session:switchUser'](undefined));
    await until(() => states.some((s) => s.state === 'signed-out'), 10_000);
    // Signed out: the demo vet's list is not shown to whoever walks up.
    const signedOut = await b.h['clinic:list'](undefined);
    expect(signedOut.ok ? signedOut.data.consults : []).toEqual([]);
    const told: ClinicView[] = [];
    b.core.on('clinic:changed', (view) => told.push(view));
    await ok(b.h['session:signIn'](COLLEAGUE_ACCOUNT));
    await until(() => b.core.relay.status().state === 'connected', 10_000);
    // The colleague's own list: not the demo vet's, which they never read.
    const unread = await list(b.h);
    expect(unread.refreshedAt).toBeNull();
    expect(unread.consults).toEqual([]);
    // Read once for them, as the window does at each sign-in: Bella's note is listed, but the copy
    // the demo vet read is theirs and is not kept for the colleague.
    const theirs = await refresh(b.h);
    expect(findClinicNote(theirs.consults, bella.scribeId)).toMatchObject({ noteKept: false });

    // PC A's next consult: the relay names Milo's visit, and the colleague's list has it with no Refresh.
    const milo = await consult(a, 'Milo', 'Itching around the ears');
    const ofMilo = (view: ClinicView) => findClinicNote(view.consults, milo.scribeId);
    await until(() => told.some((view) => ofMilo(view)?.patientName === 'Milo'), 10_000);
    const now = await list(b.h);
    expect(ofMilo(now)).toMatchObject({ scribeId: milo.scribeId, recordingSessionId: milo.recordingSessionId });
    expect(findClinicNote(now.consults, bella.scribeId)?.noteKept ?? false).toBe(false);
    for (const view of told) expect(findClinicNote(view.consults, bella.scribeId)?.noteKept ?? false).toBe(false);
  });
});
