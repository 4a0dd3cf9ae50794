// The sandbox's note templates (GET /templates/all) and the note a completed scribe job carries (GET /scribe/get/{id}).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecordingStore } from '../../src/main/core/recordings/index.ts';
import { doseMismatches, findFigures, statedWeightKg } from '../../src/shared/note/figures.ts';
import { findDrugs } from '../../src/sandbox/formulary/index.ts';
import { buildNote, EXAMPLE_NOTE_LABEL } from '../../src/sandbox/note.ts';
import { findTemplate, TEMPLATES } from '../../src/sandbox/templates.ts';
import { webmDurationSeconds } from '../../src/sandbox/uploads.ts';
import { makeRecording, recorderChunks } from '../support/core.ts';
import { fakeWebm } from '../support/http.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('TEMPLATES', () => {
  it('holds the common consult types, SOAP first', () => {
    expect(TEMPLATES.length).toBeGreaterThanOrEqual(8);
    expect(TEMPLATES[0]?.name).toBe('SOAP');
    expect(TEMPLATES.map((t) => t.name)).toEqual(
      expect.arrayContaining([
        'Wellness exam',
        'Sick visit',
        'Dental procedure',
        'Surgery report',
        'Discharge instructions',
        'Vaccination visit',
        'End-of-life consult',
      ]),
    );
  });

  it('gives each a unique UUID, a unique name, a description and sections', () => {
    const ids = TEMPLATES.map((t) => t.public_id);
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(TEMPLATES.length);
    expect(new Set(TEMPLATES.map((t) => t.name.toLowerCase())).size).toBe(TEMPLATES.length);
    for (const t of TEMPLATES) {
      expect(t.description.length, t.name).toBeGreaterThan(20);
      expect(t.sections.length, t.name).toBeGreaterThanOrEqual(3);
      expect(new Set(t.sections).size, t.name).toBe(t.sections.length);
    }
  });

  it('finds a template by its id, and nothing for an unknown id', () => {
    for (const t of TEMPLATES) expect(findTemplate(t.public_id)).toBe(t);
    expect(findTemplate('00000000-0000-4000-8000-000000000000')).toBeUndefined();
    expect(findTemplate('')).toBeUndefined();
  });
});

describe('buildNote', () => {
  const soap = TEMPLATES[0]!;

  it('is labelled first as an example the sandbox made without listening, for the patient named', () => {
    const note = buildNote(soap, { patientName: 'Bella', description: 'Vomiting 2 days' });
    expect(note[0]).toEqual({
      category: 'Example note',
      content: `${EXAMPLE_NOTE_LABEL}. This SOAP note for Bella (Vomiting 2 days) shows how a note from the service looks; nothing in it comes from the consult.`,
    });
    expect(EXAMPLE_NOTE_LABEL).toBe('Example note: the sandbox does not listen to the audio');
  });

  it('has one category per section, in order, each a realistic text with the patient where natural', () => {
    for (const template of TEMPLATES) {
      const note = buildNote(template, { patientName: 'Max' });
      expect(
        note.slice(1).map((c) => c.category),
        template.name,
      ).toEqual(template.sections);
      for (const c of note.slice(1)) {
        expect(c.content, `${template.name} / ${c.category}`).toMatch(/^[A-Z0-9].{15,}[.)]$/);
        expect(c.content).not.toMatch(/would (go|be)|no example text|undefined|NaN/);
      }
    }
    const soapNote = buildNote(soap, { patientName: 'Max' });
    expect(soapNote.find((c) => c.category === 'Subjective')?.content).toMatch(/^Max has vomited/);
    expect(soapNote.find((c) => c.category === 'Objective')?.content).toMatch(/Weight 32.4 kg/);
  });

  it('keeps to one case per template where templates share a heading', () => {
    const section = (name: string, heading: string) =>
      buildNote(
        TEMPLATES.find((t) => t.name === name)!,
        { patientName: 'Max' },
      ).find((c) => c.category === heading)?.content ?? '';
    // A behaviour consult is not about vomiting, an emergency after a car accident not about a stifle.
    expect(section('Behaviour consult', 'Assessment')).toMatch(/reactivity/);
    expect(section('Behaviour consult', 'Follow-up')).not.toMatch(/48 hours/);
    expect(section('Emergency / triage', 'Diagnostics')).not.toMatch(/stifle|drawer/);
    expect(section('Discharge instructions', 'Home care')).not.toMatch(/chews|Meloxicam/);
    expect(section('Discharge instructions', 'Warning signs')).toMatch(/Max stops drinking/);
    expect(section('Recheck / progress', 'Assessment')).toMatch(/resolved/);
    expect(section('Sick visit', 'Physical examination')).toMatch(/stifle/);
    expect(section('SOAP', 'Assessment')).toMatch(/vomiting/);
  });

  it('is the same for the same template and patient, and follows the patient', () => {
    expect(buildNote(soap, { patientName: 'Bella' })).toEqual(buildNote(soap, { patientName: 'Bella' }));
    expect(JSON.stringify(buildNote(soap, { patientName: 'Rex' }))).not.toContain('Bella');
    expect(buildNote({ name: 'Custom', sections: ['Nutrition'] }, { patientName: 'Rex' })[1]).toEqual({
      category: 'Nutrition',
      content: 'The sandbox has no example text for nutrition.',
    });
  });
});

describe('the duration of an uploaded WebM', () => {
  it('is read from the Duration the app writes when a recording ends', async () => {
    const store = new RecordingStore({ dir: mkdtempSync(join(tmpdir(), 'vet-scribe-note-')) });
    const id = await makeRecording(store);
    const head = readFileSync(store.audioPath(id)).subarray(0, 4096);
    expect(webmDurationSeconds(head)).toBeCloseTo(4.98, 2);
  });

  it('is unknown for a recording without one, or bytes that are not EBML', () => {
    // MediaRecorder writes no Duration: the raw chunks of a recording never finished.
    expect(webmDurationSeconds(Buffer.concat(recorderChunks()).subarray(0, 4096))).toBeUndefined();
    expect(webmDurationSeconds(fakeWebm())).toBeUndefined();
    expect(webmDurationSeconds(Buffer.alloc(0))).toBeUndefined();
  });
});

describe('buildNote for the species the visit names', () => {
  /** Every weight a note states, in kg. */
  const weights = (text: string) => [...text.matchAll(/(\d+(?:\.\d+)?) kg\b/g)].map((m) => Number(m[1]));
  const text = (note: { content: string }[]) => note.map((c) => c.content).join('\n');

  it.each(TEMPLATES.map((t) => [t.name, t] as const))(
    'a cat’s %s note has a cat’s weights and nothing of a dog',
    (_name, t) => {
      const note = text(buildNote(t, { patientName: 'Misty', description: 'Cat, lame left hind' }));
      for (const kg of weights(note)) expect(kg, note).toBeLessThan(10);
      expect(note).not.toMatch(/Labrador|DHPPi|\bL4\b|lead walks|barks|other dogs|kitchen bin/i);
    },
  );

  it('keeps the dog’s example when the visit names a dog or no species, and says so for another species', () => {
    const sick = TEMPLATES.find((t) => t.name === 'Sick visit')!;
    const dog = text(buildNote(sick, { patientName: 'Rex', description: 'Dog, lame' }));
    expect(dog).toContain('Weight 31.0 kg');
    expect(text(buildNote(sick, { patientName: 'Rex' }))).toBe(dog.replace(' (Dog, lame)', ''));
    const rabbit = buildNote(sick, { patientName: 'Thumper', description: 'Rabbit' });
    expect(rabbit[0]!.content).toMatch(/examples for dogs and cats; this one is a dog’s\.$/);
  });
});

describe('the example notes’ doses', () => {
  const note = (template: string, description: string) =>
    buildNote(
      TEMPLATES.find((t) => t.name === template)!,
      { patientName: 'Bella', description },
    );
  const section = (template: string, description: string, heading: string) =>
    note(template, description).find((s) => s.category === heading)!.content;

  it('give the discharge tablets for the weight the consult’s note states, at the formulary’s dose by mouth', () => {
    for (const [species, description] of [
      ['dog', 'dog, vomiting'],
      ['cat', 'cat, vomiting'],
    ] as const) {
      const weight = statedWeightKg(section('SOAP', description, 'Objective'));
      const medications = section('Discharge instructions', description, 'Medications');
      // The weight the tablets were worked out for is said, and is the consult's.
      expect(statedWeightKg(medications), species).toBe(weight);
      const perKg = findFigures(medications).find((f) => f.kind === 'dose' && /mg\/kg$/.test(f.text));
      expect(perKg, `${species}: ${medications}`).toBeDefined();
      const doses = findDrugs('maropitant')[0]!.doses[species];
      if (typeof doses === 'string') throw new Error(doses);
      const oral = doses.find((d) => /\bPO\b/.test(d.how))!;
      expect(parseFloat(perKg!.text) / Number(oral.amount), species).toBeGreaterThan(0.9);
      expect(parseFloat(perKg!.text) / Number(oral.amount), species).toBeLessThan(1.1);
      expect(doseMismatches(medications), species).toEqual([]);
    }
  });

  it('never give an amount that disagrees with the weight the note states', () => {
    for (const t of TEMPLATES)
      for (const description of ['dog', 'cat']) {
        const text = note(t.name, description)
          .map((s) => s.content)
          .join('\n');
        expect(doseMismatches(text), `${t.name}, ${description}`).toEqual([]);
      }
  });
});
