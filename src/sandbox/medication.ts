// The sandbox's medication agent (`POST /medication_agent_v2`, docs/service.md) and the chat and
// fast agents, from the formulary in formulary/: the drugs a small-animal clinic uses most, with
// the usual label or formulary doses for dogs and cats. The sandbox is not a clinical service,
// and every answer says so.
import { statedWeightKg } from '../shared/note/figures.ts';
import { detectSpecies, type Species } from '../shared/species.ts';
import type { ChatAgentResponseWire, MedicationResponseWire, MedicationSetWire } from '../shared/service/wire.ts';
import { answerDdx, answerTreatmentPlan, SANDBOX_NOTICE, type AgentAnswer } from './agents.ts';
import { findDrugs, FORMULARY, type Dose, type Drug, type FormularySpecies } from './formulary/index.ts';

const COVERED: readonly Species[] = ['dog', 'cat'];

const round = (n: number) => (n >= 100 ? Math.round(n) : n >= 10 ? Math.round(n * 10) / 10 : Math.round(n * 100) / 100);
const amount = (a: Dose['amount'], times = 1) =>
  typeof a === 'number' ? `${round(a * times)}` : `${round(a[0] * times)}-${round(a[1] * times)}`;

/** One dose as a vet says it: "0.1 mg/kg PO once daily", or with a weight "0.42 mg PO once daily (0.1 mg/kg)". */
function doseWords(d: Dose, species: FormularySpecies, kg: number | null): string {
  if (d.per === 'animal') return `${amount(d.amount)} ${d.unit} per ${species} ${d.how}`;
  const rate = `${amount(d.amount)} ${d.unit}/kg`;
  return kg === null ? `${rate} ${d.how}` : `${amount(d.amount, kg)} ${d.unit} ${d.how} (${rate})`;
}

/**
 * The doses for one species as a vet says them: for a weight, each dose's total first with its
 * rate after ("Meloxicam for a 4.2 kg cat: 0.42 mg PO on day 1 (0.1 mg/kg), …"); without one,
 * the rates. None for a species the drug is not for: its plain sentence says so.
 */
function doseSentence(drug: Drug, species: FormularySpecies, kg: number | null): string | null {
  const doses = drug.doses[species];
  if (typeof doses === 'string') return null;
  const name = capitalised(drug.name.toLowerCase());
  const words = doses.map((d) => doseWords(d, species, kg)).join('; ');
  return kg === null ? `${name} in ${species}s: ${words}.` : `${name} for a ${kg} kg ${species}: ${words}.`;
}

const capitalised = (s: string) => (s[0]?.toUpperCase() ?? '') + s.slice(1);

/** `POST /medication_agent_v2`: the drug card for each drug named, for the species named. */
export function answerMedication(input: string): AgentAnswer<MedicationResponseWire> {
  const species = detectSpecies(input);
  const drugs = findDrugs(input);
  if (species.length === 0) {
    return {
      status: false,
      reason: 'The question must name a species (for example dog or cat) as well as a drug.',
      response: null,
    };
  }
  if (drugs.length === 0) {
    return {
      status: false,
      reason: `No drug in the sandbox's formulary is named; it knows ${FORMULARY.map((d) => d.name.toLowerCase()).join(', ')}.`,
      response: null,
    };
  }
  const covered = species.filter((s) => COVERED.includes(s)) as ('dog' | 'cat')[];
  if (covered.length === 0) {
    return {
      status: false,
      reason: `The sandbox covers dogs and cats only; it has no doses for the ${species[0]}.`,
      response: null,
    };
  }
  const details: Record<string, MedicationSetWire> = {};
  for (const d of drugs) details[d.name] = d.card;
  const plain = drugs.flatMap((d) => covered.map((s) => d.plain[s]));
  const kg = statedWeightKg(input);
  const doses = drugs.flatMap((d) => covered.map((s) => doseSentence(d, s, kg))).filter((t) => t !== null);
  // The label is the last word on a dose; a drug that is not for the species has none to check.
  const check =
    doses.length === 0
      ? ''
      : drugs.length === 1
        ? "Check it against the product's label."
        : "Check each against its product's label.";
  return {
    status: true,
    reason: 'A drug and a species are named.',
    response: {
      'Plain English Concise': plain[0] ?? `${drugs[0]!.name} can be used in the ${covered[0]}.`,
      'Plain English Summary': [...plain, ...doses, check, SANDBOX_NOTICE].filter(Boolean).join(' '),
      'Medication Details': details,
    },
  };
}

/** `POST /chat_agent`: a short plain answer, from whichever agent the question suits. */
export function answerChat(input: string): ChatAgentResponseWire {
  const medication = answerMedication(input);
  if (medication.status) {
    return {
      status: true,
      reason: {
        'Plain English Concise': medication.response['Plain English Concise'],
        'Plain English Summary': medication.response['Plain English Summary'],
      },
    };
  }
  const ddx = answerDdx(input);
  if (ddx.status)
    return {
      status: true,
      reason: {
        'Plain English Concise': ddx.response['Plain English Concise'],
        'Plain English Summary': ddx.response['Plain English Summary'],
      },
    };
  return {
    status: false,
    reason: {
      'Plain English Concise': 'The sandbox cannot answer this question.',
      'Plain English Summary': `${ddx.reason} ${SANDBOX_NOTICE}`,
    },
  };
}

/** The fast agents: one block of text (quicker, unstructured), as published. */
export function answerFast(kind: 'ddx' | 'treatment', message: string): string {
  const answer = kind === 'ddx' ? answerDdx(message) : answerTreatmentPlan(message);
  if (!answer.status) return answer.reason;
  const details =
    kind === 'ddx'
      ? Object.keys((answer.response as { 'Differential Diagnosis Details': object })['Differential Diagnosis Details'])
      : Object.keys((answer.response as { 'Treatment Plan Details': object })['Treatment Plan Details']);
  const list = details.length > 0 ? `\n\n${details.map((d, i) => `${i + 1}. ${d}`).join('\n')}` : '';
  return `${answer.response['Plain English Concise']}${list}\n\n${answer.response['Plain English Summary']}`;
}
