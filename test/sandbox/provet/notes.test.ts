// Clinical notes on the Provet double over real HTTP: create, read, list, change and delete a
// note under a consultation, one note per patient of a two-pet visit, a finalized consultation
// refusing writes, and the note faults (a refused body, an answer lost after the write, a
// missing permission).
import { request } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SandboxOptions } from '../../../src/sandbox/index.ts';
import { api, provetSandbox, send, signInToProvet, type Page } from './support.ts';

const world = provetSandbox();
let token = '';
beforeAll(async () => {
  token = (await signInToProvet(world.sandbox)).access_token;
});

type Note = {
  id: number;
  url: string;
  consultation: string;
  patient: string;
  text: string;
  created: string;
  modified: string;
  created_user: string;
  modified_user: string | null;
};

const notes = (consultation: number) => api(world.sandbox, `consultation/${consultation}/consultationnote/`);
const patient = (id: number) => api(world.sandbox, `patient/${id}/`);
/** Runs `body` with the double's note writes under `fault`, and back to none after it, whatever happens. */
async function withNoteFault(fault: SandboxOptions['provetNoteFault'], body: () => Promise<void>): Promise<void> {
  world.sandbox.options.provetNoteFault = fault;
  try {
    await body();
  } finally {
    world.sandbox.options.provetNoteFault = 'none';
  }
}

describe('clinical notes', () => {
  it('writes a note for a patient, reads it back, changes it with PUT and PATCH, lists and deletes it', async () => {
    const s = world.sandbox;
    const made = await send<Note>('POST', notes(401), {
      token,
      json: { patient: patient(201), text: 'Bella: lame LH.' },
    });
    expect(made.status).toBe(201);
    expect(made.json).toMatchObject({
      consultation: api(s, 'consultation/401/'),
      patient: patient(201),
      text: 'Bella: lame LH.',
      created_user: api(s, 'user/11/'),
      modified_user: null,
    });
    expect(made.json.url).toBe(`${notes(401)}${made.json.id}/`);
    const read = await send<Note>('GET', made.json.url, { token });
    expect(read.json.text).toBe('Bella: lame LH.');

    const put = await send<Note>('PUT', made.json.url, { token, json: { patient: patient(201), text: 'Edited.' } });
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({ text: 'Edited.', modified_user: api(s, 'user/11/') });
    const patch = await send<Note>('PATCH', made.json.url, { token, json: { text: 'Edited again.' } });
    expect(patch.json.text).toBe('Edited again.');
    const putMissing = await send('PUT', made.json.url, { token, json: { text: 'no patient' } });
    expect(putMissing.status).toBe(400);
    expect(putMissing.json).toEqual({ patient: ['This field is required.'] });

    const list = await send<Page<Note>>('GET', `${notes(401)}?patient__is=201`, { token });
    expect(list.json.results.map((n) => n.text)).toEqual(['Edited again.']);
    expect(s.provet.notes().filter((n) => n.consultation === 401)).toHaveLength(1);

    const counted = s.provet.requests();
    expect(counted['POST api/0.1/consultation/{id}/consultationnote/']).toBeGreaterThanOrEqual(1);
    expect(counted['PATCH api/0.1/consultation/{id}/consultationnote/{id}/']).toBe(1);
    expect((await send('DELETE', made.json.url, { token })).status).toBe(204);
    expect((await send('GET', made.json.url, { token })).status).toBe(404);
  });

  it('keeps one note per patient: a two-pet visit has one for each, a second for the same pet is refused', async () => {
    for (const [id, text] of [
      [203, 'Max: vaccinated.'],
      [204, 'Milo: vaccinated.'],
    ] as const) {
      const made = await send('POST', notes(403), { token, json: { patient: patient(id), text } });
      expect(made.status).toBe(201);
    }
    const again = await send<Record<string, string[]>>('POST', notes(403), {
      token,
      json: { patient: patient(203), text: 'twice' },
    });
    expect(again.status).toBe(400);
    expect(again.json['patient']?.[0]).toMatch(/already has a clinical note/);
    const list = await send<Page<Note>>('GET', notes(403), { token });
    expect(list.json.results.map((n) => [n.patient, n.text])).toEqual([
      [patient(203), 'Max: vaccinated.'],
      [patient(204), 'Milo: vaccinated.'],
    ]);
  });

  it('refuses a body with field errors: missing, blank, a patient as an id, a patient of another visit', async () => {
    const cases: [unknown, Record<string, string[]>][] = [
      [{}, { patient: ['This field is required.'], text: ['This field is required.'] }],
      [{ patient: patient(206), text: '  ' }, { text: ['This field may not be blank.'] }],
      [
        { patient: 206, text: '' },
        { patient: ['Incorrect type. Expected URL string, received int.'], text: ['This field may not be blank.'] },
      ],
      [{ patient: 205, text: 'x' }, { patient: ['Incorrect type. Expected URL string, received int.'] }],
      [{ patient: patient(201), text: 'x' }, { patient: ['This patient is not a patient of this consultation.'] }],
      [{ patient: patient(999), text: 'x' }, { patient: ['Invalid hyperlink - Object does not exist.'] }],
    ];
    for (const [body, errors] of cases) {
      const answer = await send('POST', notes(405), { token, json: body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.json).toEqual(errors);
    }
    expect((await send('POST', notes(405), { token, json: 'text' })).status).toBe(400);
    expect((await send('POST', notes(9999), { token, json: { patient: patient(1), text: 'x' } })).status).toBe(404);
  });

  it('a finalized consultation refuses note writes with 403 (the vet lacks the permission)', async () => {
    const answer = await send<{ detail: string }>('POST', notes(404), {
      token,
      json: { patient: patient(205), text: 'Late note.' },
    });
    expect(answer.status).toBe(403);
    expect(answer.json.detail).toMatch(/finalized/);
    expect(world.sandbox.provet.notes().some((n) => n.consultation === 404)).toBe(false);
  });

  it('a consultation finalized meanwhile refuses the next write', async () => {
    const s = world.sandbox;
    const checkedIn = s.provet.checkIn(306);
    if (!checkedIn) throw new Error('no appointment 306');
    const colleague = (await signInToProvet(s, s.provet.users.colleague)).access_token;
    const made = await send<Note>('POST', notes(checkedIn.id), {
      token: colleague,
      json: { patient: patient(207), text: 'Oscar: dermatitis.' },
    });
    expect(made.status).toBe(201);
    expect(
      (await send('POST', api(s, `consultation/${checkedIn.id}/update_status/`), { token, json: { status: 10 } }))
        .status,
    ).toBe(200);
    const late = await send('PATCH', made.json.url, { token: colleague, json: { text: 'changed' } });
    expect(late.status).toBe(403);
    expect(s.provet.notes().find((n) => n.id === made.json.id)?.text).toBe('Oscar: dermatitis.');
  });
});

describe('note faults', () => {
  it("'refuse-body' answers 400 with field errors and writes nothing", async () => {
    const s = world.sandbox;
    await withNoteFault('refuse-body', async () => {
      const answer = await send<Record<string, string[]>>('POST', notes(405), {
        token,
        json: { patient: patient(206), text: 'Nala: weight loss.' },
      });
      expect(answer.status).toBe(400);
      expect(answer.json['text']).toEqual([expect.any(String)]);
      expect(s.provet.notes().some((n) => n.consultation === 405)).toBe(false);
    });
  });

  it("'forbidden' answers 403 as a missing permission", async () => {
    await withNoteFault('forbidden', async () => {
      const answer = await send('POST', notes(405), { token, json: { patient: patient(206), text: 'x' } });
      expect(answer.status).toBe(403);
      expect(answer.json).toEqual({ detail: 'You do not have permission to perform this action.' });
    });
  });

  it("'drop-after-write' writes the note and cuts the answer; the note is found in the list afterwards", async () => {
    await withNoteFault('drop-after-write', async () => {
      const cut = request(notes(405), {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ patient: patient(206), text: 'Nala: lost answer.' }),
      }).then((answer) => answer.body.text());
      await expect(cut).rejects.toThrow();
    });
    const list = await send<Page<Note>>('GET', `${notes(405)}?patient__is=206`, { token });
    expect(list.json.results.map((n) => n.text)).toEqual(['Nala: lost answer.']);
  });
});
