// Sedation, calming before a visit, chronic-pain adjuncts and the antiemetic.
import { each, mgKg, NO_WITHDRAWAL, ugKg, type Drug } from './types.ts';

export const CALMING: readonly Drug[] = [
  {
    name: 'Gabapentin',
    names: ['gabapentin', 'neurontin'],
    doses: {
      dog: [mgKg([5, 10], 'PO every 8-12 hours for pain')],
      cat: [mgKg([5, 10], 'PO every 12 hours for pain'), each([50, 100], 'mg', 'PO 1-2 hours before a visit')],
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
      withdrawal_times: NO_WITHDRAWAL,
      client_information: 'Your pet may be sleepy or unsteady at first; this usually eases within days.',
      notes: 'Cats given it before a visit should be confined at home until the effect wears off.',
    },
  },
  {
    name: 'Trazodone',
    names: ['trazodone', 'desyrel'],
    doses: {
      dog: [mgKg([3, 5], 'PO 1-2 hours before a stressful event, or every 8-12 hours'), mgKg(7, 'PO at most per dose')],
      cat: [each([50, 100], 'mg', 'PO 1-2 hours before a visit or a car journey')],
    },
    plain: {
      dog: 'Trazodone calms anxious dogs before a visit, a journey or fireworks, and helps dogs kept quiet after surgery; it takes about an hour to work.',
      cat: 'Trazodone can calm cats before a vet visit or a journey, given as a single dose an hour or two before.',
    },
    card: {
      drug_name_and_classification:
        'Trazodone: serotonin antagonist and reuptake inhibitor (SARI), anxiolytic (off-label in animals).',
      indications_and_uses:
        'Situational anxiety (visits, travel, noise), calm during cage rest after orthopaedic surgery; adjunct in behaviour therapy.',
      pharmacology_and_mechanism_of_action:
        'Blocks 5-HT2A receptors and serotonin reuptake; sedative through alpha-1 and H1 receptor block.',
      dosing_by_species:
        'Dog: 3-5 mg/kg PO 1-2 hours before a stressful event, or every 8-12 hours; start low and raise to effect, up to 7 mg/kg per dose. Cat: 50-100 mg per cat PO 1-2 hours before a visit or journey.',
      administration_and_route: 'Oral tablets, with or without food; a test dose at home before the event is wise.',
      contraindications: 'With monoamine oxidase inhibitors (selegiline, amitraz) or within two weeks of them.',
      precautions_and_warnings:
        'Risk of serotonin syndrome with other serotonergic drugs (fluoxetine, clomipramine, tramadol); caution in heart, liver or kidney disease.',
      adverse_effects: 'Sedation, ataxia, vomiting; rarely paradoxical excitement or increased anxiety.',
      drug_interactions: 'SSRIs, tricyclics, tramadol, MAOIs (serotonin syndrome); additive sedation.',
      monitoring_parameters: 'Sedation and behaviour; heart rate.',
      overdose_information:
        'Sedation, ataxia, vomiting; serotonin syndrome (tremor, hyperthermia, agitation): supportive care, cyproheptadine.',
      withdrawal_times: NO_WITHDRAWAL,
      client_information:
        'Give one to two hours before the visit or journey. Your pet may be sleepy; call the clinic if it seems agitated or trembles.',
      notes: 'Works best as part of a plan that also reduces the fear itself.',
    },
  },
  {
    name: 'Dexmedetomidine',
    names: ['dexmedetomidine', 'dexdomitor', 'dexdor', 'sileo', 'dex-med'],
    doses: {
      dog: [ugKg([2, 5], 'IV or IM as premedication, with an opioid'), ugKg([5, 10], 'IM for sedation')],
      cat: [ugKg([5, 15], 'IM as premedication, with an opioid'), ugKg(40, 'IM for sedation')],
    },
    plain: {
      dog: 'Dexmedetomidine is a sedative and pain reliever given by injection for procedures and before anaesthesia, and it can be reversed afterwards.',
      cat: 'Dexmedetomidine sedates cats reliably for handling and procedures, usually with an opioid, and can be reversed afterwards.',
    },
    card: {
      drug_name_and_classification: 'Dexmedetomidine: alpha-2 adrenoceptor agonist, sedative and analgesic.',
      indications_and_uses:
        'Sedation for handling and minor procedures; premedication before general anaesthesia; noise aversion in dogs (oromucosal gel).',
      pharmacology_and_mechanism_of_action:
        'Stimulates alpha-2 adrenoceptors in the brain and spinal cord, reducing noradrenaline release: sedation, analgesia, muscle relaxation.',
      dosing_by_species:
        'Dog: 2-5 µg/kg IV or IM as premedication with an opioid; 5-10 µg/kg IM for sedation (label 375 µg/m² IV or 500 µg/m² IM). Cat: 5-15 µg/kg IM as premedication with an opioid; up to 40 µg/kg IM for sedation.',
      administration_and_route:
        'Injectable IV or IM; oromucosal gel for dogs with noise aversion. Reversed with atipamezole IM.',
      contraindications:
        'Cardiovascular disease, severe systemic disease, liver or kidney failure, shock; late pregnancy.',
      precautions_and_warnings:
        'Expect bradycardia and a rise then fall in blood pressure; give oxygen and monitor; lower the anaesthetic doses that follow.',
      adverse_effects: 'Bradycardia, arrhythmias, vomiting (especially cats), pale mucous membranes, hypothermia.',
      drug_interactions:
        'Reduces the dose of induction and maintenance anaesthetics needed; additive with opioids; avoid with anticholinergics to treat the bradycardia.',
      monitoring_parameters: 'Heart rate and rhythm, blood pressure, respiratory rate, oxygen saturation, temperature.',
      overdose_information: 'Profound sedation and bradycardia: reverse with atipamezole, oxygen, warmth.',
      withdrawal_times: NO_WITHDRAWAL,
      client_information:
        'Your pet may be drowsy for some hours after going home; offer a small meal once it is fully awake.',
      notes: 'Doses fall with age and illness: use the lower end, or choose another sedative, in sick patients.',
    },
  },
  {
    name: 'Acepromazine',
    names: ['acepromazine', 'acp', 'acepromazine maleate', 'promace', 'acecare', 'calmivet'],
    doses: {
      dog: [mgKg([0.01, 0.05], 'IV, IM or SC as premedication'), mgKg([1, 3], 'PO for sedation')],
      cat: [mgKg([0.02, 0.05], 'IV, IM or SC as premedication'), mgKg([1, 3], 'PO for sedation')],
    },
    plain: {
      dog: 'Acepromazine is a long-acting tranquilliser used before anaesthesia; it does not relieve pain and can lower blood pressure.',
      cat: 'Acepromazine is a mild tranquilliser in cats, mostly used with an opioid before anaesthesia; on its own it calms cats little.',
    },
    card: {
      drug_name_and_classification: 'Acepromazine maleate: phenothiazine tranquilliser.',
      indications_and_uses:
        'Premedication before anaesthesia (with an opioid); mild sedation; antiemetic before opioids.',
      pharmacology_and_mechanism_of_action:
        'Blocks dopamine D2 receptors in the brain; alpha-1 block causes vasodilation and a fall in blood pressure.',
      dosing_by_species:
        'Dog: 0.01-0.05 mg/kg IV, IM or SC as premedication (total no more than 3 mg); 1-3 mg/kg PO for sedation. Cat: 0.02-0.05 mg/kg IV, IM or SC as premedication; 1-3 mg/kg PO for sedation.',
      administration_and_route: 'Injectable IV, IM or SC; oral tablets (slow and variable effect).',
      contraindications:
        'Hypovolaemia, shock, hypotension, severe liver disease; sedation of fearful or aggressive animals on its own; not reversible.',
      precautions_and_warnings:
        'Giant breeds, sighthounds and Boxers (syncope) need low doses; ABCB1 (MDR1) mutation dogs such as Collies are more sensitive.',
      adverse_effects: 'Hypotension, hypothermia, prolonged sedation, protrusion of the third eyelid, penile prolapse.',
      drug_interactions: 'Additive with opioids, anaesthetics and antihypertensives.',
      monitoring_parameters: 'Blood pressure, temperature, heart rate, depth of sedation.',
      overdose_information: 'Hypotension and hypothermia: IV fluids, warmth; no reversal agent.',
      withdrawal_times: NO_WITHDRAWAL,
      client_information: 'Your pet may be sleepy for 6-8 hours and its third eyelid may show; keep it warm and quiet.',
      notes: 'No longer recommended on its own for noise phobia: it sedates without easing the fear.',
    },
  },
  {
    name: 'Maropitant',
    names: ['maropitant', 'cerenia', 'prevomax', 'vetemex'],
    doses: {
      dog: [mgKg(1, 'SC or IV once daily'), mgKg(2, 'PO once daily for up to 5 days')],
      cat: [mgKg(1, 'SC, IV or PO once daily for up to 5 days')],
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
      withdrawal_times: NO_WITHDRAWAL,
      client_information:
        'Give the tablet whole, once a day, with a little food, about an hour before a journey for travel sickness.',
      notes: 'Does not treat the cause: a pet that keeps vomiting needs to be seen again.',
    },
  },
];
