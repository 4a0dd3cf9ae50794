// The figures a vet checks before a note goes into the record, found in the words scribes write.
import { describe, expect, it } from 'vitest';
import {
  doseMismatches,
  figuresLine,
  findFigures,
  perKgTotals,
  statedWeightKg,
} from '../../../src/shared/note/figures.ts';

const kinds = (text: string) => findFigures(text).map((f) => `${f.kind}:${f.text}`);

describe('findFigures', () => {
  it('finds doses, weights, temperatures, rates and drug names in an examination and a plan', () => {
    expect(
      kinds(
        'Weight 32.4 kg (32.0 kg three months ago). T 38.9 °C, HR 96 bpm, RR 24/min. Maropitant 1 mg/kg SC given today.',
      ),
    ).toEqual([
      'weight:32.4 kg',
      'weight:32.0 kg',
      'temperature:38.9 °C',
      'rate:96 bpm',
      'rate:24/min',
      'drug:Maropitant',
      'dose:1 mg/kg',
    ]);
    expect(kinds('Premedication methadone 0.2 mg/kg and dexmedetomidine 2 µg/kg IM; fluids 2 ml/kg/h.')).toEqual([
      'drug:methadone',
      'dose:0.2 mg/kg',
      'drug:dexmedetomidine',
      'dose:2 µg/kg',
      'rate:2 ml/kg/h',
    ]);
  });

  it('reads ranges, tablets, grams per kilogram, and leaves days, hours, scores and times alone', () => {
    expect(
      kinds('Carprofen 2-4 mg/kg, amoxicillin 250 mg tablets, 1 tablet BID; mannitol 0.5 g/kg; kitten 450 g.'),
    ).toEqual([
      'drug:Carprofen',
      'dose:2-4 mg/kg',
      'drug:amoxicillin',
      'dose:250 mg',
      'dose:1 tablet',
      'dose:0.5 g/kg',
      'weight:450 g',
    ]);
    expect(findFigures('Recheck in 48 h, for 3 days; BCS 5/9; CRT < 2 s; seen at 10:42 on 2026-11-25.')).toEqual([]);
  });

  it('never overlaps two figures, and gives their places in the text', () => {
    const text = 'Give 5 mg/kg now.';
    const [dose] = findFigures(text);
    expect(dose).toEqual({ kind: 'dose', start: 5, end: 12, text: '5 mg/kg' });
    expect(text.slice(dose!.start, dose!.end)).toBe('5 mg/kg');
  });
});

describe('figuresLine', () => {
  it('counts each kind in words, or says nothing when there is nothing to check', () => {
    expect(figuresLine(findFigures('Meloxicam 0.1 mg/kg and 0.05 mg/kg; weight 4 kg.'))).toBe(
      '2 doses, 1 weight, 1 drug name: check them against the consult before the note goes into the record.',
    );
    expect(figuresLine(findFigures('T 39.1 °C.'))).toBe(
      '1 temperature: check it against the consult before the note goes into the record.',
    );
    expect(figuresLine(findFigures('Bright and alert.'))).toBeNull();
  });
});

describe('statedWeightKg and perKgTotals', () => {
  it('reads the weight a case states, in kilograms or pounds', () => {
    expect(statedWeightKg('Dog, 6 years, 32 kg Labrador')).toBe(32);
    expect(statedWeightKg('70 lb dog')).toBe(31.8);
    expect(statedWeightKg('Dog, 6 years')).toBeNull();
  });

  it('works out the total of each dose per kilogram, ranges included, and leaves other doses and rates alone', () => {
    const text =
      'Maropitant 1 mg/kg SC; cefalexin 15-30 mg/kg PO; dexmedetomidine 2 µg/kg; fluids 2 ml/kg/h; 250 mg tablets.';
    expect(perKgTotals(text, 32).map((t) => [text.slice(t.start, t.end), t.total])).toEqual([
      ['1 mg/kg', '32 mg'],
      ['15-30 mg/kg', '480–960 mg'],
      ['2 µg/kg', '64 µg'],
    ]);
    expect(perKgTotals('Meloxicam 0.1 mg/kg', 4.3)).toMatchObject([{ total: '0.43 mg' }]);
  });
});

describe('doseMismatches', () => {
  const WEIGHED = 'Weight 32.4 kg (32.0 kg three months ago).\n';
  const found = (text: string) => doseMismatches(text).map((m) => ({ text: text.slice(m.start, m.end), says: m.says }));

  it('flags a mg amount that its mg/kg and the note’s weight do not multiply to', () => {
    expect(found(`${WEIGHED}Maropitant 60 mg (1 mg/kg) by mouth once daily.`)).toEqual([
      { text: '60 mg', says: '60 mg is not 1 mg/kg for 32.4 kg (32.4 mg); 60 mg is 1.85 mg/kg' },
    ]);
    // Either order, and a range read as its bounds.
    expect(found(`${WEIGHED}Maropitant 2 mg/kg PO: 30 mg once daily.`)).toHaveLength(1);
    expect(found(`${WEIGHED}Carprofen 2-4 mg/kg (200 mg) once daily.`)).toHaveLength(1);
  });

  it('leaves alone a dose that agrees within rounding, and doses it cannot pair or weigh', () => {
    expect(found(`${WEIGHED}Maropitant 60 mg tablet (1.9 mg/kg) once daily.`)).toEqual([]);
    expect(found(`${WEIGHED}Maropitant 1 mg/kg SC = 32 mg given today.`)).toEqual([]);
    expect(found(`${WEIGHED}Carprofen 2-4 mg/kg (100 mg) once daily.`)).toEqual([]);
    // Another sentence, another unit, or no weight: nothing is paired.
    expect(found(`${WEIGHED}Maropitant 1 mg/kg SC today. Amoxicillin 500 mg twice daily.`)).toEqual([]);
    expect(found(`${WEIGHED}Dexmedetomidine 2 µg/kg and 60 mg of ketamine.`)).toEqual([]);
    expect(found('Maropitant 60 mg (1 mg/kg) by mouth once daily.')).toEqual([]);
  });

  it('is counted in the line of figures to check', () => {
    const text = `${WEIGHED}Maropitant 60 mg (1 mg/kg) by mouth once daily.`;
    expect(figuresLine(findFigures(text), doseMismatches(text))).toMatch(
      /check them against the consult before the note goes into the record\. 1 dose does not match the note’s weight \(32\.4 kg\)\.$/,
    );
  });
});
