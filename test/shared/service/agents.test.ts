import { describe, expect, it } from 'vitest';
import {
  parseDdxResult,
  parseMedicationResult,
  parseTreatmentPlanResult,
  type DdxResponseWire,
  type MedicationResponseWire,
  type TreatmentPlanResponseWire,
} from '../../../src/shared/service/index.ts';
import { expectFailure, fixture } from '../../support/service-answers.ts';

const DETAILS = 'Differential Diagnosis Details';
const PLAN = 'Treatment Plan Details';

describe('parseDdxResult (POST /ddx_agent_v2)', () => {
  it('reads the map form, one diagnosis per label, every field camelCased', () => {
    const result = parseDdxResult(fixture('ddx-map.json'));
    expect(result.status).toBe(true);
    expect(result.reason).toMatch(/^The history describes vomiting/);
    expect(result.concise).toBe('Most likely pancreatitis or something the dog ate.');
    expect(result.summary).toMatch(/^The signs fit inflammation/);
    expect(result.diagnoses.map((d) => d.label)).toEqual(['Acute pancreatitis', 'Dietary indiscretion']);
    expect(result.diagnoses[0]).toEqual({
      label: 'Acute pancreatitis',
      name: 'Acute pancreatitis',
      causeEtiology: 'Inflammation of the pancreas, often after a high-fat meal.',
      commonlyConfusedWith: 'Gastroenteritis, foreign body obstruction',
      diagnosisRuleOuts: 'cPL (SNAP/Spec cPL), abdominal ultrasound',
      prognosis: 'Good for mild cases; guarded when severe.',
      riskFactorsPredispositions: 'Obesity, Miniature Schnauzers, hypertriglyceridemia',
      symptomsClinicalSigns: 'Vomiting, cranial abdominal pain, prayer position, anorexia',
    });
    expect(result.diagnoses[1]).not.toHaveProperty('confidence');
  });

  it('reads the single-set form as one diagnosis labelled by its name', () => {
    const result = parseDdxResult(fixture('ddx-single.json'));
    expect(result.diagnoses).toHaveLength(1);
    expect(result.diagnoses[0]).toMatchObject({
      label: 'Feline idiopathic cystitis',
      prognosis: 'Good, recurrences are common',
    });
  });

  it('agrees with the wire type the sandbox writes, inside a { data } envelope too', () => {
    const wire: DdxResponseWire = {
      status: true,
      reason: 'r',
      response: {
        [DETAILS]: {
          X: {
            name: 'X',
            cause_etiology: 'c',
            commonly_confused_with: 'y',
            diagnosis_rule_outs: 'd',
            prognosis: 'p',
            risk_factors_predispositions: 'r',
            symptoms_clinical_signs: 's',
          },
        },
        'Plain English Concise': 'c',
        'Plain English Summary': 's',
      },
    };
    const result = parseDdxResult({ message: 'ok', data: wire });
    expect(result.diagnoses[0]?.symptomsClinicalSigns).toBe('s');
    expect(result.summary).toBe('s');
  });

  it('leaves missing, null and blank fields out so the UI hides them', () => {
    const result = parseDdxResult({
      status: true,
      reason: 'r',
      response: { [DETAILS]: { Otitis: { name: 'Otitis externa', prognosis: null, cause_etiology: '  ' } } },
    });
    expect(result.diagnoses).toEqual([{ label: 'Otitis', name: 'Otitis externa' }]);
    expect(result).not.toHaveProperty('concise');
  });

  it('reads an empty details object as no diagnoses', () => {
    expect(parseDdxResult({ status: true, reason: 'r', response: { [DETAILS]: {} } }).diagnoses).toEqual([]);
  });

  it('reads a refusal with a missing, null or empty response', () => {
    expect(parseDdxResult(fixture('ddx-refused.json'))).toEqual({
      status: false,
      reason: 'The input is about car maintenance, not veterinary medicine.',
      diagnoses: [],
    });
    expect(parseDdxResult({ status: false, reason: 'Not veterinary.' })).toEqual({
      status: false,
      reason: 'Not veterinary.',
      diagnoses: [],
    });
    expect(parseDdxResult({ status: false, reason: null, response: {} })).toEqual({
      status: false,
      reason: '',
      diagnoses: [],
    });
    expect(
      parseDdxResult({
        status: false,
        reason: 'x',
        response: { [DETAILS]: 'n/a', 'Plain English Concise': 'Not a vet question.' },
      }),
    ).toEqual({
      status: false,
      reason: 'x',
      concise: 'Not a vet question.',
      diagnoses: [],
    });
  });

  it('fails on a malformed answer, naming the field with its exact member name', () => {
    const good = fixture('ddx-map.json');
    const response = good['response'] as Record<string, unknown>;
    expectFailure(() => parseDdxResult(null), 'ddx-agent', '', 'for ddx-agent: the answer must be an object, got null');
    expectFailure(
      () => parseDdxResult({ ...good, status: 'true' }),
      'ddx-agent',
      'status',
      'must be true or false, got string',
    );
    expectFailure(() => parseDdxResult({ reason: 'r' }), 'ddx-agent', 'status', 'field "status" is missing');
    expectFailure(() => parseDdxResult({ ...good, reason: 3 }), 'ddx-agent', 'reason', 'must be a string, got number');
    expectFailure(
      () => parseDdxResult({ ...good, response: undefined }),
      'ddx-agent',
      'response',
      'field "response" is missing',
    );
    expectFailure(
      () => parseDdxResult({ ...good, response: [] }),
      'ddx-agent',
      'response',
      'must be an object, got array',
    );
    expectFailure(
      () => parseDdxResult({ ...good, response: { ...response, [DETAILS]: undefined } }),
      'ddx-agent',
      'response["Differential Diagnosis Details"]',
      'field "response["Differential Diagnosis Details"]" is missing',
    );
    expectFailure(
      () => parseDdxResult({ ...good, response: { ...response, [DETAILS]: 'Pancreatitis' } }),
      'ddx-agent',
      'response["Differential Diagnosis Details"]',
      'must be an object, got string',
    );
    expectFailure(
      () => parseDdxResult({ ...good, response: { ...response, 'Plain English Summary': 9 } }),
      'ddx-agent',
      'response["Plain English Summary"]',
      'must be a string, got number',
    );
    expectFailure(
      () =>
        parseDdxResult({
          ...good,
          response: { ...response, [DETAILS]: { 'Acute pancreatitis': { name: 'P', prognosis: { text: 'good' } } } },
        }),
      'ddx-agent',
      'response["Differential Diagnosis Details"]["Acute pancreatitis"].prognosis',
      'must be a string, got object',
    );
    expectFailure(
      () =>
        parseDdxResult({
          ...good,
          response: { ...response, [DETAILS]: { Pancreatitis: { name: 'P' }, Other: 'see above' } },
        }),
      'ddx-agent',
      'response["Differential Diagnosis Details"].Other',
      'must be an object, got string',
    );
    expectFailure(
      () => parseDdxResult({ ...good, response: { ...response, [DETAILS]: { name: 'P', prognosis: 4 } } }),
      'ddx-agent',
      'response["Differential Diagnosis Details"].prognosis',
      'must be a string, got number',
    );
    expectFailure(
      () => parseDdxResult({ data: { status: true, reason: 'r', response: null } }),
      'ddx-agent',
      'data.response',
      'must be an object, got null',
    );
  });
});

describe('parseTreatmentPlanResult (POST /treatment_plan_agent_v2)', () => {
  it('reads the map form, with the hyphenated member', () => {
    const result = parseTreatmentPlanResult(fixture('treatment-plan-map.json'));
    expect(result.status).toBe(true);
    expect(result.concise).toBe('Control the itch with daily medicine and good skin care.');
    expect(result.plans).toEqual([
      {
        label: 'Canine atopic dermatitis',
        diagnosisName: 'Canine atopic dermatitis',
        treatmentPlanName: 'Multimodal itch control',
        treatmentGoal: 'Reduce pruritus and skin lesions',
        medications: 'Oclacitinib 0.4-0.6 mg/kg PO q12h for 14 days, then q24h',
        dietaryManagement: 'Omega-3 fatty acid supplementation',
        lifestyleModifications: 'Weekly bathing with a gentle shampoo',
        symptomManagement: 'Treat secondary infections promptly',
        nonSurgicalOptions: 'Allergen-specific immunotherapy',
        possibleSurgicalOptions: 'Not applicable for this condition.',
        preventativeOptions: 'Year-round flea control',
        regularVeterinaryMonitoring: 'Recheck in 4 weeks',
        petOwnerEducation: 'Atopy is managed, not cured.',
      },
    ]);
  });

  it('reads the single-set form inside { data }, labelled by the diagnosis name', () => {
    const result = parseTreatmentPlanResult(fixture('treatment-plan-single.json'));
    expect(result.plans).toHaveLength(1);
    expect(result.plans[0]).toMatchObject({
      label: 'Feline hyperthyroidism',
      nonSurgicalOptions: 'Radioiodine therapy',
      possibleSurgicalOptions: 'Thyroidectomy',
    });
    expect(result.summary).toMatch(/^An overactive thyroid/);
  });

  it('labels a single set without a diagnosis name by its plan name, then by nothing', () => {
    expect(
      parseTreatmentPlanResult({
        status: true,
        reason: 'r',
        response: { [PLAN]: { treatment_plan_name: 'Rest', medications: 'none' } },
      }).plans[0]?.label,
    ).toBe('Rest');
    expect(
      parseTreatmentPlanResult({ status: true, reason: 'r', response: { [PLAN]: { medications: 'none' } } }).plans[0]
        ?.label,
    ).toBe('');
  });

  it('reads the underscore spelling of non-surgical_options and a list of medications', () => {
    const result = parseTreatmentPlanResult({
      status: true,
      reason: 'r',
      response: {
        [PLAN]: { Otitis: { non_surgical_options: 'Ear cleaning', medications: ['Otic drops', 'Analgesia'] } },
      },
    });
    expect(result.plans[0]).toEqual({
      label: 'Otitis',
      nonSurgicalOptions: 'Ear cleaning',
      medications: 'Otic drops\nAnalgesia',
    });
  });

  it('agrees with the wire type the sandbox writes', () => {
    const set = {
      diagnosis_name: 'd',
      treatment_plan_name: 't',
      treatment_goal: 'g',
      medications: 'm',
      dietary_management: 'dm',
      lifestyle_modifications: 'l',
      symptom_management: 's',
      'non-surgical_options': 'n',
      possible_surgical_options: 'p',
      preventative_options: 'pr',
      regular_veterinary_monitoring: 'r',
      owner_education: 'o',
    };
    const wire: TreatmentPlanResponseWire = {
      status: true,
      reason: 'r',
      response: { [PLAN]: { d: set }, 'Plain English Concise': 'c', 'Plain English Summary': 's' },
    };
    const plan = parseTreatmentPlanResult(wire).plans[0];
    expect(plan && Object.keys(plan).length).toBe(13);
  });

  it('reads a refusal (no species) with its reason', () => {
    expect(
      parseTreatmentPlanResult({ status: false, reason: 'The input does not name the species.', response: null }),
    ).toEqual({
      status: false,
      reason: 'The input does not name the species.',
      plans: [],
    });
  });

  it('fails on a malformed answer', () => {
    expectFailure(
      () => parseTreatmentPlanResult([]),
      'treatment-plan-agent',
      '',
      'for treatment-plan-agent: the answer must be an object, got array',
    );
    expectFailure(
      () => parseTreatmentPlanResult({ status: 1, reason: 'r' }),
      'treatment-plan-agent',
      'status',
      'must be true or false, got number',
    );
    expectFailure(
      () => parseTreatmentPlanResult({ status: true, reason: 'r', response: { [PLAN]: { X: 'y' } } }),
      'treatment-plan-agent',
      'response["Treatment Plan Details"].X',
      'must be an object, got string',
    );
    expectFailure(
      () =>
        parseTreatmentPlanResult({
          status: true,
          reason: 'r',
          response: { [PLAN]: { 'Hip dysplasia': { 'non-surgical_options': 12 } } },
        }),
      'treatment-plan-agent',
      'response["Treatment Plan Details"]["Hip dysplasia"]["non-surgical_options"]',
      'must be a string, got number',
    );
    expectFailure(
      () => parseTreatmentPlanResult({ status: true, reason: 'r', response: { 'Differential Diagnosis Details': {} } }),
      'treatment-plan-agent',
      'response["Treatment Plan Details"]',
      'is missing',
    );
  });
});

describe('parseMedicationResult (POST /medication_agent_v2)', () => {
  const card = {
    drug_name_and_classification: 'Meloxicam, an NSAID (oxicam)',
    indications_and_uses: 'Pain and inflammation',
    dosing_by_species: 'Dog: 0.2 mg/kg once, then 0.1 mg/kg q24h. Cat: 0.05 mg/kg once.',
    contraindications: 'Renal disease, dehydration',
  };
  it('reads the map form drug -> card, concise and summary first', () => {
    const wire = {
      status: true,
      reason: 'Drug and species given',
      response: {
        'Plain English Concise': 'Meloxicam suits this dog.',
        'Plain English Summary': 'A daily anti-inflammatory.',
        'Medication Details': { Meloxicam: card },
      },
    } as unknown as MedicationResponseWire;
    const result = parseMedicationResult(wire);
    expect(result).toMatchObject({
      status: true,
      concise: 'Meloxicam suits this dog.',
      summary: 'A daily anti-inflammatory.',
    });
    expect(result.medications).toEqual([
      {
        label: 'Meloxicam',
        drugNameAndClassification: card.drug_name_and_classification,
        indicationsAndUses: card.indications_and_uses,
        dosingBySpecies: card.dosing_by_species,
        contraindications: card.contraindications,
      },
    ]);
  });

  it('reads a single card, labelled by its drug', () => {
    const result = parseMedicationResult({ status: true, reason: '', response: { 'Medication Details': card } });
    expect(result.medications[0]?.label).toBe('Meloxicam, an NSAID (oxicam)');
  });

  it('reads a refusal by its reason', () => {
    expect(parseMedicationResult({ status: false, reason: 'Name a drug and a species.' })).toEqual({
      status: false,
      reason: 'Name a drug and a species.',
      medications: [],
    });
  });

  it('names a card member of the wrong type', () => {
    expect(() =>
      parseMedicationResult({
        status: true,
        reason: '',
        response: { 'Medication Details': { Meloxicam: { dosing_by_species: 5 } } },
      }),
    ).toThrow(/medication-agent: field "response\["Medication Details"\]\.Meloxicam\.dosing_by_species"/);
  });
});
