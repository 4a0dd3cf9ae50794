// Whether an input is for the agents at all (docs/service.md, "Clinical agents"). The agents must turn
// away input that is not veterinary, or not for the agent asked, with a reason; this is the
// honest version of that filter: it counts the veterinary and clinical evidence in the text
// and accepts it past a threshold.
//
// Evidence is of two kinds. Clinical terms (signs, findings, diseases, drugs, tests, and every
// sign and condition name of the knowledge base) say there is something to diagnose or treat.
// Context (a species, "vet", a pet owner, signalment such as "12 yo MN", a diagnostic or
// treatment question) says who the patient is. Accepted: at least one clinical term and at
// least two points of evidence in all. Everyday words that are also clinical (a poison such
// as "chocolate", a knowledge-base sign such as "large meal") count half until an animal is
// named. So "my dog is vomiting", "my dog ate chocolate" and "vomiting and diarrhoea" pass;
// "chocolate cake recipe" (half a point, no context) and "what breed of dog is friendliest"
// (context, nothing clinical) do not.
//
// Human medicine: a text whose patient is a person ("my husband has a headache", "I have a
// fever") and that names no animal, vet or signalment is turned away, however clinical.
import { detectSpecies, type Species } from '../../shared/species.ts';
import { CONDITIONS } from './conditions/index.ts';
import { ageInYears, findTerm, prepare, SYNONYM_GROUPS, type Prepared } from './matching.ts';
import type { Condition } from './types.ts';
import {
  CLINICAL,
  DIAGNOSTIC_WORDS,
  DISEASE_WORD,
  HUMAN_PATIENT,
  NOT_DISEASE,
  TOXINS,
  TREATMENT_WORDS,
  VET_CONTEXT,
  WEAK,
} from './relevance-words.ts';

export type Agent = 'ddx' | 'treatment';

export interface Relevance {
  relevant: boolean;
  reason: string;
  species: Species[];
  /** Veterinary and clinical terms recognised, as written (normal form), clinical first. */
  matchedTerms: string[];
}

type Kind = 'clinical' | 'weak' | 'knowledge' | 'context' | 'diagnostic' | 'treatment';
interface Found {
  start: number;
  end: number;
  text: string;
  kind: Kind;
}

const GENERAL: readonly (readonly [Kind, readonly string[]])[] = [
  ['clinical', [...new Set(SYNONYM_GROUPS.flat()), ...CLINICAL]],
  ['weak', WEAK],
  ['knowledge', TOXINS],
  ['context', VET_CONTEXT],
  ['diagnostic', DIAGNOSTIC_WORDS],
  ['treatment', TREATMENT_WORDS],
];

// The knowledge base's own words: condition names and aliases are clinical; signs that the
// general vocabulary does not know may be everyday words ("chocolate", "large meal") and
// count half.
const knowledgeTerms = new WeakMap<readonly Condition[], { names: string[]; signs: string[] }>();
function termsOf(conditions: readonly Condition[]): { names: string[]; signs: string[] } {
  let terms = knowledgeTerms.get(conditions);
  if (!terms) {
    terms = {
      names: [...new Set(conditions.flatMap((c) => [c.name, ...c.aliases.filter((a) => !/^[A-Z0-9]{1,4}$/.test(a))]))],
      signs: [...new Set(conditions.flatMap((c) => c.signs.map(([term]) => term)))],
    };
    knowledgeTerms.set(conditions, terms);
  }
  return terms;
}

const POINTS: Record<Kind, number> = {
  clinical: 1,
  weak: 0.5,
  knowledge: 0.5,
  context: 0,
  diagnostic: 0,
  treatment: 0,
};

/**
 * Every term recognised (`all`), and those that count (`counted`): a term inside another one
 * worth as much ("thyroid" in "palpable thyroid nodule") is not counted again.
 */
function recognise(p: Prepared, conditions: readonly Condition[]): { all: Found[]; counted: Found[] } {
  const candidates: Found[] = [];
  const add = (kind: Kind, terms: readonly string[]): void => {
    for (const term of terms)
      for (const h of findTerm(p, term)) candidates.push({ start: h.start, end: h.end, text: h.text, kind });
  };
  for (const [kind, terms] of GENERAL) add(kind, terms);
  const { names, signs } = termsOf(conditions);
  add('clinical', names);
  add('knowledge', signs);
  for (const m of p.text.matchAll(DISEASE_WORD)) {
    if (!NOT_DISEASE.has(m[0]))
      candidates.push({ start: m.index, end: m.index + m[0].length, text: m[0], kind: 'clinical' });
  }
  // Longest first, and at equal spans the stronger kind, so a sign the general vocabulary
  // knows is not also counted as a knowledge-base word.
  const order: Kind[] = ['clinical', 'weak', 'knowledge', 'diagnostic', 'treatment', 'context'];
  candidates.sort(
    (a, b) => b.end - b.start - (a.end - a.start) || order.indexOf(a.kind) - order.indexOf(b.kind) || a.start - b.start,
  );
  const counted: Found[] = [];
  for (const c of candidates) {
    if (POINTS[c.kind] === 0) continue;
    if (!counted.some((k) => k.start <= c.start && c.end <= k.end && POINTS[k.kind] >= POINTS[c.kind])) counted.push(c);
  }
  const byPlace = (a: Found, b: Found): number => a.start - b.start || b.end - a.end;
  return { all: candidates.sort(byPlace), counted: counted.sort(byPlace) };
}

const list = (terms: readonly string[], max = 8): string => {
  const shown = terms.slice(0, max).map((t) => `"${t}"`);
  if (terms.length > max) shown.push(`${terms.length - max} more`);
  return shown.length <= 1 ? (shown[0] ?? '') : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
};

const uniqueTexts = (found: readonly Found[]): string[] => [...new Set(found.map((f) => f.text.replace(/\s+/g, ' ')))];

/**
 * Whether `input` is for the agent, with a short reason either way. For 'treatment', input
 * that is veterinary but asks nothing clinical is "not related to treatment plans". The
 * species rule of the treatment agent (`POST /treatment_plan_agent_v2`) is the agent's own check.
 */
export function assessRelevance(input: string, agent: Agent, conditions: readonly Condition[] = CONDITIONS): Relevance {
  const p = prepare(input);
  const species = detectSpecies(input);
  const { all: found, counted: clinical } = recognise(p, conditions);
  const vet = found.some((f) => f.kind === 'context');
  const signalment = ageInYears(p) !== undefined;
  const diagnostic = found.some((f) => f.kind === 'diagnostic');
  const treatment = found.some((f) => f.kind === 'treatment');
  const context =
    (species.length > 0 ? 1 : 0) + (vet ? 1 : 0) + (signalment ? 1 : 0) + (diagnostic || treatment ? 1 : 0);
  // A knowledge-base word is clinical once the text is about an animal ("my dog ate chocolate").
  const points = (kind: Kind): number =>
    kind === 'knowledge' && species.length + (vet ? 1 : 0) > 0 ? 1 : POINTS[kind];
  const clinicalPoints = [...new Map(clinical.map((f) => [f.text, points(f.kind)])).values()].reduce(
    (a, b) => a + b,
    0,
  );
  const matchedTerms = uniqueTexts([
    ...clinical,
    ...found.filter((f) => POINTS[f.kind] === 0 && !clinical.some((c) => c.start <= f.start && f.end <= c.end)),
  ]);
  const answer = (relevant: boolean, reason: string): Relevance => ({ relevant, reason, species, matchedTerms });

  const human = HUMAN_PATIENT.some((re) => re.test(p.text));
  if (human && species.length === 0 && !vet && !signalment) {
    return answer(
      false,
      "The input is about a person's health, not an animal patient; this agent answers veterinary questions only.",
    );
  }
  if (clinicalPoints === 0 && context === 0) {
    return answer(
      false,
      'The input is not about veterinary medicine: no animal species, clinical sign or veterinary term was recognised.',
    );
  }
  if (clinicalPoints === 0) {
    const about = species.length > 0 ? `about a ${species.join(' and ')}` : 'veterinary';
    return agent === 'treatment'
      ? answer(
          false,
          `The input is not related to treatment plans: it is ${about} but names no disease, clinical sign or finding to plan a treatment for.`,
        )
      : answer(
          false,
          `The input is ${about} but is not a clinical history: it names no clinical sign, finding or condition to build a differential diagnosis from.`,
        );
  }
  if (clinicalPoints < 1 || clinicalPoints + context < 2) {
    const terms = uniqueTexts(clinical);
    return answer(
      false,
      `Too little veterinary content to answer: only ${list(terms)} ${terms.length === 1 ? 'was' : 'were'} recognised, with no animal species, signalment or other clinical detail.`,
    );
  }
  const subject = species.length > 0 ? `a ${species.join(' and ')}` : 'an animal patient (species not named)';
  const signs = list(uniqueTexts(clinical));
  return agent === 'treatment'
    ? answer(
        true,
        `Relevant to veterinary treatment planning: ${treatment ? 'a treatment question' : 'a clinical history'} about ${subject}, with ${signs} recognised.`,
      )
    : answer(true, `Relevant to veterinary medicine: a clinical history of ${subject}, with ${signs} recognised.`);
}
