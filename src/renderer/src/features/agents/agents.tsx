// The three clinical agents as their panels show them: the differential diagnosis
// (`POST /ddx_agent_v2`), the treatment plan (`POST /treatment_plan_agent_v2`) and the
// medication (`POST /medication_agent_v2`), docs/service.md. Each is a configuration of the one
// panel, agent-panel.tsx.
import { DDX_FIELDS, MEDICATION_FIELDS, TREATMENT_FIELDS } from '../../../../shared/service/fields.ts';
import type { DdxResult, MedicationResult, TreatmentPlanResult } from '../../../../shared/service/index.ts';
import { api } from '../../api.ts';
import type { AgentConfig } from './agent-config.ts';
import type { AgentCall, AgentName, AgentResults } from './agents-store.ts';
import { doseTotals, medicationDoses } from './dose-totals.tsx';
import type { CardField } from './result-cards.tsx';

type MedicationKey = (typeof MEDICATION_FIELDS)[number]['key'];

const FIRST_WIRE = 'drug_name_and_classification';
const DOSING_WIRE = 'dosing_by_species';

/** The drug's name first, its dosing by species next and set apart, then the rest in order. */
export const MEDICATION_CARD_FIELDS: readonly CardField<MedicationKey>[] = [...MEDICATION_FIELDS]
  .sort((a, b) => rank(a.wire) - rank(b.wire))
  .map((f) => ({ key: f.key, heading: f.heading, ...(f.wire === DOSING_WIRE ? { prominent: true } : {}) }));

function rank(wire: string): number {
  if (wire === FIRST_WIRE) return 0;
  return wire === DOSING_WIRE ? 1 : 2;
}

/** An agent that always answers: its reply is its result. */
function answerOf<R>(ask: (request: { input: string }) => Promise<R>): AgentCall<R>['call'] {
  return async (input) => ({ result: await ask({ input }) });
}

/** A clinical history in, candidate diagnoses out; a finished note arrives here as the panel's `prefill`. */
const DDX: AgentConfig<DdxResult> = {
  name: 'ddx',
  title: 'Differential diagnosis',
  field: {
    label: 'Clinical history',
    hint: 'Species, signalment, presenting signs, history and findings: the more detail, the better the list.',
    placeholder: 'e.g. Dog, 6 years, MN Labrador: vomiting and diarrhoea for 3 days after eating rubbish, lethargic.',
    sendLabel: 'Get differentials',
  },
  emptyProblem: 'Type or paste a clinical history first.',
  call: answerOf(api.agents.ddx),
  cards: {
    list: 'diagnoses',
    fields: DDX_FIELDS,
    heading: 'Possible diagnoses',
    fallbackTitle: 'Diagnosis',
    empty: 'The service accepted the history but listed no diagnoses. Add more detail and ask again.',
  },
};

/**
 * The input must name the species: main checks first and answers `needs_species` instead of
 * sending, and the vet chooses to add it or send anyway. A weight in the case details gives
 * each dose per kilogram its total.
 */
const TREATMENT: AgentConfig<TreatmentPlanResult> = {
  name: 'treatment',
  title: 'Treatment plan',
  field: {
    label: 'Case details',
    hint: 'Name the species (dog, cat…), and if you can the breed, age, sex, the disease of interest and history.',
    placeholder: 'e.g. Dog, 6 years, FN Cocker Spaniel: itchy ears and head shaking, otitis externa.',
    sendLabel: 'Get treatment plan',
  },
  emptyProblem: 'Type or paste the case details first.',
  call: async (input, anyway) => {
    const answer = await api.agents.treatmentPlan(anyway ? { input, allowWithoutSpecies: true } : { input });
    return answer.kind === 'needs_species' ? { warning: answer.message } : { result: answer.result };
  },
  cards: {
    list: 'plans',
    fields: TREATMENT_FIELDS,
    heading: 'Treatment plans',
    fallbackTitle: 'Plan',
    empty: 'The service accepted the case but gave no plan. Name the disease of interest and ask again.',
  },
  extras: doseTotals,
};

/**
 * A drug and a species in; one card per drug with its dosing by species set apart, the species
 * asked about first, with totals for a weight the question gives.
 */
const MEDICATION: AgentConfig<MedicationResult> = {
  name: 'medication',
  title: 'Medications',
  field: {
    label: 'Drug and species',
    hint: 'Name the drug and the species (dog, cat…); the weight or the condition helps.',
    placeholder: 'e.g. Meloxicam, dog, 20 kg, osteoarthritis',
    sendLabel: 'Look up medication',
    rows: 3,
  },
  emptyProblem: 'Type or paste the drug and the species first (for example: meloxicam, dog).',
  call: answerOf(api.agents.medication),
  cards: {
    list: 'medications',
    fields: MEDICATION_CARD_FIELDS,
    heading: 'Drugs',
    fallbackTitle: 'Drug',
    empty: "The service accepted the question but described no drug. Check the drug's name and ask again.",
  },
  extras: medicationDoses(MEDICATION_FIELDS.find((f) => f.wire === DOSING_WIRE)!.key),
};

export const AGENTS: { [A in AgentName]: AgentConfig<AgentResults[A]> } = {
  ddx: DDX,
  treatment: TREATMENT,
  medication: MEDICATION,
};
