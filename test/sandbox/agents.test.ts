// The sandbox's clinical agents as plain functions: the relevance filter, the matching of a
// history against the knowledge base, and the wire answers of `POST /ddx_agent_v2` and `/treatment_plan_agent_v2`.
// A small fixture knowledge base pins the scoring rules; the real one is used for realistic
// histories.
import { describe, expect, it } from 'vitest';
import {
  answerDdx,
  answerTreatmentPlan,
  SANDBOX_NOTICE,
  type DdxAnswerWire,
  type TreatmentPlanAnswerWire,
} from '../../src/sandbox/agents.ts';
import { CONDITIONS } from '../../src/sandbox/knowledge/conditions/index.ts';
import { findTerm, prepare, rankConditions, signalmentWords } from '../../src/sandbox/knowledge/matching.ts';
import { assessRelevance } from '../../src/sandbox/knowledge/relevance.ts';
import type { Condition, KbSpecies } from '../../src/sandbox/knowledge/types.ts';
import { DDX_MEMBERS, TREATMENT_PLAN_MEMBERS } from '../support/agent-members.ts';

function fixture(
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

const FIXTURES: Condition[] = [
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

type DdxOk = Extract<DdxAnswerWire, { status: true }>;
type PlanOk = Extract<TreatmentPlanAnswerWire, { status: true }>;

function ddxOk(input: string, conditions?: Condition[]): DdxOk {
  const a = answerDdx(input, conditions);
  if (!a.status) throw new Error(`expected status true for ${JSON.stringify(input)}: ${a.reason}`);
  return a;
}
function planOk(input: string, conditions?: Condition[]): PlanOk {
  const a = answerTreatmentPlan(input, conditions);
  if (!a.status) throw new Error(`expected status true for ${JSON.stringify(input)}: ${a.reason}`);
  return a;
}
const labels = (a: DdxOk): string[] => Object.keys(a.response['Differential Diagnosis Details']);
const plans = (a: PlanOk) => Object.values(a.response['Treatment Plan Details']);
const score = (input: string, id: string): number =>
  rankConditions(prepare(input), FIXTURES).find((r) => r.condition.id === id)?.score ?? 0;

const NOT_VETERINARY = [
  "What's the weather in Paris tomorrow?",
  'Write me a poem about the sea.',
  'Chocolate cake recipe with raspberries, please.',
  'Who won the football league last season?',
];

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

describe('answerDdx (POST /ddx_agent_v2)', () => {
  function expectWellFormed(a: DdxOk): void {
    const details = a.response['Differential Diagnosis Details'];
    const sets = Object.values(details);
    expect(sets.length).toBeGreaterThanOrEqual(2);
    expect(sets.length).toBeLessThanOrEqual(5);
    for (const set of sets) {
      expect(Object.keys(set).sort()).toEqual([...DDX_MEMBERS].sort());
      for (const field of DDX_MEMBERS) expect(set[field], field).toMatch(/\S/);
    }
    expect(a.reason).toMatch(/\S/);
    expect(a.response['Plain English Concise']).toMatch(/^[^.!?]+\.$/);
    expect(a.response['Plain English Concise']).not.toMatch(/sandbox/i);
    expect(a.response['Plain English Summary'].endsWith(SANDBOX_NOTICE)).toBe(true);
  }

  it('puts hyperthyroidism first for an old cat with weight loss, polyphagia and a thyroid nodule', () => {
    const a = ddxOk('12 yo MN DSH cat, weight loss, polyphagia, vomiting, tachycardia, palpable thyroid nodule');
    expectWellFormed(a);
    expect(labels(a)[0]).toMatch(/hyperthyroid/i);
    expect(a.response['Plain English Concise']).toMatch(/hyperthyroidism/i);
    expect(a.reason).toMatch(/cat/);
    expect(a.reason).toContain('palpable thyroid nodule');
    // A cat's differentials are conditions of cats.
    for (const label of labels(a)) expect(CONDITIONS.find((c) => c.name === label)?.species).toContain('cat');
  });

  it('puts GDV first for a Great Dane retching unproductively with a distended abdomen', () => {
    const a = ddxOk('8 year old Great Dane, unproductive retching, distended abdomen, restless after a large meal');
    expectWellFormed(a);
    expect(labels(a)[0]).toMatch(/gastric dilatation-volvulus/i);
    for (const label of labels(a)) expect(CONDITIONS.find((c) => c.name === label)?.species).toContain('dog');
  });

  it('has hyperadrenocorticism in the top two for a pot-bellied, panting poodle with PU/PD and alopecia', () => {
    const a = ddxOk('10 yo Poodle, PU/PD, pot-bellied, panting, symmetrical alopecia');
    expectWellFormed(a);
    expect(labels(a).slice(0, 2).join(' ')).toMatch(/hyperadrenocorticism/i);
  });

  it('puts urethral obstruction or lower urinary tract disease first for a male cat straining to urinate', () => {
    const a = ddxOk(
      '3 year old male neutered cat, straining to urinate in the litter box, vocalising, licking his penis',
    );
    expectWellFormed(a);
    expect(labels(a)[0]).toMatch(/urethral obstruction|idiopathic cystitis/i);
  });

  it('reads a chat history and owner wording', () => {
    const a = ddxOk(
      "Owner: my old cat keeps losing weight.\nVet: any vomiting?\nOwner: sometimes, and she's always hungry, and her heart races.",
    );
    expect(labels(a)[0]).toMatch(/hyperthyroid/i);
  });

  it('turns irrelevant input away with status false, a reason and response null', () => {
    for (const input of [...NOT_VETERINARY, 'My husband has a headache.']) {
      const a = answerDdx(input);
      expect(a.status, input).toBe(false);
      expect(a.reason.length).toBeGreaterThan(10);
      expect(a.response).toBeNull();
    }
  });

  it('does not count denied signs', () => {
    const with_ = ddxOk('cat with vomiting, diarrhoea and weight loss', FIXTURES);
    expect(labels(with_)[0]).toBe('Gastro upset');
    const without = ddxOk('cat, no vomiting, no diarrhoea; weight loss, polyphagia', FIXTURES);
    expect(labels(without)[0]).toBe('Thyroid excess');
    expect(score('cat, no vomiting, no diarrhoea; weight loss, polyphagia', 'fx-gastro')).toBe(0);
    expect(without.response['Plain English Summary']).toMatch(/absent \(vomiting and diarrhea\)/);
  });

  it('ranks only the species named, and always offers an alternative', () => {
    const dog = ddxOk('dog with unproductive retching and vomiting', FIXTURES);
    expect(labels(dog)).toEqual(['Bloat', 'Gastro upset']);
    const cat = ddxOk('cat with a palpable thyroid nodule', FIXTURES);
    expect(labels(cat)[0]).toBe('Thyroid excess');
    expect(labels(cat).length).toBeGreaterThanOrEqual(2);
    expect(labels(cat)).not.toContain('Bloat');
  });

  it('answers relevant input the knowledge base cannot match with status true, no differentials and a summary saying why', () => {
    // A species it does not cover: said honestly in one sentence, with no "add the signs".
    const rabbit = ddxOk('My rabbit has diarrhoea and is not eating.');
    expect(rabbit.response['Differential Diagnosis Details']).toEqual({});
    expect(rabbit.response['Plain English Concise']).toBe(
      'The sandbox knowledge base covers dogs and cats only, so it holds nothing for a rabbit.',
    );
    expect(rabbit.response['Plain English Summary']).toBe(SANDBOX_NOTICE);
    expect(JSON.stringify(rabbit.response)).not.toMatch(/ask again/);
    const nothing = ddxOk('dog, 5 years, hypothermia and bradycardia', FIXTURES);
    expect(nothing.response['Differential Diagnosis Details']).toEqual({});
    expect(nothing.response['Plain English Summary']).toMatch(/No condition in the sandbox knowledge base matches/);
  });

  it('gives the same answer to the same input', () => {
    const input = '10 yo Poodle, PU/PD, pot-bellied, panting, symmetrical alopecia';
    expect(answerDdx(input)).toEqual(answerDdx(input));
  });
});

describe('answerTreatmentPlan (POST /treatment_plan_agent_v2)', () => {
  function expectPlans(a: PlanOk): void {
    expect(plans(a).length).toBeGreaterThanOrEqual(1);
    for (const set of plans(a)) {
      expect(Object.keys(set).sort()).toEqual([...TREATMENT_PLAN_MEMBERS].sort());
      for (const field of TREATMENT_PLAN_MEMBERS) expect(set[field], field).toMatch(/\S/);
    }
    expect(a.response['Plain English Concise']).toMatch(/\S/);
    expect(a.response['Plain English Summary'].endsWith(SANDBOX_NOTICE)).toBe(true);
  }

  it('refuses input that names no species, saying the species is needed', () => {
    for (const input of [
      'How do I treat otitis externa?',
      'Weight loss, polyphagia, palpable thyroid nodule: treatment?',
    ]) {
      const a = answerTreatmentPlan(input);
      expect(a.status, input).toBe(false);
      expect(a.reason).toMatch(/species/);
      expect(a.response).toBeNull();
    }
  });

  it('plans for the disease named, for the species named', () => {
    const a = planOk('How do I treat hyperthyroidism in my cat?');
    expectPlans(a);
    expect(plans(a)[0]?.diagnosis_name).toMatch(/hyperthyroid/i);
    expect(a.response['Plain English Concise']).toMatch(/hyperthyroidism in cats/i);
  });

  it('knows a disease by its alias', () => {
    const a = planOk("Cushing's in my 11 year old dachshund: what is the treatment plan?");
    expectPlans(a);
    expect(plans(a)[0]?.diagnosis_name).toMatch(/hyperadrenocorticism/i);
  });

  it('derives plans from the likely differentials when no disease is named', () => {
    const a = planOk('Dog, 7 years, German Shepherd, drinking and urinating a lot, pot-bellied, thin coat, panting.');
    expectPlans(a);
    expect(plans(a).length).toBeLessThanOrEqual(3);
    expect(plans(a)[0]?.diagnosis_name).toMatch(/hyperadrenocorticism/i);
    expect(a.response['Plain English Summary']).toMatch(/most likely diagnoses/);
    const list = planOk('Cat: vomiting, diarrhoea, ate rubbish.', FIXTURES);
    expect(plans(list)[0]?.diagnosis_name).toBe('Gastro upset');
  });

  it('says so, with no plan, when the disease named is held only for another species', () => {
    const a = planOk('How do I treat hyperthyroidism in my dog?');
    expect(a.response['Treatment Plan Details']).toEqual({});
    expect(a.response['Plain English Summary']).toMatch(/for cats only, not for dogs/);
  });

  it('turns away unrelated input', () => {
    for (const input of [...NOT_VETERINARY, 'How much does a vet visit cost for a dog?']) {
      const a = answerTreatmentPlan(input);
      expect(a.status, input).toBe(false);
      expect(a.response).toBeNull();
    }
    expect(answerTreatmentPlan('What breed of dog is friendliest?').reason).toMatch(/not related to treatment plans/);
  });
});

describe('the whole knowledge base', () => {
  it.each(CONDITIONS.map((c) => [c.name, c] as const))(
    '%s: found first from its three strongest signs, and planned for when named',
    (_name, c) => {
      const species = c.species[0] ?? 'dog';
      const strongest = [...c.signs]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([term]) => term);
      expect(labels(ddxOk(`${species}, ${strongest.join(', ')}`))[0]).toBe(c.name);
      const plan = planOk(`How do I treat ${c.name.toLowerCase()} in my ${species}?`);
      expect(plans(plan)[0]?.diagnosis_name).toBe(c.treatment.diagnosis_name);
    },
  );
});

describe('the patient it is about: sex, neuter status and age', () => {
  const pyometraSigns = 'lethargic, polydipsia, vomiting, distended abdomen, vaginal discharge';
  it('lists no pyometra for a male or a spayed bitch, and lists it for an intact one', () => {
    expect(labels(ddxOk(`Dog, 6 years, FS Labrador: ${pyometraSigns}`))).not.toContain('Pyometra');
    expect(labels(ddxOk(`Spayed bitch, 8 years, lethargic, polydipsia, vomiting, distended abdomen`))).not.toContain(
      'Pyometra',
    );
    expect(
      labels(ddxOk(`Dog, 8 years, male neutered: lethargic, polydipsia, vomiting, distended abdomen`)),
    ).not.toContain('Pyometra');
    expect(labels(ddxOk(`Cat, 9 years, MN: lethargic, polydipsia, vomiting, distended abdomen`))).not.toContain(
      'Pyometra',
    );
    expect(labels(ddxOk(`Dog, 6 years, intact female Rottweiler, in season 5 weeks ago: ${pyometraSigns}`))[0]).toBe(
      'Pyometra',
    );
  });

  it('does not put a disease of puppies first for an adult: the 7-year-old Labrador that got into the bin', () => {
    const adult = labels(
      ddxOk('Dog, 7 yo Lab, bloody diarrhoea and vomiting after eating from the rubbish bin, lethargic'),
    );
    expect(adult[0]).not.toBe('Canine parvovirus enteritis');
    const puppy = labels(
      ddxOk('Dog, Labrador puppy, 12 weeks old, unvaccinated. Vomiting and bloody diarrhoea, lethargic.'),
    );
    expect(puppy[0]).toBe('Canine parvovirus enteritis');
    // Named by the vet, it is considered whatever the age.
    expect(labels(ddxOk('Dog, 7 years, parvo positive snap test, vomiting and bloody diarrhoea'))[0]).toBe(
      'Canine parvovirus enteritis',
    );
  });

  it('a species it does not cover gets one honest sentence for a treatment plan too', () => {
    const horse = planOk('Horse, 12 years, laminitis: what is the treatment plan?');
    expect(horse.response['Treatment Plan Details']).toEqual({});
    expect(horse.response['Plain English Concise']).toBe(
      'The sandbox knowledge base covers dogs and cats only, so it holds nothing for a horse.',
    );
    expect(horse.response['Plain English Summary']).toBe(SANDBOX_NOTICE);
  });
});
