// Pain relief: the NSAIDs and the opioids most used in small-animal practice.
import { mgKg, NO_WITHDRAWAL, type Drug } from './types.ts';

const NSAID_INTERACTIONS =
  'Other NSAIDs and corticosteroids (ulceration); diuretics and ACE inhibitors (renal perfusion); highly protein-bound drugs.';
const NSAID_WASHOUT = 'Allow a washout of at least 5-7 days when changing from another NSAID or from a corticosteroid.';

export const PAIN: readonly Drug[] = [
  {
    name: 'Meloxicam',
    names: ['meloxicam', 'metacam', 'loxicom'],
    doses: {
      dog: [mgKg(0.2, 'on the first day'), mgKg(0.1, 'PO once daily after that')],
      cat: [
        mgKg(0.3, 'SC once after surgery'),
        mgKg(0.1, 'PO on day 1'),
        mgKg(0.05, 'PO once daily after that, with monitoring'),
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
      drug_interactions: NSAID_INTERACTIONS,
      monitoring_parameters:
        'Appetite, faeces, hydration; renal and hepatic values and urine specific gravity in long-term use.',
      overdose_information:
        'Gastrointestinal ulceration and acute kidney injury: decontaminate early, gastroprotectants, IV fluids.',
      withdrawal_times: NO_WITHDRAWAL,
      client_information:
        'Give with food. Stop and call the clinic if there is vomiting, black stools or loss of appetite.',
      notes: NSAID_WASHOUT,
    },
  },
  {
    name: 'Carprofen',
    names: ['carprofen', 'rimadyl', 'carprodyl', 'novox', 'vetprofen'],
    plain: {
      dog: 'Carprofen is an anti-inflammatory pain reliever for dogs, given once or twice a day with food; check the kidneys and liver before long courses.',
      cat: 'Carprofen is given to cats once only, by injection at surgery; it is not for repeated or oral use in cats, where meloxicam or robenacoxib are used instead.',
    },
    doses: {
      dog: [mgKg(4, 'PO or SC once daily'), mgKg(2, 'PO every 12 hours instead')],
      cat: [mgKg(4, 'SC or IV once, at surgery, not repeated')],
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
      drug_interactions: NSAID_INTERACTIONS,
      monitoring_parameters: 'Appetite, faeces, hydration; liver and kidney values in long-term use.',
      overdose_information:
        'Gastrointestinal ulceration, acute kidney injury and liver damage: decontaminate early, gastroprotectants, IV fluids.',
      withdrawal_times: NO_WITHDRAWAL,
      client_information:
        'Give with food. Stop and call the clinic if there is vomiting, black stools, yellow gums or loss of appetite.',
      notes: NSAID_WASHOUT,
    },
  },
  {
    name: 'Robenacoxib',
    names: ['robenacoxib', 'onsior'],
    doses: {
      dog: [mgKg([1, 2], 'PO once daily'), mgKg(2, 'SC once daily, for up to 3 days')],
      cat: [mgKg([1, 2.4], 'PO once daily, for up to 6 days'), mgKg(2, 'SC once daily, for up to 3 days')],
    },
    plain: {
      dog: 'Robenacoxib is a short-acting anti-inflammatory pain reliever for dogs, given once a day by tablet or injection.',
      cat: 'Robenacoxib is an anti-inflammatory pain reliever licensed for cats, given once a day for a few days after surgery or an injury.',
    },
    card: {
      drug_name_and_classification:
        'Robenacoxib: non-steroidal anti-inflammatory drug (NSAID), coxib (COX-2 selective).',
      indications_and_uses:
        'Pain and inflammation of orthopaedic and soft-tissue surgery; acute musculoskeletal pain in cats; chronic osteoarthritis in dogs.',
      pharmacology_and_mechanism_of_action:
        'Selectively inhibits COX-2; short half-life in blood but it stays longer in inflamed tissue, so once-daily dosing works.',
      dosing_by_species:
        'Dog: 1-2 mg/kg PO once daily, or 2 mg/kg SC once daily for up to 3 days. Cat: 1-2.4 mg/kg PO once daily for up to 6 days, or 2 mg/kg SC once daily for up to 3 days.',
      administration_and_route:
        'Tablets without food or with a small amount of food (absorption is better fasted); injectable SC.',
      contraindications:
        'Gastrointestinal ulceration, with corticosteroids or other NSAIDs, pregnancy and lactation; dehydration or hypotension.',
      precautions_and_warnings:
        'Check renal and hepatic values in older animals and in long-term use in dogs; keep patients hydrated under anaesthesia.',
      adverse_effects: 'Vomiting, soft faeces, diarrhoea; raised liver enzymes in long-term use.',
      drug_interactions: NSAID_INTERACTIONS,
      monitoring_parameters: 'Appetite, faeces, hydration; liver enzymes and renal values in long-term use.',
      overdose_information: 'Gastrointestinal and renal injury: decontaminate early, gastroprotectants, IV fluids.',
      withdrawal_times: NO_WITHDRAWAL,
      client_information:
        'Give at the same time each day, ideally at least 30 minutes before food. Call the clinic if your pet vomits or stops eating.',
      notes: NSAID_WASHOUT,
    },
  },
  {
    name: 'Buprenorphine',
    names: ['buprenorphine', 'vetergesic', 'buprenex', 'simbadol', 'buprecare', 'bupe'],
    doses: {
      dog: [mgKg([0.01, 0.02], 'IV or IM every 6-8 hours')],
      cat: [
        mgKg([0.01, 0.03], 'IV, IM or on the gums (buccal) every 6-8 hours'),
        mgKg(0.24, 'SC once daily, for up to 3 days, with the long-acting product'),
      ],
    },
    plain: {
      dog: 'Buprenorphine is an opioid for mild to moderate pain in dogs, given by injection every six to eight hours.',
      cat: 'Buprenorphine is one of the most useful pain relievers for cats: it can be given by injection or dripped onto the gums at home.',
    },
    card: {
      drug_name_and_classification: 'Buprenorphine: partial mu-opioid agonist (controlled drug).',
      indications_and_uses: 'Mild to moderate pain, perioperative analgesia; premedication with a sedative.',
      pharmacology_and_mechanism_of_action:
        'Binds mu-opioid receptors with high affinity and slow release: slow onset (30-45 minutes), long action, ceiling effect.',
      dosing_by_species:
        'Dog: 0.01-0.02 mg/kg IV or IM every 6-8 hours. Cat: 0.01-0.03 mg/kg IV, IM or buccal every 6-8 hours; the long-acting product 0.24 mg/kg SC once daily for up to 3 days.',
      administration_and_route:
        'Injectable IV, IM or SC (SC absorption of the standard product is poor); buccal (oral transmucosal) in cats.',
      contraindications: 'Known hypersensitivity; head trauma with raised intracranial pressure (relative).',
      precautions_and_warnings:
        'Its high receptor affinity makes a full agonist given later less effective; reversal with naloxone may need high doses.',
      adverse_effects: 'Sedation, mild respiratory depression, mydriasis and euphoria in cats; rarely hyperthermia.',
      drug_interactions:
        'Additive sedation with other sedatives and anaesthetics; reduces the effect of full mu agonists.',
      monitoring_parameters: 'Pain scores, sedation, respiratory rate, temperature in cats.',
      overdose_information: 'Sedation and respiratory depression: supportive care; naloxone at high doses.',
      withdrawal_times: NO_WITHDRAWAL,
      client_information:
        'Drip the measured dose onto the gums or inside the cheek; do not give more often than told. Keep it locked away.',
      notes: 'A controlled drug: record every dose given and dispensed.',
    },
  },
  {
    name: 'Methadone',
    names: ['methadone', 'comfortan', 'synthadon', 'methone'],
    doses: {
      dog: [mgKg([0.1, 0.5], 'IV or IM every 4-6 hours')],
      cat: [mgKg([0.1, 0.3], 'IV or IM every 4-6 hours')],
    },
    plain: {
      dog: 'Methadone is a strong opioid for moderate to severe pain in dogs, given by injection in the clinic every four to six hours.',
      cat: 'Methadone is a strong opioid for moderate to severe pain in cats, given by injection in the clinic, at a lower dose than in dogs.',
    },
    card: {
      drug_name_and_classification: 'Methadone: full mu-opioid agonist, NMDA antagonist (controlled drug).',
      indications_and_uses: 'Moderate to severe pain; premedication and perioperative analgesia.',
      pharmacology_and_mechanism_of_action:
        'Full agonist at mu-opioid receptors; also blocks NMDA receptors, which may help against wind-up pain.',
      dosing_by_species: 'Dog: 0.1-0.5 mg/kg IV or IM every 4-6 hours. Cat: 0.1-0.3 mg/kg IV or IM every 4-6 hours.',
      administration_and_route: 'Injectable IV (slowly) or IM; SC absorption is unreliable.',
      contraindications: 'Respiratory depression; head trauma with raised intracranial pressure (relative).',
      precautions_and_warnings: 'Titrate to effect in sick or old animals; vomiting is less common than with morphine.',
      adverse_effects:
        'Sedation, respiratory depression, bradycardia, panting in dogs; mydriasis and excitement in cats.',
      drug_interactions:
        'Additive depression with other sedatives and anaesthetics; partial agonists reduce its effect.',
      monitoring_parameters: 'Pain scores, sedation, heart and respiratory rates.',
      overdose_information: 'Respiratory depression and sedation: naloxone, ventilatory support.',
      withdrawal_times: NO_WITHDRAWAL,
      client_information: 'Used in the clinic only; your pet may be sleepy for some hours.',
      notes: 'A controlled drug: record every dose given.',
    },
  },
];
