// The sandbox's clinical agents as plain functions: the wire answers of `POST /ddx_agent_v2` and
// `/treatment_plan_agent_v2`. A small fixture knowledge base pins the ranking rules; the real one
// is used for realistic histories. The relevance filter and the matching of a history are tested
// in knowledge/.
import { describe, expect, it } from 'vitest';
import {
  answerDdx,
  answerTreatmentPlan,
  SANDBOX_NOTICE,
  type DdxAnswerWire,
  type TreatmentPlanAnswerWire,
} from '../../src/sandbox/agents.ts';
import { CONDITIONS } from '../../src/sandbox/knowledge/conditions/index.ts';
import type { Condition } from '../../src/sandbox/knowledge/types.ts';
import { DDX_MEMBERS, TREATMENT_PLAN_MEMBERS } from '../support/agent-members.ts';
import { FIXTURES, NOT_VETERINARY, score } from './knowledge/support.ts';

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
/** A species the knowledge base does not cover is said so in one sentence, with the notice alone as summary. */
function expectSpeciesNotCovered(a: DdxOk | PlanOk, species: string): void {
  expect(a.response['Plain English Concise']).toBe(
    `The sandbox knowledge base covers dogs and cats only, so it holds nothing for a ${species}.`,
  );
  expect(a.response['Plain English Summary']).toBe(SANDBOX_NOTICE);
}

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
    expectSpeciesNotCovered(rabbit, 'rabbit');
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
    expectSpeciesNotCovered(horse, 'horse');
  });
});
