// Reading a free-text history against the knowledge base: wordings and spellings of a sign,
// negation in the same clause, and the score of each condition (on a small made-up base).
import { describe, expect, it } from 'vitest';
import { findTerm, prepare, signalmentWords } from '../../../src/sandbox/knowledge/matching.ts';
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
