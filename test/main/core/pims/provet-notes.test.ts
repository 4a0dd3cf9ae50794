// The Provet adapter's note (ProvetNotes, through ProvetPims) against the sandbox's Provet double
// over real HTTP, signed in through its sign-in page: the body it sends, reading back one note
// and the list, changing a note in place, and each refusal as the PimsError that says what to do.
// And the sender given a per-consult file it cannot read: it looks before it writes.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noteMarker, NoteSender, noteWithMarker } from '../../../../src/main/core/pims/index.ts';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.ts';
import { signInToDouble, type SignedIn } from './provet-double.ts';
import { pimsFailure as failure } from './support.ts';

let s: Sandbox;
let vet: SignedIn;
let dir: string;
beforeAll(async () => {
  s = await startSandbox({ scribeSeconds: 0 });
  vet = await signInToDouble(s);
  dir = await mkdtemp(join(tmpdir(), 'pims-notes-'));
});
afterAll(async () => {
  await s?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("Provet's clinical note", () => {
  it('writes the text with the marker last on the patient, reads it back, lists it and changes it in place', async () => {
    const marker = noteMarker('c-1');
    const made = await vet.pims.writeNote({ consultationId: '401', patientId: '201', text: 'Bella: lame.', marker });
    expect(made).toEqual({
      id: expect.stringMatching(/^\d+$/),
      consultationId: '401',
      patientId: '201',
      text: 'Bella: lame.\n\nWritten by Vet Scribe · c1',
    });
    expect(s.provet.notes()).toEqual([expect.objectContaining({ patient: 201, text: made.text })]);
    expect(await vet.pims.readNote('401', made.id)).toEqual(made);
    expect(await vet.pims.readNotes('401')).toEqual([made]);
    const changed = await vet.pims.updateNote({
      consultationId: '401',
      patientId: '201',
      text: 'Bella: lame, rest.',
      marker,
      noteId: made.id,
    });
    expect(changed).toEqual({ ...made, text: noteWithMarker('Bella: lame, rest.', marker) });
    expect(s.provet.notes()).toHaveLength(1);
    expect(s.provet.requests()['PUT api/0.1/consultation/{id}/consultationnote/{id}/']).toBe(1);
  });

  it('says what is wrong: no consultation, a note gone, ids that are not Provet ids, an empty note', async () => {
    const note = { consultationId: '9999', patientId: '201', text: 'x', marker: 'm' };
    expect((await failure(vet.pims.writeNote(note)))?.code).toBe('not_checked_in');
    expect((await failure(vet.pims.readNotes('9999')))?.code).toBe('not_checked_in');
    expect(await vet.pims.readNote('401', '12345')).toBeNull();
    const gone = await failure(vet.pims.updateNote({ ...note, consultationId: '401', noteId: '12345' }));
    expect([gone?.code, gone?.message]).toEqual([
      'not_found',
      'The note is no longer in Provet: it was removed there.',
    ]);
    const before = s.provet.requests();
    for (const bad of [
      { ...note, consultationId: '../401' },
      { ...note, patientId: '201/../../user/11' },
      { ...note, consultationId: '401', text: '   ' },
    ]) {
      const e = await failure(vet.pims.writeNote(bad));
      expect(e?.code).toBe('bad_input');
    }
    expect(s.provet.requests()).toEqual(before);
  });

  it('names every field Provet refuses', async () => {
    s.options.provetNoteFault = 'refuse-body';
    try {
      const e = await failure(
        vet.pims.writeNote({ consultationId: '403', patientId: '203', text: 'Max.', marker: 'm' }),
      );
      expect(e?.code).toBe('refused');
      expect(e?.fieldErrors['text']).toEqual([expect.stringMatching(/approved/)]);
      expect(e?.message).toMatch(/^Provet refused the note \(text: .*approved/);
    } finally {
      s.options.provetNoteFault = 'none';
    }
    const other = await failure(
      vet.pims.writeNote({ consultationId: '403', patientId: '201', text: 'x', marker: 'm' }),
    );
    expect(other?.message).toMatch(/patient: This patient is not a patient of this consultation/);
  });

  it('tells a finalized visit from a missing permission', async () => {
    const finalized = await failure(
      vet.pims.writeNote({ consultationId: '404', patientId: '205', text: 'x', marker: 'm' }),
    );
    expect(finalized?.code).toBe('finalized');
    expect(finalized?.message).toMatch(/clinical notes after consultation has been finalized/);
    s.options.provetNoteFault = 'forbidden';
    try {
      const denied = await failure(
        vet.pims.writeNote({ consultationId: '405', patientId: '206', text: 'x', marker: 'm' }),
      );
      expect(denied?.code).toBe('permission');
      expect(denied?.message).toMatch(/"Add clinical notes on consultation"/);
    } finally {
      s.options.provetNoteFault = 'none';
    }
    expect(s.provet.notes().filter((n) => n.consultation !== 401)).toEqual([]);
  });
});

describe('the sender with a file it cannot read', () => {
  it('looks among the notes before writing, and finds its own earlier one instead of writing again', async () => {
    const text = 'Max: vaccinated.';
    await vet.pims.writeNote({ consultationId: '403', patientId: '203', text, marker: noteMarker('c-max') });
    await writeFile(join(dir, 'c-max.pims-note.json'), '{"version": 1, "consultId": "c-m');
    const posts = () => s.provet.requests()['POST api/0.1/consultation/{id}/consultationnote/'] ?? 0;
    const before = posts();
    const record = await new NoteSender({ pims: vet.pims, dir }).send({
      consultId: 'c-max',
      appointmentId: '303',
      patients: [{ id: '203', text }],
      by: { id: 'u-hale', name: 'Dr Alex Hale' },
    });
    expect(record.patients['203']?.state).toBe('sent');
    expect(posts()).toBe(before);
    expect(s.provet.notes().filter((n) => n.patient === 203)).toHaveLength(1);
  });
});
