// The figures a scribe most often gets wrong, found in a note so the vet can check them before
// it goes into the record: doses, weights, temperatures, rates and drug names. A reading aid,
// not a check: it finds what it recognises and says how many. Written here because no library
// reads veterinary figures; the patterns are plain regular expressions over the note's text.

export type FigureKind = 'dose' | 'weight' | 'temperature' | 'rate' | 'drug';

export interface Figure {
  kind: FigureKind;
  start: number;
  end: number;
  text: string;
}

const NUMBER = String.raw`\d+(?:[.,]\d+)?(?:\s?(?:-|–|to)\s?\d+(?:[.,]\d+)?)?`;
// Grams are a dose only per kilogram ("0.5 g/kg"); "450 g" is a kitten's weight.
const DOSE_UNIT = String.raw`(?:mg|µg|μg|mcg|ug|ng|mL|ml|IU|units?|mmol|mEq|drops?|tablets?|tabs?|capsules?|g(?=\s?\/\s?kg))`;
const PER = String.raw`(?:\s?\/\s?(?:kg|m2|m²|day|dose|h|hr|hour))?`;

// In order: a pattern listed first wins where two would match the same words (a fluid rate
// "2 mL/kg/h" is a rate, not a dose; "1 mg/kg" is a dose, not a weight).
const PATTERNS: { kind: FigureKind; pattern: string }[] = [
  { kind: 'rate', pattern: String.raw`${NUMBER}\s?(?:mL|ml)\s?\/\s?kg\s?\/\s?(?:h|hr|hour)\b` },
  {
    kind: 'rate',
    pattern: String.raw`${NUMBER}\s?(?:bpm|beats?\s(?:per|a)\s(?:minute|min)|breaths?\s?\/\s?min|breaths?\s(?:per|a)\s(?:minute|min)|\/\s?min\b|rpm\b|mmHg\b)`,
  },
  { kind: 'dose', pattern: String.raw`${NUMBER}\s?${DOSE_UNIT}${PER}(?![A-Za-z])` },
  { kind: 'temperature', pattern: String.raw`${NUMBER}\s?°\s?[CF]\b` },
  { kind: 'weight', pattern: String.raw`${NUMBER}\s?(?:kg|kilograms?|lbs?|pounds?|g|grams?)\b` },
];

/**
 * Drugs vets prescribe most often, by their generic names: a list, since no library names
 * veterinary drugs. A name not in it is simply not marked.
 */
export const COMMON_DRUGS = [
  'acepromazine',
  'alfaxalone',
  'amlodipine',
  'amoxicillin',
  'atipamezole',
  'atropine',
  'benazepril',
  'buprenorphine',
  'butorphanol',
  'carprofen',
  'cefalexin',
  'cephalexin',
  'cefovecin',
  'cefazolin',
  'chlorambucil',
  'ciclosporin',
  'cyclosporine',
  'clavulanate',
  'clindamycin',
  'clopidogrel',
  'cytarabine',
  'dexamethasone',
  'dexmedetomidine',
  'diazepam',
  'doxycycline',
  'enalapril',
  'enrofloxacin',
  'famotidine',
  'fenbendazole',
  'fentanyl',
  'firocoxib',
  'fluoxetine',
  'fluralaner',
  'furosemide',
  'gabapentin',
  'glucosamine',
  'hydromorphone',
  'insulin',
  'isoflurane',
  'ivermectin',
  'ketamine',
  'lactulose',
  'levetiracetam',
  'levothyroxine',
  'lidocaine',
  'lokivetmab',
  'marbofloxacin',
  'maropitant',
  'medetomidine',
  'meloxicam',
  'methadone',
  'methimazole',
  'metoclopramide',
  'metronidazole',
  'midazolam',
  'milbemycin',
  'mirtazapine',
  'morphine',
  'oclacitinib',
  'omeprazole',
  'ondansetron',
  'oxytocin',
  'paracetamol',
  'pentobarbital',
  'phenobarbital',
  'pimobendan',
  'praziquantel',
  'prednisolone',
  'prednisone',
  'propofol',
  'robenacoxib',
  'selamectin',
  'sevoflurane',
  'spironolactone',
  'sucralfate',
  'telmisartan',
  'thiamazole',
  'tramadol',
  'trazodone',
  'trilostane',
  'ursodiol',
] as const;

const DRUG_PATTERN = String.raw`\b(?:${COMMON_DRUGS.join('|')})\b`;

/** Every figure of the text, in reading order, none overlapping another. */
export function findFigures(text: string): Figure[] {
  const found: Figure[] = [];
  const taken = (start: number, end: number) => found.some((f) => start < f.end && f.start < end);
  for (const { kind, pattern } of [...PATTERNS, { kind: 'drug' as const, pattern: DRUG_PATTERN }]) {
    for (const m of text.matchAll(new RegExp(`(?<![\\w.,])${pattern}`, 'giu'))) {
      const start = m.index;
      const end = start + m[0].length;
      if (!taken(start, end)) found.push({ kind, start, end, text: m[0] });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

const WORDS: Record<FigureKind, [string, string]> = {
  dose: ['dose', 'doses'],
  weight: ['weight', 'weights'],
  temperature: ['temperature', 'temperatures'],
  rate: ['rate', 'rates'],
  drug: ['drug name', 'drug names'],
};

/**
 * "4 doses, 1 weight: check them", or null when there is nothing to check; with the doses the
 * note's weight disagrees with (doseMismatches) counted after it.
 */
export function figuresLine(figures: readonly Figure[], mismatches: readonly DoseMismatch[] = []): string | null {
  if (figures.length === 0) return null;
  const parts = (Object.keys(WORDS) as FigureKind[]).flatMap((kind) => {
    const n = figures.filter((f) => f.kind === kind).length;
    return n === 0 ? [] : [`${n} ${WORDS[kind][n === 1 ? 0 : 1]}`];
  });
  const line = `${parts.join(', ')}: check ${figures.length === 1 ? 'it' : 'them'} against the consult before the note goes into the record.`;
  const n = mismatches.length;
  if (n === 0) return line;
  return `${line} ${n} ${n === 1 ? 'dose does' : 'doses do'} not match the note’s weight (${mismatches[0]!.weightKg} kg).`;
}

/** The patient's weight in kilograms a text states ("32 kg", "32kg", "70 lb"), or null. */
export function statedWeightKg(text: string): number | null {
  for (const f of findFigures(text)) {
    if (f.kind !== 'weight') continue;
    const m = /^(\d+(?:[.,]\d+)?)\s?(kg|kilograms?|lbs?|pounds?)$/i.exec(f.text);
    if (!m?.[1] || !m[2]) continue;
    const n = Number(m[1].replace(',', '.'));
    return /^k/i.test(m[2]) ? n : Math.round(n * 0.4536 * 10) / 10;
  }
  return null;
}

export interface DoseTotal {
  start: number;
  end: number;
  /** "32 mg", "16–32 mg": the per-kilogram dose times the weight, rounded sensibly. */
  total: string;
}

const round = (n: number) => (n >= 100 ? Math.round(n) : n >= 10 ? Math.round(n * 10) / 10 : Math.round(n * 100) / 100);

/** Each per-kilogram dose of a text with its total for a patient of `kg` (the app's own arithmetic). */
export function perKgTotals(text: string, kg: number): DoseTotal[] {
  return findFigures(text).flatMap((f) => {
    if (f.kind !== 'dose') return [];
    const m = /^(\d+(?:[.,]\d+)?)(?:\s?(?:-|–|to)\s?(\d+(?:[.,]\d+)?))?\s?([a-zµμ]+)\s?\/\s?kg$/i.exec(f.text);
    if (!m?.[1] || !m[3]) return [];
    const low = round(Number(m[1].replace(',', '.')) * kg);
    const high = m[2] ? round(Number(m[2].replace(',', '.')) * kg) : null;
    return [{ start: f.start, end: f.end, total: `${high === null ? low : `${low}–${high}`} ${m[3]}` }];
  });
}

export interface DoseMismatch {
  /** Where the amount (the "60 mg" of "60 mg (1 mg/kg)") is in the text. */
  start: number;
  end: number;
  /** The weight the amount was checked against. */
  weightKg: number;
  /** "60 mg is not 1 mg/kg for 32.4 kg (32.4 mg); 60 mg is 1.85 mg/kg". */
  says: string;
}

// A tablet or a syringe's marks round a worked-out dose: a tenth either way is the same dose
// ("60 mg tablet, 2 mg/kg" for 32.4 kg is 7 % under 64.8 mg, and right).
const ROUNDING = 0.1;
// An amount and its mg/kg are written side by side in one sentence: "60 mg (1 mg/kg)",
// "1 mg/kg = 32 mg", "2 mg/kg PO: 60 mg". A full stop not inside a number ends the sentence.
const BETWEEN_PAIR = /^[^;\n]{0,40}$/;
const SENTENCE_END = /\.(?!\d)/;

interface ReadDose {
  figure: Figure;
  low: number;
  high: number;
  unit: string;
  perKg: boolean;
}

function readDose(f: Figure): ReadDose | null {
  const m = /^(\d+(?:[.,]\d+)?)(?:\s?(?:-|–|to)\s?(\d+(?:[.,]\d+)?))?\s?(mg|µg|μg|mcg|ug|g)(\s?\/\s?kg)?$/i.exec(
    f.text,
  );
  if (!m?.[1] || !m[3]) return null;
  const low = Number(m[1].replace(',', '.'));
  const high = m[2] ? Number(m[2].replace(',', '.')) : low;
  return { figure: f, low, high, unit: m[3].toLowerCase().replace('μ', 'µ'), perKg: m[4] !== undefined };
}

const amountText = (low: number, high: number, unit: string) =>
  low === high ? `${round(low)} ${unit}` : `${round(low)}–${round(high)} ${unit}`;

/**
 * Each amount of a text ("60 mg") written beside a per-kilogram dose of the same unit ("1 mg/kg")
 * that does not multiply to it with the weight `kg` (by default the first the text states),
 * beyond rounding: a wrong weight, a slip of the decimal point, a dose for another species.
 */
export function doseMismatches(text: string, kg: number | null = statedWeightKg(text)): DoseMismatch[] {
  if (kg === null || !(kg > 0)) return [];
  const doses = findFigures(text)
    .filter((f) => f.kind === 'dose')
    .map(readDose)
    .filter((d): d is ReadDose => d !== null);
  const out: DoseMismatch[] = [];
  doses.forEach((amount, i) => {
    if (amount.perKg) return;
    // Its neighbours only, the nearer first: another dose between them belongs to another drug.
    const neighbours = [doses[i - 1], doses[i + 1]]
      .filter((d): d is ReadDose => d !== undefined && d.perKg && d.unit === amount.unit)
      .map((d) => {
        const [a, b] = d.figure.start < amount.figure.start ? [d.figure, amount.figure] : [amount.figure, d.figure];
        return { d, between: text.slice(a.end, b.start) };
      })
      .filter(({ between }) => BETWEEN_PAIR.test(between) && !SENTENCE_END.test(between))
      .sort((x, y) => x.between.length - y.between.length);
    const perKg = neighbours[0]?.d;
    if (!perKg) return;
    const low = perKg.low * kg;
    const high = perKg.high * kg;
    if (amount.high >= low * (1 - ROUNDING) && amount.low <= high * (1 + ROUNDING)) return;
    const given = amount.figure.text;
    out.push({
      start: amount.figure.start,
      end: amount.figure.end,
      weightKg: kg,
      says: `${given} is not ${perKg.figure.text} for ${kg} kg (${amountText(low, high, amount.unit)}); ${given} is ${amountText(amount.low / kg, amount.high / kg, `${amount.unit}/kg`)}`,
    });
  });
  return out;
}
