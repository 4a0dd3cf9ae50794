// A small knowledge base of made-up conditions that pins the scoring rules, and inputs that are
// not veterinary, for the tests of the sandbox's knowledge matching, relevance and agents.
import { prepare, rankConditions } from '../../../src/sandbox/knowledge/matching.ts';
import type { Condition, KbSpecies } from '../../../src/sandbox/knowledge/types.ts';

/** A condition with every field filled with a sentence that names it. */
export function fixture(
  id: string,
  name: string,
  species: KbSpecies[],
  signs: Condition['signs'],
  extra: Partial<Condition> = {},
): Condition {
  const text = (what: string): string => `${what} of ${name} (fixture).`;
  return {
    id,
    name,
    aliases: [],
    species,
    signs,
    predispositions: [],
    ddx: {
      name,
      cause_etiology: text('Cause'),
      commonly_confused_with: text('Look-alikes'),
      diagnosis_rule_outs: text('Tests'),
      prognosis: text('Prognosis'),
      risk_factors_predispositions: text('Risk factors'),
      symptoms_clinical_signs: text('Signs'),
    },
    treatment: {
      diagnosis_name: name,
      treatment_plan_name: `Plan for ${name}`,
      treatment_goal: text('Goal'),
      medications: text('Medications'),
      dietary_management: text('Diet'),
      lifestyle_modifications: text('Lifestyle'),
      symptom_management: text('Symptom management'),
      'non-surgical_options': text('Non-surgical options'),
      possible_surgical_options: text('Surgery'),
      preventative_options: text('Prevention'),
      regular_veterinary_monitoring: text('Monitoring'),
      owner_education: text('Owner education'),
    },
    ...extra,
  };
}

export const FIXTURES: Condition[] = [
  fixture(
    'fx-thyroid',
    'Thyroid excess',
    ['cat'],
    [
      ['weight loss', 2],
      ['polyphagia', 2],
      ['vomiting', 1],
      ['palpable thyroid nodule', 3],
      ['tachycardia', 2],
    ],
    {
      aliases: ['hyperthyroid', 'HT'],
      predispositions: ['senior'],
    },
  ),
  fixture(
    'fx-kidney',
    'Kidney failure',
    ['cat'],
    [
      ['pu/pd', 2],
      ['weight loss', 1],
      ['vomiting', 1],
      ['azotaemia', 3],
    ],
    { aliases: ['CKD'] },
  ),
  fixture(
    'fx-gastro',
    'Gastro upset',
    ['dog', 'cat'],
    [
      ['vomiting', 2],
      ['diarrhoea', 2],
      ['ate rubbish', 3],
    ],
    { aliases: ['gastroenteritis'] },
  ),
  fixture(
    'fx-bloat',
    'Bloat',
    ['dog'],
    [
      ['unproductive retching', 3],
      ['distended abdomen', 3],
      ['restlessness', 2],
    ],
    {
      aliases: ['GDV'],
      predispositions: ['large breed', 'deep-chested'],
    },
  ),
];

/** The score a history gets for a condition of FIXTURES. */
export const score = (input: string, id: string): number =>
  rankConditions(prepare(input), FIXTURES).find((r) => r.condition.id === id)?.score ?? 0;

export const NOT_VETERINARY = [
  "What's the weather in Paris tomorrow?",
  'Write me a poem about the sea.',
  'Chocolate cake recipe with raspberries, please.',
  'Who won the football league last season?',
];
