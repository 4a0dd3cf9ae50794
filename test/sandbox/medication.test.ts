// The sandbox's medication agent (`POST /medication_agent_v2`): the six drugs of its formulary,
// each with dosing for the dog and the cat, and a refusal that says what is missing.
import { describe, expect, it } from 'vitest';
import { answerChat, answerFast, answerMedication } from '../../src/sandbox/medication.ts';
import { MEDICATION_MEMBERS } from '../support/agent-members.ts';

const FORMULARY = [
  ['meloxicam', 'Meloxicam'],
  ['Amoxicillin-clavulanate', 'Amoxicillin-clavulanate'],
  ['co-amoxiclav', 'Amoxicillin-clavulanate'],
  ['maropitant', 'Maropitant'],
  ['Cerenia', 'Maropitant'],
  ['gabapentin', 'Gabapentin'],
  ['prednisolone', 'Prednisolone'],
  ['carprofen', 'Carprofen'],
  ['Rimadyl', 'Carprofen'],
] as const;

describe('answerMedication', () => {
  it.each(
    FORMULARY.flatMap(([word, drug]) => (['dog', 'cat'] as const).map((species) => [word, drug, species] as const)),
  )('"%s" names %s; for a %s, the card gives dosing and the plain English names the species', (word, drug, species) => {
    const a = answerMedication(`What dose of ${word} for a 12 kg ${species}?`);
    if (!a.status) throw new Error(`refused: ${a.reason}`);
    const details = a.response['Medication Details'];
    expect(Object.keys(details)).toEqual([drug]);
    const card = details[drug]!;
    expect(Object.keys(card).sort()).toEqual([...MEDICATION_MEMBERS].sort());
    for (const field of MEDICATION_MEMBERS) expect(card[field].length, field).toBeGreaterThan(10);
    // Dosing names both species, in mg/kg or per animal.
    expect(card.dosing_by_species).toMatch(/Dog: .*\d.*mg/);
    expect(card.dosing_by_species).toMatch(/Cat: .*\d.*mg/);
    // Plain English first, about the species asked for.
    expect(a.response['Plain English Concise']).toMatch(new RegExp(`${species}s?\\b`, 'i'));
    expect(a.response['Plain English Summary']).toMatch(/sandbox/i);
  });

  it('says the doses for the species and weight asked about, each total with its rate', () => {
    const a = answerMedication('meloxicam cat 4.2 kg');
    if (!a.status) throw new Error(`refused: ${a.reason}`);
    const summary = a.response['Plain English Summary'];
    expect(summary).toContain(
      'Meloxicam for a 4.2 kg cat: 1.26 mg SC once after surgery (0.3 mg/kg); 0.42 mg PO on day 1 (0.1 mg/kg)',
    );
    expect(summary).not.toMatch(/kg dog|in dogs:/);
    const noWeight = answerMedication('carprofen for a dog');
    if (!noWeight.status) throw new Error(`refused: ${noWeight.reason}`);
    expect(noWeight.response['Plain English Summary']).toContain('Carprofen in dogs: 4 mg/kg PO or SC once daily');
  });

  it('gives one card per drug named', () => {
    const a = answerMedication('Can a dog take meloxicam and gabapentin together?');
    if (!a.status) throw new Error(`refused: ${a.reason}`);
    expect(Object.keys(a.response['Medication Details']).sort()).toEqual(['Gabapentin', 'Meloxicam']);
  });

  it.each([
    ['no species', 'meloxicam dose please', /species/],
    ['no drug', 'what can I give my cat for pain', /formulary.*meloxicam, carprofen, robenacoxib, .*, fenbendazole\.$/],
    ['a species not covered', 'maropitant for my rabbit', /dogs and cats only/],
    ['neither', 'hello there', /species/],
  ])('refuses a question with %s: status false and the reason', (_name, input, reason) => {
    const a = answerMedication(input);
    expect(a).toEqual({ status: false, reason: expect.stringMatching(reason), response: null });
  });
});

describe('the chat and fast agents', () => {
  it('the chat agent answers a drug question from the formulary, with the two summaries under reason', () => {
    const a = answerChat('Is prednisolone safe for my cat?');
    expect(a.status).toBe(true);
    expect(a.reason['Plain English Concise']).toMatch(/prednisolone/i);
    expect(a.reason['Plain English Summary'].length).toBeGreaterThan(a.reason['Plain English Concise'].length);
  });

  it('the chat agent refuses what it cannot answer, saying so', () => {
    const a = answerChat('What is the best recipe for a chocolate cake?');
    expect(a.status).toBe(false);
    expect(a.reason['Plain English Concise']).toMatch(/cannot answer/);
  });

  it('a fast agent answers one block of text, or the reason it cannot', () => {
    const text = answerFast('ddx', '12 year old cat with weight loss, polyphagia, vomiting and a thyroid nodule');
    expect(text).toMatch(/hyperthyroidism/i);
    expect(text).not.toMatch(/[{}]/);
    expect(answerFast('treatment', 'the stock market fell today').length).toBeGreaterThan(10);
  });
});
