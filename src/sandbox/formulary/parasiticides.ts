// The common parasiticides: the isoxazolines against fleas and ticks, the macrocyclic lactones,
// and the wormers. A brand that combines two of them (Stronghold Plus, Milbemax) names both.
import { mgKg, NO_WITHDRAWAL, type Drug } from './types.ts';

const WEIGHT_BAND = 'Given as the product for the weight band (one tablet or pipette), not weighed out per kilogram.';

export const PARASITICIDES: readonly Drug[] = [
  {
    name: 'Fluralaner',
    names: ['fluralaner', 'bravecto', 'bravecto plus'],
    doses: {
      dog: [mgKg([25, 56], 'PO with food (or as a spot-on) every 12 weeks')],
      cat: [mgKg([40, 94], 'as a spot-on every 12 weeks')],
    },
    plain: {
      dog: 'Fluralaner kills fleas and ticks on dogs for three months from one chewable tablet or spot-on.',
      cat: 'Fluralaner kills fleas and ticks on cats for three months as a spot-on; the chewable tablets are for dogs only.',
    },
    card: {
      drug_name_and_classification: 'Fluralaner: isoxazoline ectoparasiticide.',
      indications_and_uses:
        'Fleas and ticks for 12 weeks; demodicosis, sarcoptic mange and ear mites (off-label in some countries).',
      pharmacology_and_mechanism_of_action:
        'Blocks GABA- and glutamate-gated chloride channels of insects and acarines, which feed on the host and die.',
      dosing_by_species:
        'Dog: 25-56 mg/kg PO with food every 12 weeks (chewable tablets), or as a spot-on. Cat: 40-94 mg/kg as a spot-on every 12 weeks (Bravecto Plus adds moxidectin); the chewable tablets are for dogs only.',
      administration_and_route: `Chewable tablets with food (dogs); spot-on at the base of the skull (dogs and cats). ${WEIGHT_BAND}`,
      contraindications: 'Dogs under 8 weeks or 2 kg; cats under 11 weeks or 1.2 kg.',
      precautions_and_warnings:
        'Isoxazolines can cause neurological signs (tremor, ataxia, seizures): caution in animals with a history of seizures.',
      adverse_effects:
        'Vomiting, diarrhoea, inappetence; rarely tremor, ataxia or seizures; hair loss at the spot-on site.',
      drug_interactions: 'None significant known; highly protein-bound.',
      monitoring_parameters: 'Fleas and ticks; neurological signs.',
      overdose_information: 'Wide safety margin; supportive care for neurological signs.',
      withdrawal_times: NO_WITHDRAWAL,
      client_information:
        'Give with a meal. Ticks must bite to be killed, so check your pet after walks. The next dose is due in 12 weeks.',
      notes: 'Treat every dog and cat in the home, and the home, for a flea problem.',
    },
  },
  {
    name: 'Afoxolaner',
    names: ['afoxolaner', 'nexgard', 'nexgard spectra', 'frontline nexgard'],
    doses: {
      dog: [mgKg([2.7, 7], 'PO once a month')],
      cat: 'Afoxolaner is not for cats: its products are for dogs only; NexGard Combo for cats carries esafoxolaner.',
    },
    plain: {
      dog: 'Afoxolaner kills fleas and ticks on dogs for a month from one chewable tablet.',
      cat: 'Afoxolaner is not for cats: its products are for dogs only; NexGard Combo for cats carries esafoxolaner.',
    },
    card: {
      drug_name_and_classification: 'Afoxolaner: isoxazoline ectoparasiticide.',
      indications_and_uses:
        'Fleas and ticks in dogs for a month; demodicosis and sarcoptic mange; with milbemycin oxime (NexGard Spectra) also worms and heartworm prevention.',
      pharmacology_and_mechanism_of_action:
        'Blocks GABA-gated chloride channels of insects and acarines, which feed on the host and die.',
      dosing_by_species:
        'Dog: 2.7-7 mg/kg PO once a month (2.5 mg/kg at least in the US). Cat: not for cats; the products are for dogs only.',
      administration_and_route: `Chewable tablets, with or without food. ${WEIGHT_BAND}`,
      contraindications: 'Dogs under 8 weeks or 2 kg; cats.',
      precautions_and_warnings:
        'Isoxazolines can cause neurological signs: caution in dogs with a history of seizures.',
      adverse_effects: 'Vomiting, diarrhoea, lethargy, itching; rarely tremor, ataxia or seizures.',
      drug_interactions: 'None significant known; highly protein-bound.',
      monitoring_parameters: 'Fleas and ticks; neurological signs.',
      overdose_information: 'Wide safety margin in dogs; supportive care.',
      withdrawal_times: NO_WITHDRAWAL,
      client_information: 'Give once a month, on the same date. Check your dog for ticks after walks.',
      notes: 'For cats, choose a product licensed for cats.',
    },
  },
  {
    name: 'Sarolaner',
    names: ['sarolaner', 'simparica', 'simparica trio', 'stronghold plus', 'revolution plus'],
    doses: {
      dog: [mgKg([2, 4], 'PO once a month')],
      cat: [mgKg([1, 2], 'as a spot-on once a month, with selamectin')],
    },
    plain: {
      dog: 'Sarolaner kills fleas and ticks on dogs for a month from one chewable tablet.',
      cat: 'Sarolaner is given to cats only as a monthly spot-on combined with selamectin; the chewable tablets are for dogs only.',
    },
    card: {
      drug_name_and_classification: 'Sarolaner: isoxazoline ectoparasiticide.',
      indications_and_uses:
        'Fleas, ticks, demodicosis, sarcoptic and ear mites; with moxidectin and pyrantel (Simparica Trio) also worms and heartworm prevention in dogs.',
      pharmacology_and_mechanism_of_action:
        'Blocks GABA- and glutamate-gated chloride channels of insects and acarines, which feed on the host and die.',
      dosing_by_species:
        'Dog: 2-4 mg/kg PO once a month (chewable tablets). Cat: 1-2 mg/kg as a spot-on once a month, with 6-12 mg/kg selamectin (Stronghold Plus, Revolution Plus); the chewable tablets are for dogs only.',
      administration_and_route: `Chewable tablets with or without food (dogs); spot-on (cats). ${WEIGHT_BAND}`,
      contraindications: 'Dogs under 8 weeks or 1.3 kg; cats under 8 weeks or 1.25 kg.',
      precautions_and_warnings:
        'Isoxazolines can cause neurological signs: caution in animals with a history of seizures.',
      adverse_effects: 'Vomiting, diarrhoea; rarely tremor, ataxia or seizures; hair changes at the spot-on site.',
      drug_interactions: 'None significant known; highly protein-bound.',
      monitoring_parameters: 'Fleas and ticks; neurological signs.',
      overdose_information: 'Wide safety margin; supportive care for neurological signs.',
      withdrawal_times: NO_WITHDRAWAL,
      client_information: 'Give or apply once a month, on the same date. Check your pet for ticks after walks.',
      notes: 'Treat every pet in the home for a flea problem.',
    },
  },
  {
    name: 'Selamectin',
    names: ['selamectin', 'revolution', 'stronghold', 'stronghold plus', 'revolution plus', 'evicto', 'chanhold'],
    doses: {
      dog: [mgKg(6, 'at least, as a spot-on once a month')],
      cat: [mgKg(6, 'at least, as a spot-on once a month')],
    },
    plain: {
      dog: 'Selamectin is a monthly spot-on for dogs against fleas, ear mites, sarcoptic mange and heartworm.',
      cat: 'Selamectin is a monthly spot-on for cats against fleas, ear mites, roundworms and heartworm.',
    },
    card: {
      drug_name_and_classification: 'Selamectin: macrocyclic lactone (avermectin) endectocide.',
      indications_and_uses:
        'Fleas, ear mites, sarcoptic mange (dogs), biting lice; heartworm prevention; roundworms and hookworms (cats).',
      pharmacology_and_mechanism_of_action:
        'Opens glutamate-gated chloride channels in parasite nerves and muscles, causing paralysis; absorbed through the skin.',
      dosing_by_species:
        'Dog: 6 mg/kg at least (6-12 mg/kg by weight band) as a spot-on once a month. Cat: 6 mg/kg at least (6-12 mg/kg by weight band) as a spot-on once a month; with sarolaner in Stronghold Plus and Revolution Plus.',
      administration_and_route: `Spot-on to the skin at the base of the neck. ${WEIGHT_BAND}`,
      contraindications: 'Animals under 6 weeks (dogs) or 8 weeks (cats); sick or debilitated animals.',
      precautions_and_warnings:
        'Test for heartworm before starting in endemic areas. Safe at label doses in Collies with the ABCB1 (MDR1) mutation.',
      adverse_effects: 'Hair loss or clumping at the application site; rarely drooling or vomiting if licked.',
      drug_interactions: 'Other macrocyclic lactones at high doses in ABCB1-mutant dogs.',
      monitoring_parameters: 'Parasites; skin at the application site.',
      overdose_information: 'Wide safety margin; neurological signs possible in ABCB1-mutant dogs at high doses.',
      withdrawal_times: NO_WITHDRAWAL,
      client_information:
        'Part the fur and apply to the skin; do not bathe your pet for 2 hours. Apply once a month on the same date.',
      notes: 'Does not kill ticks reliably in dogs.',
    },
  },
  {
    name: 'Milbemycin oxime',
    names: [
      'milbemycin oxime',
      'milbemycin',
      'milbemax',
      'interceptor',
      'interceptor plus',
      'sentinel',
      'milpro',
      'program plus',
    ],
    doses: {
      dog: [mgKg(0.5, 'PO once a month, at least')],
      cat: [mgKg(2, 'PO once a month, at least')],
    },
    plain: {
      dog: 'Milbemycin oxime is a monthly tablet for dogs that prevents heartworm and clears roundworms, hookworms and whipworms.',
      cat: 'Milbemycin oxime is a tablet for cats against roundworms and hookworms, and prevents heartworm, usually combined with praziquantel.',
    },
    card: {
      drug_name_and_classification: 'Milbemycin oxime: macrocyclic lactone (milbemycin) endectocide.',
      indications_and_uses:
        'Heartworm prevention; roundworms, hookworms and whipworms (dogs); lungworm (Angiostrongylus) prevention in dogs; demodicosis (off-label, higher doses).',
      pharmacology_and_mechanism_of_action:
        'Opens glutamate-gated chloride channels in parasite nerves and muscles, causing paralysis.',
      dosing_by_species:
        'Dog: 0.5 mg/kg PO once a month at least (0.5-1 mg/kg by weight band). Cat: 2 mg/kg PO once a month at least (2-4 mg/kg by weight band), with 5 mg/kg praziquantel in the combined tablets.',
      administration_and_route: `Tablets with or after food. ${WEIGHT_BAND}`,
      contraindications: 'Puppies under 2 weeks or 0.5 kg; kittens under 6 weeks or 0.5 kg.',
      precautions_and_warnings:
        'Test for heartworm before starting in endemic areas (reactions to dying microfilariae). Label doses are safe in ABCB1 (MDR1) dogs; the higher demodicosis doses need care.',
      adverse_effects: 'Rarely vomiting, lethargy, ataxia or tremor.',
      drug_interactions: 'Other macrocyclic lactones; P-glycoprotein inhibitors (ketoconazole, ciclosporin, spinosad).',
      monitoring_parameters: 'Yearly heartworm test in endemic areas; faecal examinations.',
      overdose_information:
        'Neurological signs (ataxia, tremor, salivation), worse in ABCB1-mutant dogs: supportive care.',
      withdrawal_times: NO_WITHDRAWAL,
      client_information:
        'Give with food once a month on the same date, all year round where heartworm or lungworm is a risk.',
      notes: 'Milbemax, Milpro and Interceptor Plus also contain praziquantel against tapeworms.',
    },
  },
  {
    name: 'Praziquantel',
    names: [
      'praziquantel',
      'droncit',
      'drontal',
      'milbemax',
      'milpro',
      'interceptor plus',
      'profender',
      'cestem',
      'dronspot',
    ],
    doses: {
      dog: [mgKg(5, 'PO or SC once; repeated as the tapeworm risk needs')],
      cat: [mgKg(5, 'PO or SC once; repeated as the tapeworm risk needs')],
    },
    plain: {
      dog: 'Praziquantel clears tapeworms from dogs with one dose, usually in a combined wormer, and is repeated as the risk needs.',
      cat: 'Praziquantel clears tapeworms from cats with one tablet, injection or spot-on, usually in a combined wormer.',
    },
    card: {
      drug_name_and_classification: 'Praziquantel: isoquinoline anthelmintic (cestocide).',
      indications_and_uses: 'Tapeworms (Dipylidium, Taenia, Echinococcus, Mesocestoides); flukes (off-label).',
      pharmacology_and_mechanism_of_action:
        "Makes the tapeworm's skin permeable to calcium, causing spastic paralysis and damage that lets the host digest it.",
      dosing_by_species:
        'Dog: 5 mg/kg PO or SC once; every 4-6 weeks where Echinococcus is a risk. Cat: 5 mg/kg PO or SC once (8 mg/kg as a spot-on); repeated as the tapeworm risk needs.',
      administration_and_route: `Tablets (often with pyrantel, febantel or milbemycin), injection SC or IM, spot-on (cats). ${WEIGHT_BAND}`,
      contraindications: 'Puppies under 4 weeks; kittens under 6 weeks.',
      precautions_and_warnings: 'Treat fleas as well: Dipylidium comes back with fleas.',
      adverse_effects: 'Rarely vomiting, drooling, diarrhoea; pain at the injection site.',
      drug_interactions: 'None significant.',
      monitoring_parameters: 'Tapeworm segments around the anus or in the faeces.',
      overdose_information: 'Wide safety margin; supportive care.',
      withdrawal_times: NO_WITHDRAWAL,
      client_information:
        'Give as directed; rice-like segments near the tail mean tapeworms. Treat fleas too, as they carry tapeworm.',
      notes: 'Pet travel rules of some countries ask for a praziquantel treatment 1-5 days before entry.',
    },
  },
  {
    name: 'Fenbendazole',
    names: ['fenbendazole', 'panacur', 'safe-guard', 'safeguard'],
    doses: {
      dog: [mgKg(50, 'PO once daily for 3 days (5 days for Giardia)')],
      cat: [mgKg(50, 'PO once daily for 3 days (5 days for Giardia)')],
    },
    plain: {
      dog: 'Fenbendazole is a gentle wormer for dogs, given once a day for three days, safe for puppies and pregnant bitches.',
      cat: 'Fenbendazole is a gentle wormer for cats, given once a day for three days as granules or paste in food.',
    },
    card: {
      drug_name_and_classification: 'Fenbendazole: benzimidazole anthelmintic.',
      indications_and_uses: 'Roundworms, hookworms, whipworms, Taenia tapeworms (not Dipylidium), lungworms; Giardia.',
      pharmacology_and_mechanism_of_action:
        'Binds parasite beta-tubulin and blocks microtubule formation and glucose uptake, so the worms starve.',
      dosing_by_species:
        'Dog: 50 mg/kg PO once daily for 3 days (5 days for Giardia); in pregnant bitches 25 mg/kg once daily from day 40 of pregnancy to 2 days after whelping. Cat: 50 mg/kg PO once daily for 3 days (5 days for Giardia).',
      administration_and_route: 'Oral granules, paste, suspension or tablets, mixed with food.',
      contraindications: 'Known hypersensitivity.',
      precautions_and_warnings: 'Several days of dosing are needed: a single dose is not enough.',
      adverse_effects: 'Rarely vomiting or diarrhoea; very rarely bone marrow suppression.',
      drug_interactions: 'None significant.',
      monitoring_parameters: 'Faecal examination after treatment (Giardia: 1-2 weeks later).',
      overdose_information: 'Very wide safety margin.',
      withdrawal_times: NO_WITHDRAWAL,
      client_information:
        'Mix with food once a day for the days prescribed. For Giardia, bathe your pet at the end of treatment and clean up faeces at once.',
      notes: 'Puppies and kittens are wormed from 2 weeks of age (puppies) or 3 weeks (kittens) every 2 weeks.',
    },
  },
];
