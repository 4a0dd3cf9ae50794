// Provet's appointment, patient and consultation read into the port's words
// (src/main/core/pims/provet/schemas.ts), from fixtures written after Provet's published field
// lists (test/fixtures/provet/): relations as full addresses read to ids, several pets in one
// appointment, a consultation that is null until check-in, members the app does not use let
// through, and a clear error naming the member when one the app needs is missing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  PimsError,
  provetAppointment,
  provetConsultation,
  provetPatient,
  readProvet,
  toPimsAppointment,
} from '../../../../src/main/core/pims/index.ts';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(join(import.meta.dirname, '../../../fixtures/provet', name), 'utf8')) as unknown;
const page = fixture('appointments-page.json') as { results: Record<string, unknown>[] };

function refusal(run: () => unknown): PimsError {
  try {
    run();
  } catch (e) {
    if (e instanceof PimsError) return e;
    throw e;
  }
  throw new Error('accepted');
}

describe('Provet appointments', () => {
  const [one, two, cancelled] = page.results.map((a) => readProvet(provetAppointment, 'an appointment', a));

  it('reads ids from the relations’ addresses, times as instants, and the consultation once checked in', () => {
    expect(one).toMatchObject({
      id: '9001',
      start: '2026-11-28T07:00:00.000Z',
      end: '2026-11-28T07:20:00.000Z',
      vet: { id: '7', name: null },
      complaint: 'Annual vaccination, limping on the right front leg',
      consultationId: '338',
      patientIds: ['789'],
      active: true,
    });
  });

  it('keeps every pet of a multi-pet appointment, null consultation before check-in, and the title when no complaint', () => {
    expect(two?.patientIds).toEqual(['790', '791']);
    expect(two?.consultationId).toBeNull();
    expect(two?.complaint).toBe('Two cats, check-up');
    expect(cancelled?.active).toBe(false);
    expect(cancelled?.vet?.id).toBe('8');
  });

  it('names the pets from the patients read, or from those Provet inlined', () => {
    const named = toPimsAppointment(
      two!,
      new Map([
        ['790', { id: '790', name: 'Miso', species: 'Cat (Feline - Domestic)' }],
        ['791', { id: '791', name: 'Tofu', species: 'Cat (Feline - Domestic)' }],
      ]),
    );
    expect(named.patients.map((p) => p.name)).toEqual(['Miso', 'Tofu']);
    const exposed = readProvet(provetAppointment, 'an appointment', {
      ...page.results[0],
      patients: [fixture('patient.json')],
      user: { id: 7, url: 'https://provetcloud.com/54321/api/0.1/user/7/', first_name: 'Maya', last_name: 'Hale' },
    });
    expect(toPimsAppointment(exposed, new Map()).patients).toEqual([
      { id: '789', name: 'Luna', species: 'Dog (Canine - Domestic)' },
    ]);
    expect(exposed.vet).toEqual({ id: '7', name: 'Maya Hale' });
  });

  it.each([
    ['no start', { start: undefined }, 'start'],
    ['a start that is not a time', { start: 'tomorrow-ish' }, 'start'],
    ['a patient address with no id', { patients: ['https://provetcloud.com/54321/api/0.1/patient/'] }, 'patients.0'],
    ['no id at all', { id: undefined, url: undefined }, 'id'],
  ])('refuses an appointment with %s, naming the member', (_what, change, member) => {
    const e = refusal(() => readProvet(provetAppointment, 'an appointment', { ...page.results[0], ...change }));
    expect(e.code).toBe('invalid_answer');
    expect(e.message).toContain(`(${member}:`);
    expect(e.message).toMatch(/^Provet answered with an appointment the app cannot read/);
  });
});

describe('Provet patients and consultations', () => {
  it('reads a patient with its species as Provet words it, letting the other members through', () => {
    expect(readProvet(provetPatient, 'a patient', fixture('patient.json'))).toEqual({
      id: '789',
      name: 'Luna',
      species: 'Dog (Canine - Domestic)',
    });
    const coded = readProvet(provetPatient, 'a patient', { ...(fixture('patient.json') as object), species: 22001 });
    expect(coded.species).toBeNull();
  });

  it('refuses a patient without a name', () => {
    const e = refusal(() =>
      readProvet(provetPatient, 'a patient', { ...(fixture('patient.json') as object), name: ' ' }),
    );
    expect(e.message).toContain('(name:');
  });

  it('reads a consultation’s id from its address when it has no id member, and tells finalized (status 10) apart', () => {
    const c = fixture('consultation.json') as Record<string, unknown>;
    expect(readProvet(provetConsultation, 'a consultation', c)).toEqual({
      id: '338',
      patientIds: ['789'],
      finalized: false,
    });
    expect(readProvet(provetConsultation, 'a consultation', { ...c, status: 10 }).finalized).toBe(true);
    expect(readProvet(provetConsultation, 'a consultation', { ...c, status: 9 }).finalized).toBe(false);
  });
});
