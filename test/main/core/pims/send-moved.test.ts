// Sending a consult's note into Provet (NoteSender over ProvetPims) when the front desk moves the
// visit after the consult was linked to it: to another day, before or after check-in, and onto
// another pet, before check-in or after the note went in. Against the sandbox's Provet double over
// real HTTP, started once for the file, whose `moveAppointment` plays the front desk. Whatever
// moves, no note is lost, none is written twice, and none lands on a pet it was not written for.
import { beforeAll, describe, expect, it } from 'vitest';
import { NoteSender } from '../../../../src/main/core/pims/index.ts';
import type { Sandbox } from '../../../../src/sandbox/index.ts';
import { misplacedNotes, senderWorld, type SignedIn } from './provet-double.ts';
import { pimsFailure as failure } from './support.ts';

const world = senderWorld('pims-moved-');
const { send, writes } = world;
let s: Sandbox;
let vet: SignedIn;
let dir: string;
beforeAll(() => void ({ s, vet, dir } = world));
const DAY_MS = 24 * 3_600_000;
/** The notes the double holds for a consultation, as [patient id, first line]. */
const held = world.heldFirstLines;

describe('a visit moved at the front desk after the consult was linked to it', () => {
  it('moved to another day before check-in: the note waits, writing nothing, and goes in once the visit is opened', async () => {
    const text = 'Luna: vomiting, dehydrated. Fluids given.';
    expect((await send('consult-luna-1', '302', [['202', text]])).patients['202']?.state).toBe('waiting-check-in');
    expect(s.provet.moveAppointment(302, { start: Date.now() + DAY_MS })).toBe(true);
    const before = writes();
    expect((await send('consult-luna-1', '302', [['202', text]])).patients['202']?.state).toBe('waiting-check-in');
    expect(writes()).toBe(before);
    expect(s.provet.notes().some((n) => n.patient === 202)).toBe(false);
    // Opened on the day it was moved to: the note goes into that visit, on Luna, once.
    const consultation = s.provet.checkIn(302)!.id;
    expect((await send('consult-luna-1', '302', [['202', text]])).patients['202']?.state).toBe('sent');
    expect(await send('consult-luna-1', '302', [['202', text]])).toMatchObject({
      consultationId: String(consultation),
    });
    expect(writes() - before).toBe(1);
    expect(held(consultation)).toEqual([['202', text]]);
  });

  it('moved to another day after check-in: the note goes into the consultation opened for the visit', async () => {
    expect(s.provet.moveAppointment(301, { start: Date.now() + 2 * DAY_MS })).toBe(true);
    const record = await send('consult-bella-1', '301', [['201', 'Bella: lame left hind.']]);
    expect(record).toMatchObject({ consultationId: '401', patients: { '201': { state: 'sent' } } });
    expect(held(401)).toEqual([['201', 'Bella: lame left hind.']]);
  });

  it('moved onto another pet before check-in: the note is refused, and nothing is written to either pet', async () => {
    const text = 'Oscar: itchy skin on the back, flea comb positive.';
    expect((await send('consult-oscar-1', '306', [['207', text]])).patients['207']?.state).toBe('waiting-check-in');
    // The front desk booked the wrong pet and moves the visit onto Nala.
    expect(s.provet.moveAppointment(306, { patients: [206] })).toBe(true);
    const consultation = s.provet.checkIn(306)!.id;
    const before = writes();
    const e = await failure(send('consult-oscar-1', '306', [['207', text]]));
    expect(e.code).toBe('bad_input');
    expect(e.message).toMatch(/not a patient of the visit/);
    expect(writes()).toBe(before);
    expect(held(consultation)).toEqual([]);
    expect(s.provet.notes().some((n) => n.patient === 206 || n.patient === 207)).toBe(false);
    // Kept as refused, with why, so the consult says it and the vet links the right visit.
    expect((await new NoteSender({ pims: vet.pims, dir }).record('consult-oscar-1'))?.patients['207']).toMatchObject({
      state: 'failed',
      noteId: null,
      error: { code: 'bad_input' },
    });
  });

  it('moved onto another pet after the notes went in: an edit changes the same note of the same pet', async () => {
    await send('consult-shah-1', '303', [
      ['203', 'Max: vaccinated (DHPPi, L4).'],
      ['204', 'Milo: vaccinated (RCP).'],
    ]);
    const ids = s.provet
      .notes()
      .filter((n) => n.consultation === 403)
      .map((n) => n.id);
    // The visit is now Rocky's at the front desk; its consultation keeps the pets it was opened for.
    expect(s.provet.moveAppointment(303, { patients: [205] })).toBe(true);
    const posts = s.provet.requests()['POST api/0.1/consultation/{id}/consultationnote/'] ?? 0;
    await send('consult-shah-1', '303', [
      ['203', 'Max: vaccinated (DHPPi, L4). Next in a year.'],
      ['204', 'Milo: vaccinated (RCP).'],
    ]);
    expect(s.provet.requests()['POST api/0.1/consultation/{id}/consultationnote/'] ?? 0).toBe(posts);
    expect(
      s.provet
        .notes()
        .filter((n) => n.consultation === 403)
        .map((n) => n.id),
    ).toEqual(ids);
    expect(held(403)).toEqual([
      ['203', 'Max: vaccinated (DHPPi, L4). Next in a year.'],
      ['204', 'Milo: vaccinated (RCP).'],
    ]);
    expect(s.provet.notes().some((n) => n.patient === 205)).toBe(false);
  });

  it('nothing was ever written to another patient, and no pet has two notes in one visit', async () => {
    expect(s.provet.notes()).toHaveLength(4);
    expect(await misplacedNotes(s, vet)).toEqual([]);
  });
});
