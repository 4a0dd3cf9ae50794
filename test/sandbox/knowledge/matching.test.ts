// Reading a free-text history against the knowledge base: wordings and spellings of a sign,
// negation in the same clause, and the score of each condition (on a small made-up base).
import { describe, expect, it } from 'vitest';
import { findTerm, prepare, signalmentWords } from '../../../src/sandbox/knowledge/matching.ts';
import { answerDdx } from '../../../src/sandbox/agents.ts';
import { buildNote } from '../../../src/sandbox/note.ts';
import { score } from './support.ts';

describe('matching a history', () => {
  it("matches on word boundaries, in any of a sign's wordings and spellings", () => {
    const p = prepare('PU/PD, v+ and D+, drinking a lot; diarrhoea; anaemia');
    expect(findTerm(p, 'polydipsia').map((h) => h.text)).toEqual(['pu/pd', 'drinking a lot']);
    expect(findTerm(p, 'vomiting').map((h) => h.text)).toEqual(['v+']);
    expect(findTerm(p, 'diarrhea').map((h) => h.text)).toEqual(['d+', 'diarrhea']);
    expect(findTerm(p, 'anaemia')).toHaveLength(1);
    expect(findTerm(prepare('hemorrhage, pulse'), 'pu')).toHaveLength(0);
    expect(findTerm(prepare('the cat vomits daily'), 'vomiting')).toHaveLength(1);
  });

  it('reads negations in the same clause only', () => {
    const negated = (text: string): boolean[] => findTerm(prepare(text), 'vomiting').map((h) => h.negated);
    expect(negated('no vomiting')).toEqual([true]);
    expect(negated('Not vomiting, eating well')).toEqual([true]);
    expect(negated('owner denies vomiting')).toEqual([true]);
    expect(negated('no diarrhoea, but vomiting twice')).toEqual([false]);
    expect(negated('no diarrhoea. Vomiting since Monday')).toEqual([false]);
    expect(negated('not eating and vomiting')).toEqual([false]);
    expect(negated('vomiting: none')).toEqual([true]);
    expect(findTerm(prepare('non-productive retching'), 'retching').every((h) => !h.negated)).toBe(true);
  });

  it('reads a hedged diagnosis and a sign in a condition as not present', () => {
    const negated = (text: string, term: string): boolean[] => findTerm(prepare(text), term).map((h) => h.negated);
    // A conclusion the vet weighed and put aside is not the patient's diagnosis.
    expect(negated('Foreign body less likely but not excluded.', 'foreign body')).toEqual([true]);
    expect(negated('Pancreatitis unlikely.', 'pancreatitis')).toEqual([true]);
    expect(negated('A foreign body is less likely.', 'foreign body')).toEqual([true]);
    expect(negated('Foreign body ruled out on radiographs.', 'foreign body')).toEqual([true]);
    // What to watch for at home is not a sign the patient has.
    expect(
      negated('Recheck in 48 h, sooner if Bella vomits again, stops drinking or becomes lethargic.', 'lethargy'),
    ).toEqual([true]);
    expect(negated('Call us if there is diarrhoea.', 'diarrhea')).toEqual([true]);
    expect(negated('Lethargic since Monday; call if worse.', 'lethargy')).toEqual([false]);
    expect(negated('Quiet and lethargic, foreign body possible.', 'foreign body')).toEqual([false]);
  });

  it("does not argue with a whole note: the assessment's hedges and the plan's conditions are not signs", () => {
    const note = buildNote(
      { name: 'SOAP note', sections: ['Subjective', 'Objective', 'Assessment', 'Plan'] },
      { patientName: 'Bella', description: 'dog' },
    );
    const answer = answerDdx(note.map((s) => `${s.category}\n${s.content}`).join('\n\n'));
    if (!answer.status) throw new Error('refused');
    expect(Object.keys(answer.response['Differential Diagnosis Details'])[0]).toBe('Acute gastroenteritis');
    const summary = answer.response['Plain English Summary'];
    expect(summary).not.toMatch(/lethargic/);
    expect(summary).toMatch(/absent \(diarrhea\)/);
  });

  it('scores weighted signs, each once, and a negated sign not at all', () => {
    const full = score('cat: vomiting, weight loss, polyphagia', 'fx-thyroid');
    expect(full).toBe(5);
    expect(score('cat: no vomiting, weight loss, polyphagia', 'fx-thyroid')).toBe(full - 1);
    expect(score('cat: denies vomiting, weight loss, polyphagia', 'fx-thyroid')).toBe(full - 1);
    expect(score('cat: vomiting, vomiting again, weight loss, polyphagia', 'fx-thyroid')).toBe(full);
  });

  it('adds a bonus for a named condition and a little for signalment', () => {
    expect(score('cat with hyperthyroid, weight loss', 'fx-thyroid')).toBeGreaterThan(
      score('cat with weight loss', 'fx-thyroid') + 4,
    );
    expect(score('cat with ht, weight loss', 'fx-thyroid')).toBe(score('cat with weight loss', 'fx-thyroid'));
    expect(score('Great Dane, unproductive retching', 'fx-bloat')).toBeGreaterThan(
      score('dog, unproductive retching', 'fx-bloat'),
    );
    expect(score('Great Dane, eating well', 'fx-bloat')).toBe(0);
    const words = signalmentWords(prepare('12 yo MN DSH'), ['cat']);
    expect([...words]).toEqual(expect.arrayContaining(['senior', 'male', 'neutered']));
  });
});
