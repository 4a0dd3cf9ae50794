// The sandbox agents' relevance filter: whether an input is a veterinary history (or, for the
// treatment agent, a question about disease or treatment), what it recognised, and why not.
import { describe, expect, it } from 'vitest';
import { assessRelevance } from '../../../src/sandbox/knowledge/relevance.ts';
import { fixture, NOT_VETERINARY } from './support.ts';

describe('assessRelevance', () => {
  it.each([
    '12 yo MN DSH cat, weight loss, polyphagia, vomiting, tachycardia, palpable thyroid nodule',
    'My dog ate chocolate an hour ago and is shaking.',
    'Vomiting and diarrhoea for two days, now lethargic.',
    'O/E: HR 200 bpm, MM pale, CRT 3 s; PU/PD reported.',
  ])('accepts a veterinary clinical history: %s', (input) => {
    const r = assessRelevance(input, 'ddx');
    expect(r.relevant, r.reason).toBe(true);
    expect(r.matchedTerms.length).toBeGreaterThan(0);
    expect(r.reason).toMatch(/relevant to veterinary medicine/i);
  });

  it.each(NOT_VETERINARY)('turns away input that is not veterinary: %s', (input) => {
    for (const agent of ['ddx', 'treatment'] as const) {
      const r = assessRelevance(input, agent);
      expect(r.relevant).toBe(false);
      expect(r.reason).toMatch(/not about veterinary medicine|too little veterinary content/i);
    }
  });

  it('turns away human medicine, but not a person talking about an animal', () => {
    for (const input of [
      'My husband has a headache and a fever.',
      'I have had a cough and a sore throat for a week.',
    ]) {
      const r = assessRelevance(input, 'ddx');
      expect(r.relevant, input).toBe(false);
      expect(r.reason).toMatch(/person/);
    }
    expect(assessRelevance("My husband's dog has been coughing for a week.", 'ddx').relevant).toBe(true);
  });

  it('for the treatment agent, turns away veterinary input that is not about disease or treatment', () => {
    for (const input of ['How much does a vet visit cost?', 'What breed of dog is friendliest?']) {
      const plan = assessRelevance(input, 'treatment');
      expect(plan.relevant, input).toBe(false);
      expect(plan.reason).toMatch(/^The input is not related to treatment plans/);
      const ddx = assessRelevance(input, 'ddx');
      expect(ddx.relevant, input).toBe(false);
      expect(ddx.reason).toMatch(/not a clinical history/);
    }
    const question = assessRelevance('How do I treat hyperthyroidism in my cat?', 'treatment');
    expect(question.relevant).toBe(true);
    expect(question.reason).toMatch(/treatment question about a cat/);
  });

  it('needs more than one everyday word that the knowledge base also uses', () => {
    const fx = [
      fixture(
        'fx-choc',
        'Chocolate poisoning',
        ['dog'],
        [
          ['chocolate', 3],
          ['raisins', 3],
        ],
      ),
    ];
    expect(assessRelevance('chocolate and raisins', 'ddx', fx).relevant).toBe(false);
    expect(assessRelevance('my dog ate chocolate and raisins', 'ddx', fx).relevant).toBe(true);
  });

  it('reports the species and the terms it recognised', () => {
    const r = assessRelevance('8 year old Great Dane, unproductive retching, distended abdomen', 'ddx');
    expect(r.species).toEqual(['dog']);
    expect(r.matchedTerms).toEqual(expect.arrayContaining(['unproductive retching', 'distended abdomen']));
    expect(r.reason).toContain('"unproductive retching"');
  });
});
