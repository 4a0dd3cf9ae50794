// The sandbox's medication agent (`POST /medication_agent_v2`, docs/service.md) and the chat and
// fast agents, from a small formulary of drugs common in small-animal practice. Doses are the
// usual label or formulary figures for dogs and cats; the sandbox is not a clinical service,
// and every answer says so.
import { statedWeightKg } from '../shared/note/figures.ts';
import { detectSpecies, type Species } from '../shared/species.ts';
import type { ChatAgentResponseWire, MedicationResponseWire, MedicationSetWire } from '../shared/service/wire.ts';
import { answerDdx, answerTreatmentPlan, SANDBOX_NOTICE, type AgentAnswer } from './agents.ts';

interface Drug {
  name: string;
  /** Words that name the drug in a question (lowercase). */
  names: readonly string[];
  card: MedicationSetWire;
  /** One plain sentence per species covered. */
  plain: Partial<Record<'dog' | 'cat', string>>;
  /** The card's doses per kilogram as figures, for the summary's totals at the weight asked about. */
  doses: Record<'dog' | 'cat', readonly Dose[]>;
}

/** One dose per kilogram (or a range) and when it is given: "PO once daily". */
type Dose = readonly [mgPerKg: number | readonly [number, number], how: string];

const FORMULARY: readonly Drug[] = [
  {
    name: 'Meloxicam',
    names: ['meloxicam', 'metacam'],
    doses: {
      dog: [
        [0.2, 'on the first day'],
        [0.1, 'PO once daily after that'],
      ],
      cat: [
        [0.3, 'SC once after surgery'],
        [0.1, 'PO on day 1'],
        [0.05, 'PO once daily after that, with monitoring'],
      ],
    },
    plain: {
      dog: 'Meloxicam is an anti-inflammatory pain reliever given once a day with food; dogs usually tolerate it well if they are well hydrated and their kidneys are healthy.',
      cat: 'Meloxicam can be used in cats at a much lower dose than in dogs, for short courses or carefully monitored long-term use, because cats are more sensitive to its effects on the kidneys.',
    },
    card: {
      drug_name_and_classification:
        'Meloxicam: non-steroidal anti-inflammatory drug (NSAID), preferential COX-2 inhibitor (oxicam).',
      indications_and_uses:
        'Pain and inflammation in acute and chronic musculoskeletal disorders, including osteoarthritis; post-operative pain.',
      pharmacology_and_mechanism_of_action:
        'Inhibits cyclo-oxygenase, reducing prostaglandin synthesis; long half-life allows once-daily dosing.',
      dosing_by_species:
        'Dog: 0.2 mg/kg PO, SC or IV once on the first day, then 0.1 mg/kg PO once daily. Cat: 0.3 mg/kg SC once (post-operative), or 0.1 mg/kg PO on day 1 then 0.05 mg/kg PO once daily (chronic use, with monitoring).',
      administration_and_route: 'Oral suspension or tablets with food; injectable SC or IV.',
      contraindications:
        'Dehydration, hypovolaemia, hypotension, renal or hepatic disease, gastrointestinal ulceration or bleeding; with corticosteroids or other NSAIDs; pregnancy and lactation.',
      precautions_and_warnings:
        'Use the lowest effective dose; check renal values before and during long-term use, especially in cats and older animals.',
      adverse_effects: 'Vomiting, diarrhoea, inappetence, melaena; rarely renal or hepatic toxicity.',
      drug_interactions:
        'Other NSAIDs and corticosteroids (ulceration); diuretics and ACE inhibitors (renal perfusion); highly protein-bound drugs.',
      monitoring_parameters:
        'Appetite, faeces, hydration; renal and hepatic values and urine specific gravity in long-term use.',
      overdose_information:
        'Gastrointestinal ulceration and acute kidney injury: decontaminate early, gastroprotectants, IV fluids.',
      withdrawal_times: 'Not applicable to companion animals.',
      client_information:
        'Give with food. Stop and call the clinic if there is vomiting, black stools or loss of appetite.',
      notes: 'Allow a washout of at least 5-7 days when changing from another NSAID or from a corticosteroid.',
    },
  },
  {
    name: 'Amoxicillin-clavulanate',
    names: [
      'amoxicillin-clavulanate',
      'amoxicillin clavulanate',
      'amoxicillin/clavulanate',
      'amoxiclav',
      'co-amoxiclav',
      'clavamox',
      'synulox',
      'amoxicillin',
    ],
    doses: {
      dog: [[[12.5, 25], 'PO every 12 hours']],
      cat: [[[12.5, 25], 'PO every 12 hours']],
    },
    plain: {
      dog: 'Amoxicillin-clavulanate is a broad-spectrum antibiotic given to dogs twice a day; it is well tolerated, though it can upset the stomach.',
      cat: 'Amoxicillin-clavulanate is a broad-spectrum antibiotic that suits cats well, given twice a day, best with a little food.',
    },
    card: {
      drug_name_and_classification: 'Amoxicillin-clavulanate: aminopenicillin with a beta-lactamase inhibitor.',
      indications_and_uses:
        'Skin and soft-tissue infections, urinary tract infections, respiratory and dental infections caused by susceptible bacteria.',
      pharmacology_and_mechanism_of_action:
        'Amoxicillin inhibits bacterial cell-wall synthesis; clavulanic acid protects it from beta-lactamases.',
      dosing_by_species:
        'Dog: 12.5-25 mg/kg PO every 12 hours. Cat: 12.5-25 mg/kg PO every 12 hours (62.5 mg per cat twice daily is common).',
      administration_and_route:
        'Oral tablets or drops, with food to reduce gastrointestinal upset; injectable forms exist.',
      contraindications: 'Known penicillin hypersensitivity; not for rabbits, guinea pigs, hamsters or gerbils.',
      precautions_and_warnings: 'Use on a culture and sensitivity result where possible; complete the course.',
      adverse_effects: 'Vomiting, diarrhoea, inappetence; rarely hypersensitivity reactions.',
      drug_interactions: 'Bacteriostatic antibiotics may reduce its effect.',
      monitoring_parameters: 'Clinical response; gastrointestinal signs.',
      overdose_information: 'Mainly gastrointestinal signs; supportive care.',
      withdrawal_times: 'Not applicable to companion animals.',
      client_information: 'Give every 12 hours with food until the course is finished, even if your pet seems better.',
      notes: 'Keep drops refrigerated after reconstitution and discard after 10 days.',
    },
  },
  {
    name: 'Maropitant',
    names: ['maropitant', 'cerenia'],
    doses: {
      dog: [
        [1, 'SC or IV once daily'],
        [2, 'PO once daily for up to 5 days'],
      ],
      cat: [[1, 'SC, IV or PO once daily for up to 5 days']],
    },
    plain: {
      dog: 'Maropitant stops vomiting and nausea in dogs and is given once a day, by injection in the clinic or as tablets at home.',
      cat: 'Maropitant stops vomiting in cats and is given once a day, by injection or tablet.',
    },
    card: {
      drug_name_and_classification: 'Maropitant citrate: neurokinin-1 (NK1) receptor antagonist, antiemetic.',
      indications_and_uses: 'Prevention and treatment of vomiting; prevention of motion sickness in dogs.',
      pharmacology_and_mechanism_of_action:
        'Blocks substance P at NK1 receptors in the vomiting centre and chemoreceptor trigger zone.',
      dosing_by_species:
        'Dog: 1 mg/kg SC or IV once daily, or 2 mg/kg PO once daily for up to 5 days; 8 mg/kg PO for motion sickness. Cat: 1 mg/kg SC, IV or PO once daily for up to 5 days.',
      administration_and_route:
        'SC injection (may sting; refrigerated product stings less) or oral tablets with a small amount of food.',
      contraindications:
        'Gastrointestinal obstruction or toxin ingestion where vomiting should not be masked; puppies under 8 weeks (injection) or 16 weeks (tablets).',
      precautions_and_warnings: 'Treat the cause of the vomiting; use with care in hepatic disease.',
      adverse_effects: 'Pain at the injection site; hypersalivation; rarely lethargy.',
      drug_interactions: 'Highly protein-bound drugs; calcium-channel blockers.',
      monitoring_parameters: 'Frequency of vomiting, hydration, appetite.',
      overdose_information: 'Well tolerated; supportive care.',
      withdrawal_times: 'Not applicable to companion animals.',
      client_information:
        'Give the tablet whole, once a day, with a little food, about an hour before a journey for travel sickness.',
      notes: 'Does not treat the cause: a pet that keeps vomiting needs to be seen again.',
    },
  },
  {
    name: 'Gabapentin',
    names: ['gabapentin', 'neurontin'],
    doses: {
      dog: [[[5, 10], 'PO every 8-12 hours for pain']],
      cat: [[[5, 10], 'PO every 12 hours for pain']],
    },
    plain: {
      dog: 'Gabapentin helps long-lasting and nerve pain and is often added to other pain relief; it can make dogs sleepy at first.',
      cat: 'Gabapentin is widely used in cats to calm them before vet visits and for chronic pain; it can make them sleepy and wobbly for a few hours.',
    },
    card: {
      drug_name_and_classification: 'Gabapentin: gabapentinoid, anticonvulsant and analgesic (off-label in animals).',
      indications_and_uses:
        'Chronic and neuropathic pain, adjunct in osteoarthritis; pre-visit anxiolysis in cats; adjunct anticonvulsant.',
      pharmacology_and_mechanism_of_action:
        'Binds the alpha-2-delta subunit of voltage-gated calcium channels, reducing excitatory neurotransmitter release.',
      dosing_by_species:
        'Dog: 5-10 mg/kg PO every 8-12 hours (pain), up to 20 mg/kg. Cat: 5-10 mg/kg PO every 12 hours (pain); 50-100 mg per cat PO 1-2 hours before a visit (anxiolysis).',
      administration_and_route:
        'Oral capsules, tablets or compounded liquid; avoid human liquid products containing xylitol (dogs).',
      contraindications: 'Known hypersensitivity.',
      precautions_and_warnings: 'Reduce the dose in renal impairment; taper rather than stop suddenly after long use.',
      adverse_effects: 'Sedation, ataxia.',
      drug_interactions: 'Antacids reduce absorption; additive sedation with opioids and other sedatives.',
      monitoring_parameters: 'Sedation, mobility, pain scores.',
      overdose_information: 'Sedation and ataxia; supportive care.',
      withdrawal_times: 'Not applicable to companion animals.',
      client_information: 'Your pet may be sleepy or unsteady at first; this usually eases within days.',
      notes: 'Cats given it before a visit should be confined at home until the effect wears off.',
    },
  },
  {
    name: 'Prednisolone',
    names: ['prednisolone', 'prednisone', 'pred'],
    doses: {
      dog: [
        [[0.5, 1], 'PO once daily to calm inflammation'],
        [2, 'a day to suppress the immune system, then tapered'],
      ],
      cat: [
        [[1, 2], 'PO once daily to calm inflammation'],
        [[2, 4], 'a day to suppress the immune system, then tapered'],
      ],
    },
    plain: {
      dog: 'Prednisolone is a steroid that calms inflammation and allergy at low doses and the immune system at higher doses; dogs drink, eat and urinate more while on it.',
      cat: 'Prednisolone is a steroid that cats tolerate well; it calms inflammation and allergy, and cats need prednisolone rather than prednisone.',
    },
    card: {
      drug_name_and_classification: 'Prednisolone: glucocorticoid (intermediate-acting corticosteroid).',
      indications_and_uses:
        'Allergic and inflammatory disease, immune-mediated disease, some cancers (lymphoma), hypoadrenocorticism (with a mineralocorticoid).',
      pharmacology_and_mechanism_of_action:
        'Binds glucocorticoid receptors, suppressing inflammatory and immune gene expression.',
      dosing_by_species:
        'Dog: 0.5-1 mg/kg PO once daily (anti-inflammatory); 2 mg/kg/day (immunosuppressive), then tapered. Cat: 1-2 mg/kg PO once daily (anti-inflammatory); 2-4 mg/kg/day (immunosuppressive), then tapered.',
      administration_and_route: 'Oral tablets with food, in the morning for dogs and in the evening for cats.',
      contraindications:
        'Systemic fungal infections, gastrointestinal ulceration, with NSAIDs; diabetes mellitus (relative).',
      precautions_and_warnings: 'Taper after more than 2 weeks of use; may unmask diabetes, especially in cats.',
      adverse_effects:
        'Polyuria, polydipsia, polyphagia, panting, muscle wasting; iatrogenic hyperadrenocorticism in long use.',
      drug_interactions: 'NSAIDs (ulceration), insulin (higher need), diuretics (hypokalaemia).',
      monitoring_parameters: 'Water intake, appetite, weight, glucose in cats, urine for infection in long use.',
      overdose_information: 'Acute overdose rarely serious; long use leads to hyperadrenocorticism.',
      withdrawal_times: 'Not applicable to companion animals.',
      client_information: 'Do not stop suddenly; your pet will drink and urinate more and may be hungrier while on it.',
      notes: 'Cats convert prednisone poorly: use prednisolone.',
    },
  },
  {
    name: 'Carprofen',
    names: ['carprofen', 'rimadyl', 'carprodyl'],
    plain: {
      dog: 'Carprofen is an anti-inflammatory pain reliever for dogs, given once or twice a day with food; check the kidneys and liver before long courses.',
      cat: 'Carprofen is given to cats once only, by injection at surgery; it is not for repeated or oral use in cats, where meloxicam or robenacoxib are used instead.',
    },
    doses: {
      dog: [
        [4, 'PO or SC once daily'],
        [2, 'PO every 12 hours instead'],
      ],
      cat: [[4, 'SC or IV once, at surgery, not repeated']],
    },
    card: {
      drug_name_and_classification:
        'Carprofen: non-steroidal anti-inflammatory drug (NSAID), propionic acid derivative.',
      indications_and_uses:
        'Pain and inflammation of osteoarthritis and other musculoskeletal disorders in dogs; post-operative pain in dogs and, as a single injection, in cats.',
      pharmacology_and_mechanism_of_action:
        'Inhibits cyclo-oxygenase, preferentially COX-2, reducing prostaglandin synthesis.',
      dosing_by_species:
        'Dog: 4 mg/kg PO or SC once daily, or 2 mg/kg PO every 12 hours. Cat: 4 mg/kg SC or IV once, at surgery; not repeated and not given by mouth.',
      administration_and_route: 'Tablets (chewable or plain) with food; injectable SC or IV.',
      contraindications:
        'Dehydration, hypovolaemia, renal, hepatic or cardiac disease, gastrointestinal ulceration or bleeding; with corticosteroids or other NSAIDs; repeated dosing in cats.',
      precautions_and_warnings:
        'Check renal and hepatic values before and during long-term use; idiosyncratic hepatotoxicity is reported in dogs, Labradors among them.',
      adverse_effects: 'Vomiting, diarrhoea, inappetence, melaena; rarely hepatic or renal toxicity.',
      drug_interactions:
        'Other NSAIDs and corticosteroids (ulceration); diuretics and ACE inhibitors (renal perfusion); highly protein-bound drugs.',
      monitoring_parameters: 'Appetite, faeces, hydration; liver and kidney values in long-term use.',
      overdose_information:
        'Gastrointestinal ulceration, acute kidney injury and liver damage: decontaminate early, gastroprotectants, IV fluids.',
      withdrawal_times: 'Not applicable to companion animals.',
      client_information:
        'Give with food. Stop and call the clinic if there is vomiting, black stools, yellow gums or loss of appetite.',
      notes: 'Allow a washout of at least 5-7 days when changing from another NSAID or from a corticosteroid.',
    },
  },
];

function findDrugs(text: string): Drug[] {
  const lower = ` ${text.toLowerCase().replace(/[^a-z/\- ]+/g, ' ')} `;
  return FORMULARY.filter((d) => d.names.some((n) => lower.includes(` ${n} `) || lower.includes(` ${n}s `)));
}

const COVERED: readonly Species[] = ['dog', 'cat'];

const round = (n: number) => (n >= 100 ? Math.round(n) : n >= 10 ? Math.round(n * 10) / 10 : Math.round(n * 100) / 100);
const perKg = (mg: Dose[0]) => (typeof mg === 'number' ? `${mg}` : `${mg[0]}-${mg[1]}`);
const forWeight = (mg: Dose[0], kg: number) =>
  typeof mg === 'number' ? `${round(mg * kg)}` : `${round(mg[0] * kg)}-${round(mg[1] * kg)}`;

/**
 * The doses for one species as a vet says them: for a weight, each dose's total first with its
 * rate after ("For a 4.2 kg cat: 0.42 mg PO on day 1 (0.1 mg/kg), …"); without one, the rates.
 */
function doseSentence(drug: Drug, species: 'dog' | 'cat', kg: number | null): string {
  const doses = drug.doses[species];
  const name = drug.name.toLowerCase();
  if (kg === null)
    return `${capitalised(name)} in ${species}s: ${doses.map(([mg, how]) => `${perKg(mg)} mg/kg ${how}`).join('; ')}.`;
  return `${capitalised(name)} for a ${kg} kg ${species}: ${doses
    .map(([mg, how]) => `${forWeight(mg, kg)} mg ${how} (${perKg(mg)} mg/kg)`)
    .join('; ')}.`;
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
  const plain = drugs.flatMap((d) => covered.map((s) => d.plain[s]).filter((t): t is string => t !== undefined));
  const kg = statedWeightKg(input);
  const doses = drugs.flatMap((d) => covered.map((s) => doseSentence(d, s, kg)));
  return {
    status: true,
    reason: 'A drug and a species are named.',
    response: {
      'Plain English Concise': plain[0] ?? `${drugs[0]!.name} can be used in the ${covered[0]}.`,
      'Plain English Summary': `${plain.join(' ')} ${doses.join(' ')} Check it against the product's label. ${SANDBOX_NOTICE}`,
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
