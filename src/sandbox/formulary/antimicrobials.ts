// The antibiotics most prescribed in small-animal practice.
import { mgKg, NO_WITHDRAWAL, type Drug } from './types.ts';

export const ANTIMICROBIALS: readonly Drug[] = [
  {
    name: 'Amoxicillin-clavulanate',
    names: [
      'amoxicillin-clavulanate',
      'amoxicillin clavulanate',
      'amoxicillin/clavulanate',
      'amoxicillin-clavulanic acid',
      'amoxiclav',
      'co-amoxiclav',
      'clavamox',
      'synulox',
      'clavaseptin',
      'noroclav',
      'amoxicillin',
    ],
    doses: {
      dog: [mgKg([12.5, 25], 'PO every 12 hours')],
      cat: [mgKg([12.5, 25], 'PO every 12 hours')],
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
      withdrawal_times: NO_WITHDRAWAL,
      client_information: 'Give every 12 hours with food until the course is finished, even if your pet seems better.',
      notes: 'Keep drops refrigerated after reconstitution and discard after 10 days.',
    },
  },
  {
    name: 'Cefovecin',
    names: ['cefovecin', 'convenia'],
    doses: {
      dog: [mgKg(8, 'SC once; repeated once after 14 days if needed')],
      cat: [mgKg(8, 'SC once; repeated once after 14 days if needed')],
    },
    plain: {
      dog: 'Cefovecin is a long-acting antibiotic injection that lasts about two weeks, for dogs that cannot be given tablets.',
      cat: 'Cefovecin is a single antibiotic injection that lasts about two weeks, which suits cats that are hard to pill.',
    },
    card: {
      drug_name_and_classification:
        'Cefovecin sodium: third-generation cephalosporin, long-acting (critically important antimicrobial).',
      indications_and_uses:
        'Skin and soft-tissue infections (wounds, abscesses, pyoderma), urinary tract infections; periodontal infection in dogs; where oral treatment is not possible.',
      pharmacology_and_mechanism_of_action:
        'Inhibits bacterial cell-wall synthesis; very high protein binding gives a half-life of about 5 days in dogs and 7 days in cats, so one dose lasts 14 days.',
      dosing_by_species:
        'Dog: 8 mg/kg SC once; repeated once after 14 days if needed. Cat: 8 mg/kg SC once; repeated once after 14 days if needed.',
      administration_and_route:
        'Injectable SC only; the reconstituted vial is kept refrigerated and used within 28 days.',
      contraindications:
        'Known cephalosporin or penicillin hypersensitivity; animals under 8 weeks; guinea pigs and rabbits.',
      precautions_and_warnings:
        'A critically important antimicrobial: keep for cases where culture shows it is needed or oral treatment is impossible. Its effect cannot be stopped once given.',
      adverse_effects:
        'Vomiting, diarrhoea, lethargy; rarely hypersensitivity reactions or pain at the injection site.',
      drug_interactions: 'Other highly protein-bound drugs (furosemide, NSAIDs, ketoconazole) may compete for binding.',
      monitoring_parameters: 'Clinical response at 7-14 days; signs of hypersensitivity.',
      overdose_information: 'Well tolerated; supportive care.',
      withdrawal_times: NO_WITHDRAWAL,
      client_information: 'One injection treats for about two weeks; bring your pet back if it is not better by then.',
      notes: 'Antibiotic stewardship guidelines place it after first-line antibiotics.',
    },
  },
  {
    name: 'Doxycycline',
    names: ['doxycycline', 'vibravet', 'ronaxan', 'doxybactin', 'doxycare', 'vibramycin'],
    doses: {
      dog: [mgKg(10, 'PO once daily'), mgKg(5, 'PO every 12 hours instead')],
      cat: [mgKg(10, 'PO once daily'), mgKg(5, 'PO every 12 hours instead')],
    },
    plain: {
      dog: 'Doxycycline is an antibiotic for tick-borne and respiratory infections in dogs, given once or twice a day with food.',
      cat: 'Doxycycline treats respiratory and eye infections in cats; each tablet must be followed by water or food so it does not stick in the gullet.',
    },
    card: {
      drug_name_and_classification: 'Doxycycline: tetracycline antibiotic.',
      indications_and_uses:
        'Respiratory infections (Bordetella, Mycoplasma, Chlamydia), tick-borne diseases (Ehrlichia, Anaplasma, Borrelia), Wolbachia before heartworm adulticide treatment.',
      pharmacology_and_mechanism_of_action:
        'Binds the 30S ribosomal subunit and stops bacterial protein synthesis (bacteriostatic); lipid soluble, reaching tissues and cells well.',
      dosing_by_species:
        'Dog: 10 mg/kg PO once daily, or 5 mg/kg PO every 12 hours. Cat: 10 mg/kg PO once daily, or 5 mg/kg PO every 12 hours, each dose followed by water or food.',
      administration_and_route:
        'Oral tablets or paste with food; in cats follow every tablet with at least 6 mL of water or a treat.',
      contraindications:
        'Known tetracycline hypersensitivity; pregnancy and young animals (teeth and bone) (relative).',
      precautions_and_warnings:
        'Oesophagitis and oesophageal stricture in cats given dry tablets; reduce use in liver disease.',
      adverse_effects: 'Vomiting, nausea, inappetence; oesophageal stricture in cats; raised liver enzymes.',
      drug_interactions:
        'Antacids, calcium, iron and kaolin reduce absorption; may reduce the effect of bactericidal antibiotics.',
      monitoring_parameters: 'Clinical response; swallowing and regurgitation in cats; liver enzymes in long courses.',
      overdose_information: 'Gastrointestinal signs; supportive care.',
      withdrawal_times: NO_WITHDRAWAL,
      client_information:
        'Give with food; for cats, give a treat or a little water straight after each tablet. Call the clinic if your pet drools or struggles to swallow.',
      notes: 'Tick-borne diseases usually need 28 days of treatment.',
    },
  },
  {
    name: 'Metronidazole',
    names: ['metronidazole', 'flagyl', 'metrobactin', 'metronid', 'stomorgyl'],
    doses: {
      dog: [mgKg([10, 15], 'PO every 12 hours')],
      cat: [mgKg(10, 'PO every 12 hours')],
    },
    plain: {
      dog: 'Metronidazole is an antibiotic for anaerobic infections and some gut infections in dogs, given twice a day; high doses can affect the nervous system.',
      cat: 'Metronidazole is an antibiotic for anaerobic and some gut infections in cats, given twice a day; the tablets taste bitter, so a coated or flavoured form helps.',
    },
    card: {
      drug_name_and_classification: 'Metronidazole: nitroimidazole antibiotic and antiprotozoal.',
      indications_and_uses:
        'Anaerobic infections (dental, abscesses), Giardia; Clostridial diarrhoea; not first-line for uncomplicated acute diarrhoea.',
      pharmacology_and_mechanism_of_action:
        'Reduced inside anaerobic bacteria and protozoa to products that break their DNA (bactericidal).',
      dosing_by_species:
        'Dog: 10-15 mg/kg PO every 12 hours, no more than 30 mg/kg a day. Cat: 10 mg/kg PO every 12 hours, no more than 30 mg/kg a day.',
      administration_and_route: 'Oral tablets or suspension with food; injectable IV slowly.',
      contraindications: 'Pregnancy (first trimester); known hypersensitivity; severe liver disease (reduce the dose).',
      precautions_and_warnings:
        'Neurotoxicity (ataxia, nystagmus, seizures) at high doses or in long courses, especially above 60 mg/kg a day; reduce the dose in liver disease.',
      adverse_effects:
        'Nausea, vomiting, inappetence, hypersalivation (bitter taste); neurological signs at high doses.',
      drug_interactions: 'Phenobarbital lowers its levels; cimetidine raises them; may increase warfarin effect.',
      monitoring_parameters: 'Gait, eye movements and mentation; faeces and appetite.',
      overdose_information:
        'Ataxia, nystagmus, seizures: stop the drug; diazepam speeds recovery; signs settle over days.',
      withdrawal_times: NO_WITHDRAWAL,
      client_information:
        'Give with food every 12 hours. Stop and call the clinic if your pet seems wobbly, its eyes flicker or it has a fit.',
      notes:
        'Current guidelines advise against routine use in acute diarrhoea: most cases recover without antibiotics.',
    },
  },
];
